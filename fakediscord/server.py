"""The fake Discord: an aiohttp server on 127.0.0.1 speaking REST v10 and the gateway.

The real, unpatched discord.py client talks to it once two class attributes
point at it (:func:`~.harness.point_discord_py_at`): ``discord.http.Route.BASE``
for REST (the interaction and webhook routes go through discord.py's webhook
adapter, which builds its URLs from the same ``Route.BASE``) and
``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` for the websocket.

Protocol facts this server depends on (verified against discord.py 2.7.1):

* JSON answers carry ``Content-Type: application/json`` exactly; with a charset
  discord.py's ``json_or_text`` treats the body as text.
* A 429 is retried only when the answer has a ``Via`` header; without one
  discord.py takes it for a Cloudflare ban and raises at once.
* Interaction callbacks are posted with ``?with_response=1`` and discord.py reads
  the callback object back (``interaction.response_message_id`` is how a View
  sent with the response gets bound to its message).
* Uploads are multipart with ``payload_json`` plus ``files[n]``.

Routes the fake does not know answer a loud 404 naming the route, so a bot that
starts using a new endpoint fails its tests instead of silently passing.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from . import errors as E
from . import limits
from .clock import VirtualClock
from .errors import JSON, DiscordError
from .faults import Faults
from .gateway import Gateway
from .limits import EPHEMERAL, Limits
from .state import (
    Attachment,
    Channel,
    ChannelType,
    Command,
    Guild,
    Intents,
    Interaction,
    Member,
    Message,
    Notifier,
    Overwrite,
    Perm,
    Role,
    Snowflakes,
    User,
    iso,
    iter_components,
    new_token,
)

LOADING = 1 << 7
API_PREFIX = "/api/v10"


@dataclass
class Upload:
    """One ``files[n]`` part of a multipart request."""

    field: str
    filename: str
    data: bytes


@dataclass
class RequestRecord:
    """One HTTP request the bot made, and what the fake answered."""

    method: str
    path: str
    route: str | None
    params: dict[str, str]
    query: dict[str, str]
    json: Any
    uploads: list[Upload]
    at: float
    status: int = 0
    response: Any = None
    fault: str | None = None

    @property
    def error_code(self) -> int | None:
        """Discord's JSON error code, for 4xx/5xx answers."""
        if isinstance(self.response, dict):
            return self.response.get("code")
        return None

    def __repr__(self) -> str:
        return f"<{self.method} {self.path} -> {self.status} {self.error_code or ''}>"


@dataclass
class Req:
    """What a route handler sees."""

    record: RequestRecord
    params: dict[str, str]
    query: dict[str, str]
    json: Any
    uploads: list[Upload] = field(default_factory=list)

    def id(self, name: str) -> int:
        try:
            return int(self.params[name])
        except ValueError:
            raise E.invalid_form_body(
                {
                    name: {
                        "_errors": [
                            E.err(
                                "NUMBER_TYPE_COERCE",
                                f'Value "{self.params[name]}" is not snowflake.',
                            )
                        ]
                    }
                }
            ) from None


Handler = Callable[[Req], Awaitable[tuple[int, Any]]]


@dataclass
class _Route:
    method: str
    template: str
    regex: re.Pattern[str]
    handler: Handler
    auth: bool


def _compile(template: str) -> re.Pattern[str]:
    """``/channels/{channel_id}`` -> a regex with a named group per placeholder."""
    parts = re.split(r"\{(\w+)\}", template)
    pattern = "".join(
        re.escape(p) if i % 2 == 0 else f"(?P<{p}>[^/]+)" for i, p in enumerate(parts)
    )
    return re.compile(f"^{pattern}$")


def _json_response(status: int, body: Any, headers: dict[str, str] | None = None) -> web.Response:
    # Exactly "application/json": discord.py compares the header verbatim.
    hdrs = {"Content-Type": "application/json"}
    if headers:
        hdrs.update(headers)
    return web.Response(status=status, body=json.dumps(body).encode(), headers=hdrs)


