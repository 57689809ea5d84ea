"""The fake's world: users, guilds, channels, messages, commands, interactions.

Everything the fake serves is built from these records, and every payload is
rendered by one ``payload()`` method per kind so that REST answers, gateway
dispatches and interaction ``message`` fields agree with each other (discord.py
caches objects from all three and gets confused when they differ).
"""

from __future__ import annotations

import asyncio
import functools
import io
import itertools
import mimetypes
import secrets
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from .clock import VirtualClock
from .errors import JSON
from .limits import EPHEMERAL

DISCORD_EPOCH_MS = 1_420_070_400_000


class Perm:
    """Permission bits the fake checks (https://discord.com/developers/docs/topics/permissions)."""

    CREATE_INSTANT_INVITE = 1 << 0
    ADMINISTRATOR = 1 << 3
    MANAGE_CHANNELS = 1 << 4
    ADD_REACTIONS = 1 << 6
    VIEW_CHANNEL = 1 << 10
    SEND_MESSAGES = 1 << 11
    MANAGE_MESSAGES = 1 << 13
    EMBED_LINKS = 1 << 14
    ATTACH_FILES = 1 << 15
    READ_MESSAGE_HISTORY = 1 << 16
    MENTION_EVERYONE = 1 << 17
    USE_EXTERNAL_EMOJIS = 1 << 18
    USE_APPLICATION_COMMANDS = 1 << 31
    MANAGE_THREADS = 1 << 34
    CREATE_PUBLIC_THREADS = 1 << 35
    CREATE_PRIVATE_THREADS = 1 << 36
    SEND_MESSAGES_IN_THREADS = 1 << 38
    THREAD_PERMISSIONS = (
        MANAGE_THREADS | CREATE_PUBLIC_THREADS | CREATE_PRIVATE_THREADS | SEND_MESSAGES_IN_THREADS
    )

    EVERYONE_DEFAULT = (
        VIEW_CHANNEL
        | SEND_MESSAGES
        | ADD_REACTIONS
        | EMBED_LINKS
        | ATTACH_FILES
        | READ_MESSAGE_HISTORY
        | USE_EXTERNAL_EMOJIS
        | USE_APPLICATION_COMMANDS
        | CREATE_PUBLIC_THREADS
        | SEND_MESSAGES_IN_THREADS
    )
    BOT_DEFAULT = EVERYONE_DEFAULT | MANAGE_MESSAGES | MANAGE_THREADS | CREATE_PRIVATE_THREADS
    ALL = (1 << 53) - 1


class Intents:
    """Gateway intent bits the fake gates dispatches on."""

    GUILDS = 1 << 0
    GUILD_MEMBERS = 1 << 1
    GUILD_PRESENCES = 1 << 8
    GUILD_MESSAGES = 1 << 9
    DIRECT_MESSAGES = 1 << 12
    MESSAGE_CONTENT = 1 << 15
    PRIVILEGED = GUILD_MEMBERS | GUILD_PRESENCES | MESSAGE_CONTENT


class ChannelType:
    GUILD_TEXT = 0
    DM = 1
    GUILD_CATEGORY = 4
    PUBLIC_THREAD = 11
    PRIVATE_THREAD = 12
    THREADS = (11, 12)


@functools.lru_cache(maxsize=4096)
def iso(ts: float | None) -> str | None:
    """Discord's ISO8601 timestamps (discord.py parses them with fromisoformat).

    Kept: a message's payload is written at every answer that holds it, with the
    same few timestamps each time."""
    if ts is None:
        return None
    return datetime.fromtimestamp(ts, UTC).isoformat()


_PNG = b"\x89PNG\r\n\x1a\n"


@functools.lru_cache(maxsize=64)
def _content_type(filename: str) -> str:
    return mimetypes.guess_type(filename)[0] or "application/octet-stream"


@dataclass(eq=False)
class User:
    """A Discord user: the bot itself or a simulated person."""

    id: int
    name: str
    bot: bool = False
    dms_closed: bool = False
    locale: str = "en-US"  # the language of this person's Discord client

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": None if self.bot else self.name.title(),
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
            "banner": None,
            "accent_color": None,
            "avatar_decoration_data": None,
            "primary_guild": None,
            "collectibles": None,
        }

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass(eq=False)
class Role:
    id: int
    guild_id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
            "tags": {"bot_id": None} if self.managed else {},
        }


