"""Guilds: the guild, its channels, roles and members."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import errors as E
from ..errors import DiscordError
from ..http import Req
from ..state import Guild

if TYPE_CHECKING:
    from ..server import FakeDiscord


def register(fake: FakeDiscord) -> None:
    r = fake.route

    def guild_of(req: Req) -> Guild:
        guild = fake.guilds.get(req.id("guild_id"))
        if guild is None:
            raise E.unknown_guild()
        return guild

    @r("GET", "/guilds/{guild_id}")
    async def get_guild(req: Req) -> tuple[int, Any]:
        data = fake.guild_create_payload(guild_of(req))
        for key in (
            "members",
            "channels",
            "threads",
            "presences",
            "voice_states",
            "joined_at",
            "large",
            "member_count",
            "unavailable",
        ):
            data.pop(key, None)
        return 200, data

    @r("GET", "/guilds/{guild_id}/channels")
    async def guild_channels(req: Req) -> tuple[int, Any]:
        guild = guild_of(req)
        return 200, [
            fake.channels[c].payload()
            for c in guild.channel_ids
            if not fake.channels[c].deleted and not fake.channels[c].is_thread
        ]

    @r("GET", "/guilds/{guild_id}/roles")
    async def guild_roles(req: Req) -> tuple[int, Any]:
        return 200, [role.payload() for role in guild_of(req).roles.values()]

    @r("GET", "/guilds/{guild_id}/members/{user_id}")
    async def guild_member(req: Req) -> tuple[int, Any]:
        member = guild_of(req).members.get(req.id("user_id"))
        if member is None:
            raise DiscordError(404, 10007, "Unknown Member")
        return 200, member.payload()
