"""Threads: with or without a starter message, and thread members."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import errors as E
from ..errors import JSON, DiscordError
from ..http import Req
from ..limits import Limits
from ..state import Channel, ChannelType, Intents, Perm
from .channels import check_auto_archive, check_name

if TYPE_CHECKING:
    from ..server import FakeDiscord


def register(fake: FakeDiscord) -> None:
    r = fake.route

    def make_thread(parent: Channel, body: JSON, ttype: int, tid: int | None) -> Channel:
        if (
            parent.is_dm
            or parent.is_thread
            or parent.type != ChannelType.GUILD_TEXT
            or parent.guild_id is None
        ):
            raise E.invalid_channel_type()
        check_name(body.get("name"), Limits.THREAD_NAME)
        check_auto_archive(body)
        needed = (
            Perm.CREATE_PRIVATE_THREADS
            if ttype == ChannelType.PRIVATE_THREAD
            else Perm.CREATE_PUBLIC_THREADS
        )
        fake.require(parent, needed)
        guild = fake.guilds[parent.guild_id]
        thread = Channel(
            tid or fake.ids.next(),
            ttype,
            body["name"],
            guild.id,
            parent_id=parent.id,
            owner_id=fake.bot_user.id,
            created_at=fake.clock.time(),
            auto_archive_duration=int(body.get("auto_archive_duration") or 1440),
        )
        fake.add_channel(guild, thread)
        fake.thread_members[thread.id] = {fake.bot_user.id}
        fake.gateway.dispatch(
            "THREAD_CREATE", thread.payload() | {"newly_created": True}, intent=Intents.GUILDS
        )
        fake.notifier.notify()
        return thread

    @r("POST", "/channels/{channel_id}/threads")
    async def thread_without_message(req: Req) -> tuple[int, Any]:
        parent = fake.channel_by_id(req.id("channel_id"))
        body = req.json or {}
        ttype = int(body.get("type") or ChannelType.PRIVATE_THREAD)
        return 201, make_thread(parent, body, ttype, None).payload()

    @r("POST", "/channels/{channel_id}/messages/{message_id}/threads")
    async def thread_from_message(req: Req) -> tuple[int, Any]:
        # The thread takes the message's id, hence one thread per message.
        parent = fake.channel_by_id(req.id("channel_id"))
        message = fake.message_in(parent, req.id("message_id"))
        if message.id in fake.channels:
            raise DiscordError(
                400, E.THREAD_ALREADY_CREATED, "A thread has already been created for this message"
            )
        thread = make_thread(parent, req.json or {}, ChannelType.PUBLIC_THREAD, message.id)
        message.thread = thread
        return 201, thread.payload()

    async def thread_member(req: Req) -> tuple[int, Any]:
        thread = fake.channel_by_id(req.id("channel_id"))
        if not thread.is_thread:
            raise E.invalid_channel_type()
        if thread.archived:
            raise E.thread_archived()
        raw = req.params["user_id"]
        uid = fake.bot_user.id if raw == "@me" else req.id("user_id")
        members = fake.thread_members.setdefault(thread.id, set())
        if req.record.method == "PUT":
            members.add(uid)
        else:
            members.discard(uid)
        fake.notifier.notify()
        return 204, None

    for method in ("PUT", "DELETE"):
        r(method, "/channels/{channel_id}/thread-members/{user_id}")(thread_member)
