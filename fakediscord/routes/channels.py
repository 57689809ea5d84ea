"""A channel itself: GET, DELETE, typing."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..http import Req
from ..state import Perm

if TYPE_CHECKING:
    from ..server import FakeDiscord


def register(fake: FakeDiscord) -> None:
    r = fake.route

    @r("GET", "/channels/{channel_id}")
    async def get_channel(req: Req) -> tuple[int, Any]:
        channel = fake.channel_by_id(req.id("channel_id"))
        fake.require(channel)
        return 200, channel.payload()

    @r("DELETE", "/channels/{channel_id}")
    async def delete_channel(req: Req) -> tuple[int, Any]:
        channel = fake.channel_by_id(req.id("channel_id"))
        if not channel.is_dm:
            fake.require(
                channel, Perm.MANAGE_THREADS if channel.is_thread else Perm.MANAGE_CHANNELS
            )
        data = channel.payload()
        fake.delete_channel(channel)
        return 200, data

    @r("POST", "/channels/{channel_id}/typing")
    async def typing(req: Req) -> tuple[int, Any]:
        fake.require(fake.channel_by_id(req.id("channel_id")), Perm.SEND_MESSAGES)
        return 204, None