@dataclass(eq=False)
class Member:
    user: User
    guild_id: int
    roles: list[int]
    joined_at: float

    def payload(self, permissions: int | None = None) -> JSON:
        data: JSON = {
            "user": self.user.payload(),
            "nick": None,
            "avatar": None,
            "banner": None,
            "roles": [str(r) for r in self.roles],
            "joined_at": iso(self.joined_at),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


@dataclass(eq=False)
class Overwrite:
    id: int
    type: int  # 0 role, 1 member
    allow: int = 0
    deny: int = 0

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "type": self.type,
            "allow": str(self.allow),
            "deny": str(self.deny),
        }


@dataclass(eq=False)
class Channel:
    """A guild text channel, a category, a thread or a DM channel."""

    id: int
    type: int
    name: str | None = None
    guild_id: int | None = None
    parent_id: int | None = None
    position: int = 0
    recipient: User | None = None
    overwrites: list[Overwrite] = field(default_factory=list)
    owner_id: int | None = None
    created_at: float = 0.0
    last_message_id: int | None = None
    message_count: int = 0
    deleted: bool = False
    # Thread metadata (threads only).
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    archive_timestamp: float | None = None
    last_activity: float = 0.0  # a message, unarchiving, a new archive duration

    @property
    def is_thread(self) -> bool:
        return self.type in ChannelType.THREADS

    @property
    def is_dm(self) -> bool:
        return self.type == ChannelType.DM

    @property
    def send_permission(self) -> int:
        """Posting in a thread takes SEND_MESSAGES_IN_THREADS instead of SEND_MESSAGES."""
        return Perm.SEND_MESSAGES_IN_THREADS if self.is_thread else Perm.SEND_MESSAGES

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def payload(self) -> JSON:
        if self.is_dm:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": self.type,
                "last_message_id": _opt(self.last_message_id),
                "recipients": [self.recipient.payload()],
                "flags": 0,
            }
        data: JSON = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [o.payload() for o in self.overwrites],
            "parent_id": _opt(self.parent_id),
            "nsfw": False,
            "flags": 0,
        }
        if self.type == ChannelType.GUILD_TEXT:
            data.update(
                topic=None,
                last_message_id=_opt(self.last_message_id),
                rate_limit_per_user=0,
                default_auto_archive_duration=1440,
            )
        if self.is_thread:
            data.update(
                owner_id=str(self.owner_id),
                last_message_id=_opt(self.last_message_id),
                rate_limit_per_user=0,
                message_count=self.message_count,
                member_count=1,
                total_message_sent=self.message_count,
                thread_metadata={
                    "archived": self.archived,
                    "auto_archive_duration": self.auto_archive_duration,
                    "archive_timestamp": iso(self.archive_timestamp or self.created_at),
                    "locked": self.locked,
                    "invitable": True,
                    "create_timestamp": iso(self.created_at),
                },
            )
        return data


def _opt(value: int | None) -> str | None:
    return None if value is None else str(value)


@dataclass(eq=False)
class Guild:
    id: int
    name: str
    owner_id: int
    joined_at: float
    roles: dict[int, Role] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    channel_ids: list[int] = field(default_factory=list)
    preferred_locale: str = "en-US"


