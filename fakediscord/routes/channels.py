"""A channel itself: GET, DELETE, typing."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import errors as E
from ..errors import JSON
from ..http import Req
from ..limits import Limits
from ..state import Channel, Intents, Perm

if TYPE_CHECKING:
    from ..server import FakeDiscord


def register(fake: FakeDiscord) -> None:
    r = fake.route

    @r("GET", "/channels/{channel_id}")
    async def get_channel(req: Req) -> tuple[int, Any]:
        channel = fake.channel_by_id(req.id("channel_id"))
        fake.require(channel)
        return 200, channel.payload()

    @r("PATCH", "/channels/{channel_id}")
    async def modify_channel(req: Req) -> tuple[int, Any]:
        channel = fake.channel_by_id(req.id("channel_id"))
        if channel.is_dm:
            raise E.cannot_execute_on_dm()
        body = req.json or {}
        if channel.is_thread:
            modify_thread(fake, channel, body)
            return 200, channel.payload()
        fake.require(channel, Perm.MANAGE_CHANNELS)
        if "name" in body:
            check_name(body["name"], 100)
            channel.name = body["name"]
        fake.gateway.dispatch("CHANNEL_UPDATE", channel.payload(), intent=Intents.GUILDS)
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
        channel = fake.channel_by_id(req.id("channel_id"))
        fake.require(channel, channel.send_permission)
        return 204, None


AUTO_ARCHIVE_MINUTES = (60, 1440, 4320, 10080)


def check_name(name: Any, longest: int) -> None:
    if not isinstance(name, str) or not 1 <= len(name) <= longest:
        raise E.invalid_form_body({"name": {"_errors": [E.bad_length(1, longest)]}})


def check_auto_archive(body: JSON) -> None:
    value = body.get("auto_archive_duration")
    if value is not None and value not in AUTO_ARCHIVE_MINUTES:
        raise E.invalid_form_body(
            {"auto_archive_duration": {"_errors": [E.choices(AUTO_ARCHIVE_MINUTES)]}}
        )


def modify_thread(fake: FakeDiscord, thread: Channel, body: JSON) -> None:
    """Discord's rules for PATCH on a thread.

    An archived thread only accepts being unarchived (anything else is 400/50083);
    locking, or unarchiving a locked thread, takes MANAGE_THREADS; unarchiving an
    unlocked thread takes only the right to post in it; renaming, archiving and the
    archive duration are for the thread's creator or MANAGE_THREADS.
    """
    perms = fake.permissions(fake.bot_user, thread)
    if not perms & Perm.VIEW_CHANNEL:
        raise E.missing_access()
    manage = bool(perms & Perm.MANAGE_THREADS)
    unarchive = body.get("archived") is False and thread.archived
    if thread.archived and not unarchive:
        raise E.thread_archived()
    if "locked" in body and bool(body["locked"]) != thread.locked and not manage:
        raise E.missing_permissions()
    if unarchive and thread.locked and not manage:
        raise E.missing_permissions()
    if unarchive and not perms & Perm.SEND_MESSAGES_IN_THREADS:
        raise E.missing_permissions()
    owner = thread.owner_id == fake.bot_user.id
    others = {"name", "auto_archive_duration"} | ({"archived"} if not unarchive else set())
    if any(k in body for k in others) and not (owner or manage):
        raise E.missing_permissions()
    if "name" in body:
        check_name(body["name"], Limits.THREAD_NAME)
    check_auto_archive(body)
    fake.update_thread(
        thread,
        archived=bool(body["archived"]) if "archived" in body else None,
        locked=bool(body["locked"]) if "locked" in body else None,
        name=body.get("name"),
        auto_archive_duration=body.get("auto_archive_duration"),
    )
