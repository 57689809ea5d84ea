"""Channel messages: send, history, get, edit, delete, bulk-delete, reactions."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import errors as E
from .. import limits
from ..errors import DiscordError
from ..http import Req
from ..state import Perm

if TYPE_CHECKING:
    from ..server import FakeDiscord


def register(fake: FakeDiscord) -> None:
    r = fake.route

    @r("POST", "/channels/{channel_id}/messages")
    async def send(req: Req) -> tuple[int, Any]:
        limits.check_files([len(u.data) for u in req.uploads])
        channel = fake.channel_by_id(req.id("channel_id"))
        payload = req.json or {}
        limits.check_message(payload, len(req.uploads))
        if channel.is_dm:
            assert channel.recipient is not None
            if channel.recipient.dms_closed:
                raise E.cannot_send_to_user()
        else:
            needed = [channel.send_permission]
            if req.uploads:
                needed.append(Perm.ATTACH_FILES)
            fake.require(channel, *needed)
            fake.check_thread_post(channel)
        nonce = payload.get("nonce")
        if nonce is not None and payload.get("enforce_nonce"):
            earlier = fake.message_by_nonce(str(nonce))
            if earlier is not None:  # the message made the first time, not a second one
                return 200, {**earlier.payload(), "nonce": earlier.nonce}
        message = fake.new_message(channel, payload, req.uploads)
        fake.store_message(message)
        fake.emit_create(message)
        if nonce is None:
            return 200, message.payload()
        message.nonce = str(nonce)  # given back in the create's reply only, as Discord does
        return 200, {**message.payload(), "nonce": message.nonce}

    @r("GET", "/channels/{channel_id}/messages")
    async def history(req: Req) -> tuple[int, Any]:
        channel = fake.channel_by_id(req.id("channel_id"))
        fake.require(channel, Perm.READ_MESSAGE_HISTORY)
        limit = int(req.query.get("limit", 50))
        if not 1 <= limit <= 100:
            raise E.invalid_form_body({"limit": {"_errors": [E.number_max(100)]}})
        msgs = fake.channel_messages(channel)
        if "before" in req.query:
            msgs = [m for m in msgs if m.id < int(req.query["before"])]
        if "after" in req.query:
            msgs = [m for m in msgs if m.id > int(req.query["after"])][:limit]
        if "around" in req.query:
            around = int(req.query["around"])
            msgs = sorted(msgs, key=lambda m: abs(m.id - around))[:limit]
        msgs = sorted(msgs, key=lambda m: m.id, reverse=True)[:limit]
        return 200, [m.payload() for m in msgs]

    @r("GET", "/channels/{channel_id}/messages/{message_id}")
    async def get_message(req: Req) -> tuple[int, Any]:
        channel = fake.channel_by_id(req.id("channel_id"))
        fake.require(channel, Perm.READ_MESSAGE_HISTORY)
        return 200, fake.message_in(channel, req.id("message_id")).payload()

    @r("PATCH", "/channels/{channel_id}/messages/{message_id}")
    async def edit(req: Req) -> tuple[int, Any]:
        channel = fake.channel_by_id(req.id("channel_id"))
        # Editing in a thread takes the right to post there (a bot that lost it gets 50013).
        fake.require(channel, *([Perm.SEND_MESSAGES_IN_THREADS] if channel.is_thread else []))
        message = fake.message_in(channel, req.id("message_id"))
        if message.author is not fake.bot_user:
            raise DiscordError(
                403,
                E.CANNOT_EDIT_OTHER_USERS_MESSAGE,
                "Cannot edit a message authored by another user",
            )
        fake.check_thread_edit(channel)
        fake.apply_edit(message, req.json or {}, req.uploads)
        fake.emit_update(message)
        return 200, message.payload()

    @r("DELETE", "/channels/{channel_id}/messages/{message_id}")
    async def delete(req: Req) -> tuple[int, Any]:
        channel = fake.channel_by_id(req.id("channel_id"))
        message = fake.message_in(channel, req.id("message_id"))
        if message.author is not fake.bot_user:
            if channel.is_dm:
                # Nobody may delete the other side's messages in a DM.
                raise E.cannot_execute_on_dm()
            fake.require(channel, Perm.MANAGE_MESSAGES)
        fake.delete_message(message)
        return 204, None

    @r("POST", "/channels/{channel_id}/messages/bulk-delete")
    async def bulk_delete(req: Req) -> tuple[int, Any]:
        channel = fake.channel_by_id(req.id("channel_id"))
        if channel.is_dm:
            raise E.cannot_execute_on_dm()
        fake.require(channel, Perm.MANAGE_MESSAGES)
        ids = [int(i) for i in (req.json or {}).get("messages", [])]
        if not 2 <= len(ids) <= 100:
            raise E.invalid_form_body({"messages": {"_errors": [E.bad_length(2, 100)]}})
        for mid in ids:
            msg = fake.messages.get(mid)
            if msg is not None and msg.channel_id == channel.id:
                fake.delete_message(msg)
        return 204, None

    async def react(req: Req) -> tuple[int, Any]:
        channel = fake.channel_by_id(req.id("channel_id"))
        fake.require(channel, Perm.ADD_REACTIONS)
        message = fake.message_in(channel, req.id("message_id"))
        fake.check_thread_edit(channel)
        entry = (message.id, req.params["emoji"])
        if req.record.method == "PUT":
            fake.reactions.append(entry)
        elif entry in fake.reactions:
            fake.reactions.remove(entry)
        return 204, None

    r("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me")(react)
    r("DELETE", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me")(react)