@dataclass(eq=False)
class Attachment:
    """An uploaded file, kept whole so tests can look at what players would see."""

    id: int
    filename: str
    data: bytes
    channel_id: int
    description: str | None = None
    base_url: str = ""
    _image: tuple[int, int] | None = None
    _decoded: bool = False  # _image is decoded once, on first use

    @property
    def size(self) -> int:
        return len(self.data)

    @property
    def content_type(self) -> str:
        return _content_type(self.filename)

    @property
    def image_size(self) -> tuple[int, int] | None:
        """(width, height) decoded with Pillow, or None if the bytes are not an image.

        A PNG's size is read from its header (the IHDR chunk always comes first): most
        uploads are the bot's PNGs, and Pillow's open cost more than the fake's whole
        handling of the upload. Pillow still checks every other kind of file.
        """
        if not self._decoded:
            self._decoded = True
            data = self.data
            if data[:8] == _PNG and data[12:16] == b"IHDR" and len(data) >= 33:
                self._image = (int.from_bytes(data[16:20]), int.from_bytes(data[20:24]))
                return self._image
            try:
                from PIL import Image

                with Image.open(io.BytesIO(data)) as img:
                    self._image = (int(img.size[0]), int(img.size[1]))
            except Exception:
                self._image = None
        return self._image

    @property
    def url(self) -> str:
        return f"{self.base_url}/attachments/{self.channel_id}/{self.id}/{self.filename}"

    def payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
        }
        if self.description is not None:
            data["description"] = self.description
        dims = self.image_size
        if dims is not None:
            data["width"], data["height"] = dims
        return data


@dataclass(eq=False)
class Message:
    """A message in a channel, a DM, or an ephemeral one seen by a single user."""

    id: int
    channel_id: int
    guild_id: int | None
    author: User
    created_at: float
    content: str = ""
    embeds: list[JSON] = field(default_factory=list)
    components: list[JSON] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    ephemeral_for: int | None = None
    interaction: Interaction | None = None
    webhook_id: int | None = None
    application_id: int | None = None
    edited_at: float | None = None
    deleted: bool = False
    message_reference: JSON | None = None
    edits: int = 0
    thread: Channel | None = None  # the thread started from this message
    nonce: str | None = None  # as sent, for ``enforce_nonce``; not in the payload (below)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """A deferred response's placeholder ("Bot is thinking…") not yet edited."""
        return bool(self.flags & (1 << 7))

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in iter_components(self.components) if "custom_id" in c]

    def find_component(self, custom_id: str) -> JSON | None:
        for comp in iter_components(self.components):
            if comp.get("custom_id") == custom_id:
                return comp
        return None

    def payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": iso(self.created_at),
            "edited_timestamp": iso(self.edited_at),
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
        if self.message_reference is not None:
            data["message_reference"] = self.message_reference
        if self.thread is not None and not self.thread.deleted:
            data["thread"] = self.thread.payload()
        if self.interaction is not None:
            inter = self.interaction
            data["interaction_metadata"] = {
                "id": str(inter.id),
                "type": inter.type,
                "user": inter.user.payload(),
                "authorizing_integration_owners": inter.integration_owners(),
            }
            if inter.type == 2:
                data["interaction"] = {
                    "id": str(inter.id),
                    "type": inter.type,
                    "name": inter.command_name(),
                    "user": inter.user.payload(),
                }
        return data


def iter_components(components: list[JSON]) -> Iterator[JSON]:
    """Every component in a message or modal, depth first (rows, sections, labels…)."""
    for comp in components:
        yield comp
        yield from iter_components(comp.get("components") or [])
        for key in ("component", "accessory"):
            inner = comp.get(key)
            if isinstance(inner, dict):
                yield from iter_components([inner])


@dataclass(eq=False)
class Command:
    """An application command as the bot synced it (the schema the driver obeys)."""

    id: int
    application_id: int
    guild_id: int | None
    raw: JSON
    version: int

    @property
    def name(self) -> str:
        return str(self.raw["name"])

    @property
    def type(self) -> int:
        return int(self.raw.get("type", 1))

    def payload(self) -> JSON:
        data = {
            "default_member_permissions": None,
            "dm_permission": True,
            "nsfw": False,
            "contexts": None,
            "integration_types": [0],
            "options": [],
            "description": "",
            "type": 1,
        }
        data.update(self.raw)
        data.update(
            id=str(self.id),
            application_id=str(self.application_id),
            version=str(self.version),
        )
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        return data


