"""Messages as the routes create, edit and delete them, and the checks they share.

A mixin of :class:`~.server.FakeDiscord`: the lookups that answer Discord's 404s,
the bot's permission checks, attachments served back by URL, the message store
with its live/peak counts, the gateway events of a message, and edits validated
against the message they would produce.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import TYPE_CHECKING

from . import errors as E
from . import limits
from .clock import VirtualClock
from .errors import JSON
from .gateway import Gateway
from .http import LOADING, Upload
from .limits import EPHEMERAL
from .state import (
    Attachment,
    Channel,
    Guild,
    Intents,
    Interaction,
    Message,
    Notifier,
    Perm,
    Snowflakes,
    User,
)

#: how long a nonce sent with ``enforce_nonce`` stands for its message (Discord: "the
#: past few minutes", no figure given)
NONCE_WINDOW = 300.0


class MessagesMixin:
    """Message storage and the checks routes share, for :class:`~.server.FakeDiscord`."""

    clock: VirtualClock
    ids: Snowflakes
    bot_user: User
    application_id: int
    guilds: dict[int, Guild]
    channels: dict[int, Channel]
    messages: dict[int, Message]
    attachments: dict[int, Attachment]
    gateway: Gateway
    notifier: Notifier
    _channel_messages: dict[int, list[Message]]
    _live_bot: Counter[int]
    _peak_bot: Counter[int]

    if TYPE_CHECKING:  # provided by FakeDiscord and WorldMixin

        @property
        def base_url(self) -> str: ...

        def permissions(self, user: User, channel: Channel) -> int: ...

    # ================================================================== helpers
    def channel_by_id(self, channel_id: int) -> Channel:
        channel = self.channels.get(channel_id)
        if channel is None or channel.deleted:
            raise E.unknown_channel()
        return channel

    def message_in(self, channel: Channel, message_id: int) -> Message:
        message = self.messages.get(message_id)
        if (
            message is None
            or message.deleted
            or message.channel_id != channel.id
            or message.ephemeral_for is not None
        ):
            raise E.unknown_message()
        return message

    def require(self, channel: Channel, *needed: int) -> None:
        if channel.is_dm:
            return
        perms = self.permissions(self.bot_user, channel)
        if not perms & Perm.VIEW_CHANNEL:
            raise E.missing_access()
        for bit in needed:
            if not perms & bit:
                raise E.missing_permissions()

    def _attachments_from(
        self, payload: JSON, uploads: list[Upload], channel: Channel, keep: list[Attachment]
    ) -> list[Attachment]:
        """New ``files[n]`` become attachments; ``payload.attachments`` picks which stay."""
        by_index: dict[int, JSON] = {}
        keep_ids: set[int] | None = None
        if payload.get("attachments") is not None:
            keep_ids = set()
            for a in payload["attachments"]:
                aid = int(a.get("id", -1))
                if any(k.id == aid for k in keep):
                    keep_ids.add(aid)
                else:
                    by_index[aid] = a
        result = [a for a in keep if keep_ids is None or a.id in keep_ids]
        for up in uploads:
            m = re.match(r"files\[(\d+)\]", up.field)
            index = int(m.group(1)) if m else len(result)
            meta = by_index.get(index, {})
            result.append(
                self.new_attachment(
                    meta.get("filename") or up.filename, up.data, channel, meta.get("description")
                )
            )
        return result

    def new_attachment(
        self, filename: str, data: bytes, channel: Channel, description: str | None = None
    ) -> Attachment:
        """Store an upload so its URL serves the bytes back (``Attachment.read()`` works)."""
        att = Attachment(self.ids.next(), filename, data, channel.id, description, self.base_url)
        self.attachments[att.id] = att
        return att

    def message_by_nonce(self, nonce: str) -> Message | None:
        """The bot's message created with ``nonce`` within ``NONCE_WINDOW`` seconds and
        not deleted: what Discord answers a create with ``enforce_nonce`` ("if another
        message was created by the same author with the same nonce, that message will be
        returned and no new message will be created"; "the past few minutes")."""
        since = self.clock.time() - NONCE_WINDOW
        for message in reversed(self.messages.values()):
            if message.created_at < since:
                return None
            if message.nonce == nonce and message.author is self.bot_user and not message.deleted:
                return message
        return None

    def store_message(self, message: Message) -> None:
        self.messages[message.id] = message
        self._channel_messages.setdefault(message.channel_id, []).append(message)
        channel = self.channels.get(message.channel_id)
        if channel is not None and message.ephemeral_for is None:
            channel.last_message_id = message.id
            channel.message_count += 1
            channel.last_activity = self.clock.time()
        if message.author is self.bot_user and message.ephemeral_for is None:
            live = self._live_bot[message.channel_id] = self._live_bot[message.channel_id] + 1
            self._peak_bot[message.channel_id] = max(self._peak_bot[message.channel_id], live)

    def delete_message(self, message: Message) -> None:
        """Delete a message and dispatch MESSAGE_DELETE (once)."""
        if message.deleted:
            return
        message.deleted = True
        if message.author is self.bot_user and message.ephemeral_for is None:
            self._live_bot[message.channel_id] -= 1
        self._emit_delete(message)

    def live_bot_messages(self, channel: Channel) -> int:
        """How many of the bot's public messages ``channel`` holds now (deleted ones excluded)."""
        return self._live_bot[channel.id]

    def peak_bot_messages(self, channel: Channel) -> int:
        """The most of the bot's public messages ``channel`` ever held at once, e.g. the
        "at most 2 live panels per DM" budget: ``max(fake.peak_bot_messages(fake.dm_channel(u))
        for u in players)``."""
        return self._peak_bot[channel.id]

    def _message_intent(self, message: Message) -> int:
        return Intents.GUILD_MESSAGES if message.guild_id else Intents.DIRECT_MESSAGES

    def emit_create(self, message: Message) -> None:
        if message.ephemeral_for is None:
            self.gateway.dispatch(
                "MESSAGE_CREATE", message.payload(), intent=self._message_intent(message)
            )
        self.notifier.notify()

    def emit_update(self, message: Message) -> None:
        if message.ephemeral_for is None:
            self.gateway.dispatch(
                "MESSAGE_UPDATE", message.payload(), intent=self._message_intent(message)
            )
        self.notifier.notify()

    def _emit_delete(self, message: Message) -> None:
        if message.ephemeral_for is None:
            data = {"id": str(message.id), "channel_id": str(message.channel_id)}
            if message.guild_id:
                data["guild_id"] = str(message.guild_id)
            self.gateway.dispatch("MESSAGE_DELETE", data, intent=self._message_intent(message))
        self.notifier.notify()

    def new_message(
        self,
        channel: Channel,
        payload: JSON,
        uploads: list[Upload],
        *,
        author: User | None = None,
        ephemeral_for: int | None = None,
        interaction: Interaction | None = None,
        mtype: int = 0,
    ) -> Message:
        flags = int(payload.get("flags") or 0)
        if ephemeral_for is None:
            flags &= ~EPHEMERAL
        message = Message(
            id=self.ids.next(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=author or self.bot_user,
            created_at=self.clock.time(),
            content=payload.get("content") or "",
            embeds=list(payload.get("embeds") or []),
            components=list(payload.get("components") or []),
            flags=flags,
            type=mtype,
            ephemeral_for=ephemeral_for,
            interaction=interaction,
        )
        if interaction is not None:
            message.webhook_id = self.application_id
            message.application_id = self.application_id
        message.attachments = self._attachments_from(payload, uploads, channel, [])
        ref = payload.get("message_reference")
        if ref and ref.get("message_id"):
            ref_msg = self.messages.get(int(ref["message_id"]))
            if ref_msg is None and ref.get("fail_if_not_exists", True):
                raise E.invalid_form_body(
                    {
                        "message_reference": {
                            "_errors": [
                                E.err("MESSAGE_REFERENCE_UNKNOWN_MESSAGE", "Unknown message")
                            ]
                        }
                    }
                )
            message.message_reference = {
                "message_id": str(ref["message_id"]),
                "channel_id": str(channel.id),
                "type": 0,
            }
            if channel.guild_id:
                message.message_reference["guild_id"] = str(channel.guild_id)
            message.type = 19
        return message

    def apply_edit(self, message: Message, payload: JSON, uploads: list[Upload]) -> None:
        """Validate an edit against the message it would produce, then apply it."""
        limits.check_files([len(u.data) for u in uploads])
        final = message.payload()
        for key in ("content", "embeds", "components"):
            if key in payload:
                final[key] = (
                    payload[key] if payload[key] is not None else ("" if key == "content" else [])
                )
        if "attachments" in payload:
            # The list names the attachments kept *and* the new files[n] by index.
            final["attachments"] = list(payload["attachments"] or [])
        elif uploads:
            final["attachments"] = final["attachments"] + [{"id": i} for i in range(len(uploads))]
        limits.check_message(payload, len(uploads), final=final)
        if "content" in payload:
            message.content = payload["content"] or ""
        if "embeds" in payload:
            message.embeds = list(payload["embeds"] or [])
        if "components" in payload:
            message.components = list(payload["components"] or [])
        if "flags" in payload and payload["flags"] is not None:
            keep = message.flags & (EPHEMERAL | limits.IS_COMPONENTS_V2)
            message.flags = keep | (int(payload["flags"]) & ~(EPHEMERAL | LOADING))
        message.flags &= ~LOADING
        channel = self.channels[message.channel_id]
        message.attachments = self._attachments_from(payload, uploads, channel, message.attachments)
        message.edited_at = self.clock.time()
        message.edits += 1