class FakeDiscord:
    """A loopback Discord for one bot application: world, REST, gateway, faults and logs.

    Use it as an async context manager (or ``start()``/``stop()``); build the
    world with :meth:`create_guild`, :meth:`create_text_channel`,
    :meth:`create_user`; drive users with :class:`~.driver.UserDriver`; inspect
    what the bot did with :meth:`channel_messages`, :meth:`dms`,
    :meth:`ephemerals`, :meth:`files`, :attr:`requests` and :attr:`errors`.
    """

    def __init__(
        self,
        *,
        token: str = "fake-bot-token",
        bot_name: str = "shengji",
        clock: VirtualClock | None = None,
        privileged_intents: int = Intents.PRIVILEGED,
        heartbeat_interval: float = 41.25,
        max_log: int | None = None,
        host: str = "127.0.0.1",
    ) -> None:
        self.token = token
        self.clock = clock or VirtualClock()
        self.ids = Snowflakes(self.clock)
        self.host = host
        self.port = 0
        self.privileged_intents = privileged_intents
        self.application_flags = (1 << 15) | (1 << 19) | (1 << 23)  # privileged intents enabled
        self.bot_user = User(self.ids.next(), bot_name, bot=True)
        self.application_id = self.bot_user.id
        self.owner = User(self.ids.next(), "owner")
        self.users: dict[int, User] = {self.bot_user.id: self.bot_user, self.owner.id: self.owner}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self._channel_messages: dict[int, list[Message]] = {}
        self._dm_by_user: dict[int, Channel] = {}
        self.commands: dict[int, Command] = {}
        self.interactions: dict[int, Interaction] = {}
        self._interactions_by_token: dict[str, Interaction] = {}
        self.attachments: dict[int, Attachment] = {}  # every upload, served back by URL
        self.reactions: list[tuple[int, str]] = []
        self.thread_members: dict[int, set[int]] = {}
        self.requests: deque[RequestRecord] = deque(maxlen=max_log)
        self.notifier = Notifier()
        self.faults = Faults(self)
        self.gateway = Gateway(self, heartbeat_interval)
        self.in_flight = 0
        self._routes: list[_Route] = []
        self._runner: web.AppRunner | None = None
        self._register_routes()

    # ================================================================== lifecycle
    async def start(self) -> FakeDiscord:
        app = web.Application(client_max_size=256 * 1024 * 1024)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get(
            "/attachments/{channel_id}/{attachment_id}/{filename}", self._serve_attachment
        )
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._entry)
        app.router.add_route("*", "/{tail:.*}", self._unknown_root)
        self._runner = web.AppRunner(
            app, access_log=None, handle_signals=False, shutdown_timeout=0.1
        )
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, 0)
        await site.start()
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]
        return self

    async def stop(self) -> None:
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def api_base(self) -> str:
        """What ``discord.http.Route.BASE`` must be set to."""
        return self.base_url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        """What ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` must be set to."""
        return f"ws://{self.host}:{self.port}/gateway"

    # ================================================================== world building
    def create_guild(self, name: str = "Test Guild") -> Guild:
        """A guild the bot is in (GUILD_CREATE is dispatched if the bot is connected)."""
        guild = Guild(self.ids.next(), name, self.owner.id, self.clock.time())
        guild.roles[guild.id] = Role(guild.id, guild.id, "@everyone", Perm.EVERYONE_DEFAULT)
        bot_role = Role(
            self.ids.next(),
            guild.id,
            self.bot_user.name,
            Perm.BOT_DEFAULT,
            position=1,
            managed=True,
        )
        guild.roles[bot_role.id] = bot_role
        self.guilds[guild.id] = guild
        guild.members[self.bot_user.id] = Member(
            self.bot_user, guild.id, [bot_role.id], self.clock.time()
        )
        guild.members[self.owner.id] = Member(self.owner, guild.id, [], self.clock.time())
        # A guild joined live has no "unavailable" key (discord.py then fires
        # on_guild_join); the READY-time ones say unavailable: false (on_guild_available).
        payload = self.guild_create_payload(guild)
        del payload["unavailable"]
        self.gateway.dispatch("GUILD_CREATE", payload, intent=Intents.GUILDS)
        return guild

    def create_text_channel(
        self, guild: Guild, name: str, *, category: Channel | None = None
    ) -> Channel:
        channel = Channel(
            self.ids.next(),
            ChannelType.GUILD_TEXT,
            name,
            guild.id,
            parent_id=category.id if category else None,
            position=len(guild.channel_ids),
            created_at=self.clock.time(),
        )
        self._add_channel(guild, channel)
        self.gateway.dispatch("CHANNEL_CREATE", channel.payload(), intent=Intents.GUILDS)
        return channel

    def create_category(self, guild: Guild, name: str) -> Channel:
        channel = Channel(
            self.ids.next(),
            ChannelType.GUILD_CATEGORY,
            name,
            guild.id,
            position=len(guild.channel_ids),
            created_at=self.clock.time(),
        )
        self._add_channel(guild, channel)
        self.gateway.dispatch("CHANNEL_CREATE", channel.payload(), intent=Intents.GUILDS)
        return channel

    def _add_channel(self, guild: Guild, channel: Channel) -> None:
        self.channels[channel.id] = channel
        guild.channel_ids.append(channel.id)
        self._channel_messages[channel.id] = []

    def create_user(self, name: str, *, guild: Guild | Iterable[Guild] | None = None) -> User:
        """A simulated person; with ``guild`` they are also a member there."""
        user = User(self.ids.next(), name)
        self.users[user.id] = user
        guilds = [guild] if isinstance(guild, Guild) else list(guild or [])
        for g in guilds:
            self.add_member(g, user)
        return user

    def add_member(self, guild: Guild, user: User, roles: Iterable[Role] = ()) -> Member:
        member = Member(user, guild.id, [r.id for r in roles], self.clock.time())
        guild.members[user.id] = member
        self.gateway.dispatch(
            "GUILD_MEMBER_ADD",
            member.payload() | {"guild_id": str(guild.id)},
            intent=Intents.GUILD_MEMBERS,
        )
        return member

    def create_role(self, guild: Guild, name: str, permissions: int = 0) -> Role:
        role = Role(self.ids.next(), guild.id, name, permissions, position=len(guild.roles))
        guild.roles[role.id] = role
        self.gateway.dispatch(
            "GUILD_ROLE_CREATE",
            {"guild_id": str(guild.id), "role": role.payload()},
            intent=Intents.GUILDS,
        )
        return role

    def dm_channel(self, user: User) -> Channel:
        """The DM channel between the bot and ``user`` (created on first use)."""
        channel = self._dm_by_user.get(user.id)
        if channel is None:
            channel = Channel(
                self.ids.next(), ChannelType.DM, recipient=user, created_at=self.clock.time()
            )
            self.channels[channel.id] = channel
            self._channel_messages[channel.id] = []
            self._dm_by_user[user.id] = channel
        return channel

    def guild_of(self, channel: Channel) -> Guild | None:
        return self.guilds.get(channel.guild_id) if channel.guild_id else None

    def guild_create_payload(self, guild: Guild) -> JSON:
        channels = [self.channels[c] for c in guild.channel_ids if not self.channels[c].deleted]
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(guild.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": "en-US",
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "max_members": 500000,
            "max_video_channel_users": 25,
            "features": [],
            "roles": [r.payload() for r in guild.roles.values()],
            "emojis": [],
            "stickers": [],
            "joined_at": iso(guild.joined_at),
            "large": False,
            "unavailable": False,
            "member_count": len(guild.members),
            "members": [m.payload() for m in guild.members.values()],
            "channels": [c.payload() for c in channels if not c.is_thread],
            "threads": [c.payload() for c in channels if c.is_thread],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "application_id": None,
        }

    # ================================================================== permissions
    def permissions(self, user: User, channel: Channel) -> int:
        """Discord's permission algorithm: roles, then @everyone/role/member overwrites."""
        if channel.is_dm:
            return Perm.EVERYONE_DEFAULT
        guild = self.guilds[channel.guild_id]  # type: ignore[index]
        if guild.owner_id == user.id:
            return Perm.ALL
        member = guild.members.get(user.id)
        if member is None:
            return 0
        perms = guild.roles[guild.id].permissions
        for rid in member.roles:
            perms |= guild.roles[rid].permissions
        if perms & Perm.ADMINISTRATOR:
            return Perm.ALL
        base = (
            self.channels.get(channel.parent_id)
            if channel.is_thread and channel.parent_id
            else channel
        )
        overwrites = {(o.type, o.id): o for o in (base.overwrites if base else [])}
        everyone = overwrites.get((0, guild.id))
        if everyone:
            perms = (perms & ~everyone.deny) | everyone.allow
        deny = allow = 0
        for rid in member.roles:
            o = overwrites.get((0, rid))
            if o:
                deny |= o.deny
                allow |= o.allow
        perms = (perms & ~deny) | allow
        mine = overwrites.get((1, user.id))
        if mine:
            perms = (perms & ~mine.deny) | mine.allow
        if not perms & Perm.VIEW_CHANNEL:
            return 0
        return perms

    def revoke_permissions(self, channel: Channel, perms: int = Perm.SEND_MESSAGES) -> None:
        """Fault: deny the bot ``perms`` in ``channel`` (a member overwrite + CHANNEL_UPDATE).

        Sending there then answers 403/50013 Missing Permissions (or 50001 Missing
        Access when VIEW_CHANNEL is denied), as when a moderator edits the channel.
        """
        for o in channel.overwrites:
            if o.type == 1 and o.id == self.bot_user.id:
                o.deny |= perms
                o.allow &= ~perms
                break
        else:
            channel.overwrites.append(Overwrite(self.bot_user.id, 1, deny=perms))
        self.gateway.dispatch("CHANNEL_UPDATE", channel.payload(), intent=Intents.GUILDS)

    def restore_permissions(self, channel: Channel) -> None:
        channel.overwrites = [
            o for o in channel.overwrites if not (o.type == 1 and o.id == self.bot_user.id)
        ]
        self.gateway.dispatch("CHANNEL_UPDATE", channel.payload(), intent=Intents.GUILDS)

    def delete_channel(self, channel: Channel) -> None:
        """Fault: a moderator deletes the channel (CHANNEL_DELETE; later calls get 404/10003)."""
        channel.deleted = True
        event = "THREAD_DELETE" if channel.is_thread else "CHANNEL_DELETE"
        data = channel.payload()
        if channel.is_thread:
            data = {
                "id": str(channel.id),
                "guild_id": str(channel.guild_id),
                "parent_id": str(channel.parent_id),
                "type": channel.type,
            }
        self.gateway.dispatch(event, data, intent=Intents.GUILDS)
        self.notifier.notify()

    def close_dms(self, user: User) -> None:
        """Fault: ``user`` does not accept DMs from the bot (403/50007 on send)."""
        user.dms_closed = True

    def open_dms(self, user: User) -> None:
        user.dms_closed = False

    # ================================================================== queries
    def channel_messages(self, channel: Channel, *, include_deleted: bool = False) -> list[Message]:
        """Messages everyone sees in ``channel``, oldest first (ephemerals excluded)."""
        return [
            m
            for m in self._channel_messages.get(channel.id, [])
            if m.ephemeral_for is None and (include_deleted or not m.deleted)
        ]

    def dms(self, user: User) -> list[Message]:
        """Messages in the bot↔``user`` DM channel, oldest first."""
        channel = self._dm_by_user.get(user.id)
        return self.channel_messages(channel) if channel else []

    def ephemerals(self, user: User, channel: Channel | None = None) -> list[Message]:
        """Ephemeral responses/followups only ``user`` sees, oldest first."""
        out = [
            m
            for ms in self._channel_messages.values()
            for m in ms
            if m.ephemeral_for == user.id
            and not m.deleted
            and (channel is None or m.channel_id == channel.id)
        ]
        return sorted(out, key=lambda m: m.id)

    def visible_to(self, user: User, channel: Channel) -> list[Message]:
        """What ``user`` sees in ``channel``: public messages plus their own ephemerals."""
        return [
            m
            for m in self._channel_messages.get(channel.id, [])
            if not m.deleted and m.ephemeral_for in (None, user.id)
        ]

    def files(self, channel: Channel | None = None) -> list[Attachment]:
        """Every file the bot uploaded (optionally in one channel), oldest first."""
        out: list[Attachment] = []
        for ms in self._channel_messages.values():
            for m in ms:
                if channel is None or m.channel_id == channel.id:
                    out.extend(m.attachments)
        return sorted(out, key=lambda a: a.id)

    @property
    def errors(self) -> list[RequestRecord]:
        """Every request the fake answered with a 4xx."""
        return [r for r in self.requests if 400 <= r.status < 500]

    def requests_to(self, method: str, route: str) -> list[RequestRecord]:
        """Requests to a route template, e.g. ``("POST", "/channels/{channel_id}/messages")``."""
        return [r for r in self.requests if r.method == method and r.route == route]

    async def wait_for(self, predicate: Callable[[], Any], timeout: float = 10.0) -> Any:
        """Wait (on state changes, not sleeps) until ``predicate()`` is truthy and return it."""
        try:
            return await self.notifier.wait_for(predicate, timeout, poll=0.01)
        except TimeoutError:
            recent = list(self.requests)[-10:]
            raise TimeoutError(
                f"fakediscord: condition not met within {timeout}s; last requests: {recent}"
            ) from None

    async def idle(self, quiet: float = 0.05, timeout: float = 10.0) -> None:
        """Wait until no request is in flight and none arrived for ``quiet`` real seconds.

        Only for asserting that the bot did *not* do something; positive checks
        should use :meth:`wait_for`.
        """
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            count = len(self.requests)
            await asyncio.sleep(quiet)
            if self.in_flight == 0 and len(self.requests) == count:
                return
        raise TimeoutError("fakediscord: the bot never went idle")

    # ================================================================== HTTP plumbing
    def route(
        self, method: str, template: str, *, auth: bool = True
    ) -> Callable[[Handler], Handler]:
        def deco(fn: Handler) -> Handler:
            self._routes.append(_Route(method, template, _compile(template), fn, auth))
            return fn

        return deco

    def _match(self, method: str, path: str) -> tuple[_Route | None, dict[str, str], bool]:
        path_known = False
        for r in self._routes:
            m = r.regex.match(path)
            if m:
                path_known = True
                if r.method == method:
                    return r, m.groupdict(), True
        return None, {}, path_known

    async def _unknown_root(self, request: web.Request) -> web.Response:
        return _json_response(
            404,
            {"message": f"fakediscord: unknown route {request.method} {request.path}", "code": 0},
        )

    async def _serve_attachment(self, request: web.Request) -> web.Response:
        att = self.attachments.get(int(request.match_info["attachment_id"]))
        if att is None:
            return web.Response(status=404, text="Not found")
        return web.Response(body=att.data, headers={"Content-Type": att.content_type})

    async def _read_body(self, request: web.Request) -> tuple[Any, list[Upload]]:
        ctype = request.headers.get("Content-Type", "")
        if ctype.startswith("multipart/"):
            payload: Any = None
            uploads: list[Upload] = []
            reader = await request.multipart()
            async for part in reader:
                name = part.name or ""  # type: ignore[union-attr]
                data = await part.read()  # type: ignore[union-attr]
                if name == "payload_json":
                    payload = json.loads(data)
                else:
                    uploads.append(Upload(name, part.filename or name, bytes(data)))  # type: ignore
            return payload, uploads
        raw = await request.read()
        if not raw:
            return None, []
        try:
            return json.loads(raw), []
        except ValueError:
            raise DiscordError(400, 50109, "The request body contains invalid JSON.") from None

    async def _entry(self, request: web.Request) -> web.StreamResponse:
        self.in_flight += 1
        try:
            return await self._handle(request)
        finally:
            self.in_flight -= 1
            self.notifier.notify()
            token = request.match_info.get("tail", "").split("/")
            for part in token[2:3]:  # interactions/{id}/{token}, webhooks/{app}/{token}
                inter = self._interactions_by_token.get(part)
                if inter is not None:
                    inter.notifier.notify()

    async def _handle(self, request: web.Request) -> web.Response:
        path = request.path[len(API_PREFIX) :]
        route, params, path_known = self._match(request.method, path)
        record = RequestRecord(
            request.method,
            path,
            route.template if route else None,
            params,
            dict(request.query),
            None,
            [],
            self.clock.time(),
        )
        self.requests.append(record)
        try:
            body, uploads = await self._read_body(request)
        except DiscordError as exc:
            return self._error(record, exc)
        record.json = body
        record.uploads = uploads
        if route is None:
            status = 405 if path_known else 404
            record.status = status
            record.response = {
                "message": f"fakediscord: unknown route {request.method} "
                f"{path} (add it to fakediscord/server.py)",
                "code": 0,
            }
            return _json_response(status, record.response)
        if route.auth and request.headers.get("Authorization") != f"Bot {self.token}":
            return self._error(record, E.unauthorized())
        fault = await self.faults.apply(record)
        if fault is not None:
            return self._error(record, fault)
        try:
            status, answer = await route.handler(
                Req(record, params, dict(request.query), body, uploads)
            )
        except DiscordError as exc:
            return self._error(record, exc)
        record.status = status
        record.response = answer
        if status == 204:
            return web.Response(status=204)
        return _json_response(status, answer)

    def _error(self, record: RequestRecord, exc: DiscordError) -> web.Response:
        record.status = exc.status
        record.response = exc.body()
        token = record.params.get("token")
        if token and token in self._interactions_by_token:
            self._interactions_by_token[token].errors.append((exc.status, exc.body()))
        return _json_response(exc.status, exc.body(), exc.headers)

    # ================================================================== helpers
    def _channel(self, channel_id: int) -> Channel:
        channel = self.channels.get(channel_id)
        if channel is None or channel.deleted:
            raise E.unknown_channel()
        return channel

    def _message(self, channel: Channel, message_id: int) -> Message:
        message = self.messages.get(message_id)
        if (
            message is None
            or message.deleted
            or message.channel_id != channel.id
            or message.ephemeral_for is not None
        ):
            raise E.unknown_message()
        return message

    def _require(self, channel: Channel, *needed: int) -> None:
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

    def _store(self, message: Message) -> None:
        self.messages[message.id] = message
        self._channel_messages.setdefault(message.channel_id, []).append(message)
        channel = self.channels.get(message.channel_id)
        if channel is not None and message.ephemeral_for is None:
            channel.last_message_id = message.id
            channel.message_count += 1

    def _message_intent(self, message: Message) -> int:
        return Intents.GUILD_MESSAGES if message.guild_id else Intents.DIRECT_MESSAGES

    def _emit_create(self, message: Message) -> None:
        if message.ephemeral_for is None:
            self.gateway.dispatch(
                "MESSAGE_CREATE", message.payload(), intent=self._message_intent(message)
            )
        self.notifier.notify()

    def _emit_update(self, message: Message) -> None:
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

    def _new_message(
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

    def _apply_edit(self, message: Message, payload: JSON, uploads: list[Upload]) -> None:
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

    # ================================================================== interactions (driver side)
    def new_interaction(
        self, *, type: int, user: User, channel: Channel, data: JSON, message: Message | None = None
    ) -> Interaction:
        """Create an interaction and dispatch INTERACTION_CREATE (the driver calls this)."""
        inter = Interaction(
            id=self.ids.next(),
            token=new_token(),
            type=type,
            application_id=self.application_id,
            user=user,
            channel=channel,
            data=data,
            created_at=self.clock.time(),
            message=message,
            guild_id=channel.guild_id,
        )
        self.interactions[inter.id] = inter
        self._interactions_by_token[inter.token] = inter
        self.gateway.dispatch("INTERACTION_CREATE", self.interaction_payload(inter))
        self.notifier.notify()
        return inter

    def interaction_payload(self, inter: Interaction) -> JSON:
        channel = inter.channel
        bot_perms = self.permissions(self.bot_user, channel)
        payload: JSON = {
            "id": str(inter.id),
            "application_id": str(inter.application_id),
            "type": inter.type,
            "data": inter.data,
            "token": inter.token,
            "version": 1,
            "app_permissions": str(bot_perms),
            "locale": "en-US",
            "entitlements": [],
            "entitlement_sku_ids": [],
            "authorizing_integration_owners": inter.integration_owners(),
            "attachment_size_limit": Limits.FILE_SIZE,
            "channel_id": str(channel.id),
            "channel": channel.payload(),
        }
        if inter.guild_id is not None:
            guild = self.guilds[inter.guild_id]
            member = guild.members[inter.user.id]
            user_perms = self.permissions(inter.user, channel)
            payload["channel"]["permissions"] = str(user_perms)
            payload.update(
                guild_id=str(guild.id),
                guild={"id": str(guild.id), "locale": "en-US", "features": []},
                guild_locale="en-US",
                member=member.payload(permissions=user_perms),
                context=0,
            )
        else:
            payload.update(user=inter.user.payload(), context=1)
        if inter.message is not None:
            payload["message"] = inter.message.payload()
        return payload

    def _interaction_for_webhook(self, req: Req) -> Interaction:
        inter = self._interactions_by_token.get(req.params["token"])
        if inter is None or req.id("application_id") != self.application_id:
            raise E.unknown_webhook()
        if self.clock.time() - inter.created_at > Limits.TOKEN_SECONDS:
            raise E.invalid_webhook_token()
        if inter.response_type is None:
            # The followup webhook only exists once the interaction is acknowledged.
            raise E.unknown_webhook()
        inter.requests += 1
        return inter

    def _interaction_message(self, inter: Interaction, message_id: str) -> Message:
        if message_id == "@original":
            msg = inter.original
        else:
            msg = self.messages.get(int(message_id)) if message_id.isdigit() else None
            if msg is not None and msg is not inter.original and msg not in inter.followups:
                msg = None
        if msg is None or msg.deleted:
            raise E.unknown_message()
        return msg

    # ================================================================== routes
    def _register_routes(self) -> None:
        r = self.route

        # ---- login and application
        @r("GET", "/users/@me")
        async def me(req: Req) -> tuple[int, Any]:
            return 200, self.bot_user.payload() | {
                "verified": True,
                "mfa_enabled": False,
                "locale": "en-US",
                "email": None,
            }

        async def app_info(req: Req) -> tuple[int, Any]:
            return 200, {
                "id": str(self.application_id),
                "name": self.bot_user.name,
                "icon": None,
                "description": "",
                "summary": "",
                "type": None,
                "hook": True,
                "bot_public": True,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
                "flags": self.application_flags,
                "owner": self.owner.payload(),
                "team": None,
                "bot": self.bot_user.payload(),
                "rpc_origins": [],
                "tags": [],
                "redirect_uris": [],
                "interactions_endpoint_url": None,
                "role_connections_verification_url": None,
                "approximate_guild_count": len(self.guilds),
                "integration_types_config": {},
            }

        r("GET", "/oauth2/applications/@me")(app_info)
        r("GET", "/applications/@me")(app_info)

        @r("GET", "/gateway", auth=False)
        async def gateway(req: Req) -> tuple[int, Any]:
            return 200, {"url": self.gateway_url}

        @r("GET", "/gateway/bot")
        async def gateway_bot(req: Req) -> tuple[int, Any]:
            return 200, {
                "url": self.gateway_url,
                "shards": 1,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }

        # ---- application commands
        def app_guild(req: Req) -> int | None:
            if req.id("application_id") != self.application_id:
                raise E.missing_access()
            if "guild_id" not in req.params:
                return None
            gid = req.id("guild_id")
            if gid not in self.guilds:
                raise E.missing_access()
            return gid

        def commands_in(gid: int | None) -> list[Command]:
            return [c for c in self.commands.values() if c.guild_id == gid]

        async def list_commands(req: Req) -> tuple[int, Any]:
            return 200, [c.payload() for c in commands_in(app_guild(req))]

        async def put_commands(req: Req) -> tuple[int, Any]:
            gid = app_guild(req)
            body = req.json if req.json is not None else []
            limits.check_command_list(body)
            old = {(c.name, c.type): c for c in commands_in(gid)}
            for c in old.values():
                del self.commands[c.id]
            result = []
            for raw in body:
                prev = old.get((raw["name"], raw.get("type", 1)))
                cmd = Command(
                    prev.id if prev else self.ids.next(),
                    self.application_id,
                    gid,
                    dict(raw),
                    self.ids.next(),
                )
                self.commands[cmd.id] = cmd
                result.append(cmd.payload())
            self.notifier.notify()
            return 200, result

        async def post_command(req: Req) -> tuple[int, Any]:
            gid = app_guild(req)
            raw = req.json or {}
            errs = E.FormErrors()
            limits.check_command(errs, raw)
            errs.raise_if_any()
            existing = {(c.name, c.type): c for c in commands_in(gid)}
            prev = existing.get((raw.get("name"), raw.get("type", 1)))
            if prev is None:
                same_type = [c for c in existing.values() if c.type == raw.get("type", 1)]
                cap = (
                    Limits.CHAT_INPUT_COMMANDS
                    if raw.get("type", 1) == 1
                    else Limits.CONTEXT_MENU_COMMANDS
                )
                if len(same_type) >= cap:
                    raise DiscordError(
                        400,
                        E.MAX_APPLICATION_COMMANDS,
                        f"Maximum number of application commands reached ({cap})",
                    )
            else:
                del self.commands[prev.id]
            cmd = Command(
                prev.id if prev else self.ids.next(),
                self.application_id,
                gid,
                dict(raw),
                self.ids.next(),
            )
            self.commands[cmd.id] = cmd
            self.notifier.notify()
            return (200 if prev else 201), cmd.payload()

        def one_command(req: Req) -> Command:
            gid = app_guild(req)
            cmd = self.commands.get(req.id("command_id"))
            if cmd is None or cmd.guild_id != gid:
                raise DiscordError(
                    404, E.UNKNOWN_APPLICATION_COMMAND, "Unknown application command"
                )
            return cmd

        async def get_command(req: Req) -> tuple[int, Any]:
            return 200, one_command(req).payload()

        async def patch_command(req: Req) -> tuple[int, Any]:
            cmd = one_command(req)
            merged = dict(cmd.raw) | dict(req.json or {})
            errs = E.FormErrors()
            limits.check_command(errs, merged)
            errs.raise_if_any()
            cmd.raw = merged
            cmd.version = self.ids.next()
            return 200, cmd.payload()

        async def delete_command(req: Req) -> tuple[int, Any]:
            cmd = one_command(req)
            del self.commands[cmd.id]
            return 204, None

        for base in (
            "/applications/{application_id}/commands",
            "/applications/{application_id}/guilds/{guild_id}/commands",
        ):
            r("GET", base)(list_commands)
            r("PUT", base)(put_commands)
            r("POST", base)(post_command)
            r("GET", base + "/{command_id}")(get_command)
            r("PATCH", base + "/{command_id}")(patch_command)
            r("DELETE", base + "/{command_id}")(delete_command)

        # ---- users, guilds
        @r("GET", "/users/{user_id}")
        async def get_user(req: Req) -> tuple[int, Any]:
            user = self.users.get(req.id("user_id"))
            if user is None:
                raise E.unknown_user()
            return 200, user.payload()

        @r("POST", "/users/@me/channels")
        async def create_dm(req: Req) -> tuple[int, Any]:
            body = req.json or {}
            user = self.users.get(int(body.get("recipient_id", 0)))
            if user is None:
                raise E.invalid_form_body(
                    {
                        "recipient_id": {
                            "_errors": [E.err("NUMBER_TYPE_COERCE", "Value is not snowflake.")]
                        }
                    }
                )
            return 200, self.dm_channel(user).payload()

        def guild_of(req: Req) -> Guild:
            guild = self.guilds.get(req.id("guild_id"))
            if guild is None:
                raise E.unknown_guild()
            return guild

        @r("GET", "/guilds/{guild_id}")
        async def get_guild(req: Req) -> tuple[int, Any]:
            data = self.guild_create_payload(guild_of(req))
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
                self.channels[c].payload()
                for c in guild.channel_ids
                if not self.channels[c].deleted and not self.channels[c].is_thread
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

        # ---- channels
        @r("GET", "/channels/{channel_id}")
        async def get_channel(req: Req) -> tuple[int, Any]:
            channel = self._channel(req.id("channel_id"))
            self._require(channel)
            return 200, channel.payload()

        @r("DELETE", "/channels/{channel_id}")
        async def delete_channel(req: Req) -> tuple[int, Any]:
            channel = self._channel(req.id("channel_id"))
            if not channel.is_dm:
                self._require(
                    channel, Perm.MANAGE_THREADS if channel.is_thread else Perm.MANAGE_CHANNELS
                )
            data = channel.payload()
            self.delete_channel(channel)
            return 200, data

        @r("POST", "/channels/{channel_id}/typing")
        async def typing(req: Req) -> tuple[int, Any]:
            self._require(self._channel(req.id("channel_id")), Perm.SEND_MESSAGES)
            return 204, None

        @r("POST", "/channels/{channel_id}/messages")
        async def send(req: Req) -> tuple[int, Any]:
            limits.check_files([len(u.data) for u in req.uploads])
            channel = self._channel(req.id("channel_id"))
            payload = req.json or {}
            limits.check_message(payload, len(req.uploads))
            if channel.is_dm:
                assert channel.recipient is not None
                if channel.recipient.dms_closed:
                    raise E.cannot_send_to_user()
            else:
                needed = [
                    Perm.SEND_MESSAGES_IN_THREADS if channel.is_thread else Perm.SEND_MESSAGES
                ]
                if req.uploads:
                    needed.append(Perm.ATTACH_FILES)
                self._require(channel, *needed)
            message = self._new_message(channel, payload, req.uploads)
            self._store(message)
            self._emit_create(message)
            return 200, message.payload()

        @r("GET", "/channels/{channel_id}/messages")
        async def history(req: Req) -> tuple[int, Any]:
            channel = self._channel(req.id("channel_id"))
            self._require(channel, Perm.READ_MESSAGE_HISTORY)
            limit = int(req.query.get("limit", 50))
            if not 1 <= limit <= 100:
                raise E.invalid_form_body({"limit": {"_errors": [E.number_max(100)]}})
            msgs = self.channel_messages(channel)
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
            channel = self._channel(req.id("channel_id"))
            self._require(channel, Perm.READ_MESSAGE_HISTORY)
            return 200, self._message(channel, req.id("message_id")).payload()

        @r("PATCH", "/channels/{channel_id}/messages/{message_id}")
        async def edit(req: Req) -> tuple[int, Any]:
            channel = self._channel(req.id("channel_id"))
            self._require(channel)
            message = self._message(channel, req.id("message_id"))
            if message.author is not self.bot_user:
                raise DiscordError(
                    403,
                    E.CANNOT_EDIT_OTHER_USERS_MESSAGE,
                    "Cannot edit a message authored by another user",
                )
            self._apply_edit(message, req.json or {}, req.uploads)
            self._emit_update(message)
            return 200, message.payload()

        @r("DELETE", "/channels/{channel_id}/messages/{message_id}")
        async def delete(req: Req) -> tuple[int, Any]:
            channel = self._channel(req.id("channel_id"))
            message = self._message(channel, req.id("message_id"))
            if message.author is not self.bot_user:
                self._require(channel, Perm.MANAGE_MESSAGES)
            message.deleted = True
            self._emit_delete(message)
            return 204, None

        @r("POST", "/channels/{channel_id}/messages/bulk-delete")
        async def bulk_delete(req: Req) -> tuple[int, Any]:
            channel = self._channel(req.id("channel_id"))
            self._require(channel, Perm.MANAGE_MESSAGES)
            ids = [int(i) for i in (req.json or {}).get("messages", [])]
            if not 2 <= len(ids) <= 100:
                raise E.invalid_form_body({"messages": {"_errors": [E.bad_length(2, 100)]}})
            for mid in ids:
                msg = self.messages.get(mid)
                if msg is not None and msg.channel_id == channel.id:
                    msg.deleted = True
                    self._emit_delete(msg)
            return 204, None

        async def react(req: Req) -> tuple[int, Any]:
            channel = self._channel(req.id("channel_id"))
            self._require(channel, Perm.ADD_REACTIONS)
            message = self._message(channel, req.id("message_id"))
            entry = (message.id, req.params["emoji"])
            if req.record.method == "PUT":
                self.reactions.append(entry)
            elif entry in self.reactions:
                self.reactions.remove(entry)
            return 204, None

        r("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me")(react)
        r("DELETE", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me")(react)

        # ---- threads
        def make_thread(parent: Channel, body: JSON, ttype: int, tid: int | None) -> Channel:
            errs = E.FormErrors()
            name = body.get("name")
            if not isinstance(name, str) or not 1 <= len(name) <= Limits.THREAD_NAME:
                errs.add(("name",), E.bad_length(1, Limits.THREAD_NAME))
            errs.raise_if_any()
            needed = (
                Perm.CREATE_PRIVATE_THREADS
                if ttype == ChannelType.PRIVATE_THREAD
                else Perm.CREATE_PUBLIC_THREADS
            )
            self._require(parent, needed)
            guild = self.guilds[parent.guild_id]  # type: ignore[index]
            thread = Channel(
                tid or self.ids.next(),
                ttype,
                name,
                guild.id,
                parent_id=parent.id,
                owner_id=self.bot_user.id,
                created_at=self.clock.time(),
            )
            self._add_channel(guild, thread)
            self.thread_members[thread.id] = {self.bot_user.id}
            self.gateway.dispatch(
                "THREAD_CREATE", thread.payload() | {"newly_created": True}, intent=Intents.GUILDS
            )
            self.notifier.notify()
            return thread

        @r("POST", "/channels/{channel_id}/threads")
        async def thread_without_message(req: Req) -> tuple[int, Any]:
            parent = self._channel(req.id("channel_id"))
            if parent.is_dm or parent.is_thread:
                raise DiscordError(400, 50024, "Cannot execute action on this channel type")
            body = req.json or {}
            ttype = int(body.get("type") or ChannelType.PRIVATE_THREAD)
            return 201, make_thread(parent, body, ttype, None).payload()

        @r("POST", "/channels/{channel_id}/messages/{message_id}/threads")
        async def thread_from_message(req: Req) -> tuple[int, Any]:
            parent = self._channel(req.id("channel_id"))
            message = self._message(parent, req.id("message_id"))
            if message.id in self.channels:
                raise DiscordError(
                    400, 160004, "A thread has already been created for this message"
                )
            thread = make_thread(parent, req.json or {}, ChannelType.PUBLIC_THREAD, message.id)
            return 201, thread.payload()

        async def thread_member(req: Req) -> tuple[int, Any]:
            thread = self._channel(req.id("channel_id"))
            if not thread.is_thread:
                raise DiscordError(400, 50024, "Cannot execute action on this channel type")
            raw = req.params["user_id"]
            uid = self.bot_user.id if raw == "@me" else req.id("user_id")
            members = self.thread_members.setdefault(thread.id, set())
            if req.record.method == "PUT":
                members.add(uid)
            else:
                members.discard(uid)
            self.notifier.notify()
            return 204, None

        for method in ("PUT", "DELETE"):
            r(method, "/channels/{channel_id}/thread-members/{user_id}")(thread_member)

        # ---- interaction callback
        @r("POST", "/interactions/{interaction_id}/{token}/callback", auth=False)
        async def callback(req: Req) -> tuple[int, Any]:
            inter = self._interactions_by_token.get(req.params["token"])
            if inter is None or inter.id != req.id("interaction_id"):
                raise E.unknown_interaction()
            inter.requests += 1
            late = self.faults.take_late_ack()
            if late:
                await self.clock.advance(late)
            if inter.response_type is not None:
                raise E.already_acknowledged()
            if self.clock.time() - inter.created_at > Limits.FIRST_RESPONSE_SECONDS:
                raise E.unknown_interaction()
            return 200, self._respond(inter, req)

        # ---- followups and the original response
        @r("POST", "/webhooks/{application_id}/{token}", auth=False)
        async def followup(req: Req) -> tuple[int, Any]:
            inter = self._interaction_for_webhook(req)
            limits.check_files([len(u.data) for u in req.uploads])
            payload = req.json or {}
            limits.check_message(payload, len(req.uploads))
            original = inter.original
            if original is not None and original.loading and original not in inter.followups:
                # The first followup after a "thinking" defer replaces the placeholder.
                self._apply_edit(original, payload, req.uploads)
                inter.followups.append(original)
                self._emit_update(original)
                message = original
            else:
                ephemeral = bool(int(payload.get("flags") or 0) & EPHEMERAL)
                message = self._new_message(
                    inter.channel,
                    payload,
                    req.uploads,
                    interaction=inter,
                    ephemeral_for=inter.user.id if ephemeral else None,
                    mtype=0,
                )
                self._store(message)
                inter.followups.append(message)
                self._emit_create(message)
            if req.query.get("wait") in ("1", "true", "True"):
                return 200, message.payload()
            return 204, None

        async def get_webhook_message(req: Req) -> tuple[int, Any]:
            inter = self._interaction_for_webhook(req)
            return 200, self._interaction_message(inter, req.params["message_id"]).payload()

        async def edit_webhook_message(req: Req) -> tuple[int, Any]:
            inter = self._interaction_for_webhook(req)
            message = self._interaction_message(inter, req.params["message_id"])
            self._apply_edit(message, req.json or {}, req.uploads)
            self._emit_update(message)
            return 200, message.payload()

        async def delete_webhook_message(req: Req) -> tuple[int, Any]:
            inter = self._interaction_for_webhook(req)
            message = self._interaction_message(inter, req.params["message_id"])
            message.deleted = True
            self._emit_delete(message)
            return 204, None

        for path in ("/webhooks/{application_id}/{token}/messages/{message_id}",):
            r("GET", path, auth=False)(get_webhook_message)
            r("PATCH", path, auth=False)(edit_webhook_message)
            r("DELETE", path, auth=False)(delete_webhook_message)

    # ================================================================== callback types
    def _respond(self, inter: Interaction, req: Req) -> JSON:
        """Apply an interaction callback (types 4–9) and build the callback object."""
        body = req.json or {}
        rtype = body.get("type")
        data = body.get("data") or {}
        is_component = inter.type == 3 or (inter.type == 5 and inter.message is not None)
        valid = {
            2: {4, 5, 9},
            3: {4, 5, 6, 7, 9},
            4: {8},
            5: {4, 5, 6, 7} if inter.message is not None else {4, 5},
        }[inter.type]
        if rtype not in valid:
            raise E.invalid_form_body(
                {
                    "type": {
                        "_errors": [
                            E.err(
                                "INTERACTION_RESPONSE_TYPE_INVALID",
                                f"Interaction response type {rtype} is not valid "
                                f"for interaction type {inter.type}",
                            )
                        ]
                    }
                }
            )
        message: Message | None = None
        errs = E.FormErrors()
        if rtype == 4:
            limits.check_files([len(u.data) for u in req.uploads])
            limits.check_message(data, len(req.uploads), path=("data",))
            ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL)
            message = self._new_message(
                inter.channel,
                data,
                req.uploads,
                interaction=inter,
                ephemeral_for=inter.user.id if ephemeral else None,
                mtype=20 if inter.type == 2 else 0,
            )
            self._store(message)
            inter.original = message
        elif rtype == 5:
            ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL)
            message = Message(
                id=self.ids.next(),
                channel_id=inter.channel.id,
                guild_id=inter.guild_id,
                author=self.bot_user,
                created_at=self.clock.time(),
                flags=LOADING | (EPHEMERAL if ephemeral else 0),
                type=20 if inter.type == 2 else 0,
                ephemeral_for=inter.user.id if ephemeral else None,
                interaction=inter,
                webhook_id=self.application_id,
                application_id=self.application_id,
            )
            self._store(message)
            inter.original = message
        elif rtype == 6:
            assert is_component
            inter.original = inter.message
        elif rtype == 7:
            assert inter.message is not None
            limits.check_files([len(u.data) for u in req.uploads])
            self._apply_edit_data(inter.message, data, req.uploads)
            inter.original = inter.message
            message = inter.message
        elif rtype == 8:
            limits.check_autocomplete(errs, data)
        elif rtype == 9:
            limits.check_modal(errs, data)
        errs.raise_if_any()
        inter.response_type = rtype
        inter.response_data = data
        inter.acked_at = self.clock.time()
        inter.acked_perf = time.perf_counter()
        if rtype in (4, 5) and message is not None:
            self._emit_create(message)
        elif rtype == 7 and message is not None:
            self._emit_update(message)
        self.notifier.notify()
        answer: JSON = {
            "interaction": {
                "id": str(inter.id),
                "type": inter.type,
                "response_message_id": str(message.id) if message else None,
                "response_message_loading": rtype == 5,
                "response_message_ephemeral": bool(message and message.ephemeral),
            }
        }
        if message is not None:
            answer["resource"] = {"type": rtype, "message": message.payload()}
        return answer

    def _apply_edit_data(self, message: Message, data: JSON, uploads: list[Upload]) -> None:
        try:
            self._apply_edit(message, data, uploads)
        except DiscordError as exc:
            if exc.errors:
                exc.errors = {"data": exc.errors}
            raise


__all__ = ["FakeDiscord", "RequestRecord", "Upload", "iter_components"]