class Interaction:
    """One interaction from its creation to its last followup; the driver awaits on it."""

    def __init__(
        self,
        *,
        id: int,
        token: str,
        type: int,
        application_id: int,
        user: User,
        channel: Channel,
        data: JSON,
        created_at: float,
        message: Message | None,
        guild_id: int | None,
    ) -> None:
        self.id = id
        self.token = token
        self.type = type
        self.application_id = application_id
        self.user = user
        self.channel = channel
        self.guild_id = guild_id
        self.data = data
        self.created_at = created_at
        self.message = message  # the message a component sits on
        self.response_type: int | None = None
        self.response_data: JSON | None = None
        self.acked_at: float | None = None
        self.original: Message | None = None  # the response message (or updated message)
        self.followups: list[Message] = []
        self.errors: list[tuple[int, JSON]] = []  # (status, body): refusals (4xx but 429)
        self.requests = 0
        self.notifier = Notifier()  # woken by requests on this token (handles wait on it)
        # Real time, for benchmarks: the ack latency the bot achieved.
        self.created_perf = time.perf_counter()
        self.acked_perf: float | None = None

    @property
    def ack_latency(self) -> float | None:
        """Real seconds from INTERACTION_CREATE to the accepted callback (None if not acked)."""
        return None if self.acked_perf is None else self.acked_perf - self.created_perf

    def integration_owners(self) -> JSON:
        return {"0": str(self.guild_id)} if self.guild_id else {"1": str(self.user.id)}

    def command_name(self) -> str:
        name = str(self.data.get("name", ""))
        options = self.data.get("options") or []
        while options and options[0].get("type") in (1, 2):
            name += " " + options[0]["name"]
            options = options[0].get("options") or []
        return name

    @property
    def modal(self) -> JSON | None:
        """The modal the bot opened (response type 9), if it did."""
        return self.response_data if self.response_type == 9 else None

    @property
    def choices(self) -> list[JSON] | None:
        """The autocomplete choices the bot returned (response type 8), if it did."""
        if self.response_type == 8 and self.response_data is not None:
            return list(self.response_data.get("choices") or [])
        return None

    def __repr__(self) -> str:
        return (
            f"<Interaction id={self.id} type={self.type} user={self.user.name} "
            f"response_type={self.response_type}>"
        )


class Snowflakes:
    """Deterministic, increasing snowflakes whose timestamp is the virtual clock's."""

    def __init__(self, clock: VirtualClock) -> None:
        self._clock = clock
        self._counter = itertools.count(1)
        self._last = 0

    def next(self) -> int:
        ms = int(self._clock.time() * 1000) - DISCORD_EPOCH_MS
        value = (ms << 22) | (next(self._counter) & 0x3FFFFF)
        if value <= self._last:
            value = self._last + 1
        self._last = value
        return value

    def guild_id(self, shard: tuple[int, int] | None = None) -> int:
        """A guild id with a millisecond of its own, so guilds spread over shards as
        Discord routes them (``(guild_id >> 22) % num_shards``); with ``shard=(id, n)``
        the id lands on that shard."""
        ms = (self.next() >> 22) + 1
        if shard is not None:
            shard_id, count = shard
            if not 0 <= shard_id < count:
                raise ValueError(f"no shard {shard_id} among {count}")
            ms += (shard_id - ms) % count
        self._last = ms << 22
        return self._last


def new_token() -> str:
    return "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(24)


class Notifier:
    """Wakes every waiter on any state change, so tests wait on conditions, not sleeps."""

    def __init__(self) -> None:
        self._waiters: list[asyncio.Future[None]] = []

    def notify(self) -> None:
        waiters, self._waiters = self._waiters, []
        for fut in waiters:
            if not fut.done():
                fut.set_result(None)

    async def wait_for(self, predicate: Any, timeout: float, poll: float | None = None) -> Any:
        """Return the first truthy ``predicate()``, re-checked after every state change.

        Predicates about the fake wake on its changes; predicates about the
        client's cache (which the fake cannot see change) need ``poll``: they are
        then also re-checked every ``poll`` seconds until the deadline.
        """
        loop = asyncio.get_running_loop()
        async with asyncio.timeout(timeout):
            while True:
                result = predicate()
                if result:
                    return result
                fut = loop.create_future()
                self._waiters.append(fut)
                timer = loop.call_later(poll, _wake, fut) if poll is not None else None
                try:
                    await fut
                finally:
                    if timer is not None:
                        timer.cancel()


def _wake(fut: asyncio.Future[None]) -> None:
    if not fut.done():
        fut.set_result(None)
