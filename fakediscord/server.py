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
from collections import Counter, deque
from collections.abc import Callable, Iterable
from typing import Any

from aiohttp import web

from . import errors as E
from . import limits, routes
from .clock import VirtualClock
from .errors import JSON, DiscordError
from .faults import Faults
from .gateway import Gateway
from .http import (
    API_PREFIX,
    LOADING,
    Handler,
    Req,
    RequestRecord,
    Route,
    Upload,
    compile_template,
    json_response,
)
from .limits import EPHEMERAL, Limits
from .ratelimits import RateLimits
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
        rate_limits: bool | RateLimits = False,
        shards: int = 1,
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
        self.interactions_by_token: dict[str, Interaction] = {}
        self.attachments: dict[int, Attachment] = {}  # every upload, served back by URL
        self.reactions: list[tuple[int, str]] = []
        self.thread_members: dict[int, set[int]] = {}
        self._live_bot: Counter[int] = Counter()  # bot's public messages per channel, now
        self._peak_bot: Counter[int] = Counter()  # ... and at most
        self.requests: deque[RequestRecord] = deque(maxlen=max_log)
        self.notifier = Notifier()
        self.faults = Faults(self)
        self.gateway = Gateway(self, heartbeat_interval)
        self.in_flight = 0
        self.shards = shards  # what GET /gateway/bot recommends
        self.http_429 = 0  # every 429 answered (rate limits and injected faults)
        if rate_limits is True:
            rate_limits = RateLimits()
        self.rate_limits: RateLimits | None = rate_limits or None
        self._routes: list[Route] = []
        self._runner: web.AppRunner | None = None
        routes.register_all(self)

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
    def create_guild(
        self, name: str = "Test Guild", *, shard: tuple[int, int] | None = None
    ) -> Guild:
        """A guild the bot is in (GUILD_CREATE is dispatched if the bot is connected).

        Successive guilds fall on successive shards; ``shard=(id, num_shards)`` picks one.
        """
        guild = Guild(self.ids.guild_id(shard), name, self.owner.id, self.clock.time())
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
        self.add_channel(guild, channel)
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
        self.add_channel(guild, channel)
        self.gateway.dispatch("CHANNEL_CREATE", channel.payload(), intent=Intents.GUILDS)
        return channel

    def add_channel(self, guild: Guild, channel: Channel) -> None:
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
            "threads": [c.payload() for c in channels if c.is_thread and not c.archived],
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
        if (
            channel.type == ChannelType.PRIVATE_THREAD
            and user.id not in self.thread_members.get(channel.id, ())
            and not perms & Perm.MANAGE_THREADS
        ):
            return 0  # a private thread is seen by its members and by moderators only
        return perms

    def revoke_permissions(self, channel: Channel, perms: int = Perm.SEND_MESSAGES) -> None:
        """Fault: deny the bot ``perms`` in ``channel`` (a member overwrite + CHANNEL_UPDATE).

        Sending there then answers 403/50013 Missing Permissions (or 50001 Missing
        Access when VIEW_CHANNEL is denied), as when a moderator edits the channel.
        Threads have no overwrites of their own: for a thread the overwrite goes on
        its parent, so it reaches every thread of that channel, as on Discord.
        """
        channel = self._overwritable(channel)
        for o in channel.overwrites:
            if o.type == 1 and o.id == self.bot_user.id:
                o.deny |= perms
                o.allow &= ~perms
                break
        else:
            channel.overwrites.append(Overwrite(self.bot_user.id, 1, deny=perms))
        self.gateway.dispatch("CHANNEL_UPDATE", channel.payload(), intent=Intents.GUILDS)

    def restore_permissions(self, channel: Channel) -> None:
        channel = self._overwritable(channel)
        channel.overwrites = [
            o for o in channel.overwrites if not (o.type == 1 and o.id == self.bot_user.id)
        ]
        self.gateway.dispatch("CHANNEL_UPDATE", channel.payload(), intent=Intents.GUILDS)

    def _overwritable(self, channel: Channel) -> Channel:
        if channel.is_thread and channel.parent_id is not None:
            return self.channels[channel.parent_id]
        return channel

    def delete_channel(self, channel: Channel) -> None:
        """Fault: a moderator deletes the channel (CHANNEL_DELETE; later calls get 404/10003).

        A thread gets THREAD_DELETE. Deleting a text channel deletes its threads too
        (discord.py drops them from its cache on the CHANNEL_DELETE itself).
        """
        channel.deleted = True
        for thread in self.threads(channel):
            thread.deleted = True
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

    # ================================================================== threads
    def threads(self, parent: Channel | None = None) -> list[Channel]:
        """Threads that are not deleted (archived ones included), oldest first."""
        return [
            c
            for c in self.channels.values()
            if c.is_thread and not c.deleted and (parent is None or c.parent_id == parent.id)
        ]

    def archive_thread(self, thread: Channel, *, lock: bool = False) -> None:
        """Fault: a moderator closes (archives) a thread, optionally locking it.

        THREAD_UPDATE is dispatched (discord.py then drops the thread from the guild's
        active threads). As on Discord, the bot's next message in an archived thread
        unarchives it, unless the thread is locked and the bot lacks MANAGE_THREADS
        (then 400/50083); edits and reactions in an archived thread answer 400/50083.
        """
        self.update_thread(thread, archived=True, locked=thread.locked or lock)

    def lock_thread(self, thread: Channel) -> None:
        """Fault: a moderator locks an active thread (posts and edits then answer 400/160005
        unless the bot has MANAGE_THREADS)."""
        self.update_thread(thread, locked=True)

    def unarchive_thread(self, thread: Channel) -> None:
        """A moderator reopens a thread (unarchived and unlocked)."""
        self.update_thread(thread, archived=False, locked=False)

    def update_thread(
        self,
        thread: Channel,
        *,
        archived: bool | None = None,
        locked: bool | None = None,
        name: str | None = None,
        auto_archive_duration: int | None = None,
    ) -> None:
        """Change a thread's metadata and dispatch THREAD_UPDATE."""
        assert thread.is_thread, "not a thread"
        if archived is not None and archived != thread.archived:
            thread.archived = archived
            thread.archive_timestamp = self.clock.time()
        if locked is not None:
            thread.locked = locked
        if name is not None:
            thread.name = name
        if auto_archive_duration is not None:
            thread.auto_archive_duration = auto_archive_duration
        self.gateway.dispatch("THREAD_UPDATE", thread.payload(), intent=Intents.GUILDS)
        self.notifier.notify()

    def check_thread_post(self, channel: Channel) -> None:
        """Discord's rule for a new message in a thread: it unarchives the thread, unless
        the thread is locked and the bot cannot manage threads."""
        if not channel.is_thread:
            return
        if channel.locked and not self.permissions(self.bot_user, channel) & Perm.MANAGE_THREADS:
            raise E.thread_archived() if channel.archived else E.thread_locked()
        if channel.archived:
            self.update_thread(channel, archived=False)

    def check_thread_edit(self, channel: Channel) -> None:
        """Archived threads are read-only (edits, reactions); locked ones for non-moderators."""
        if not channel.is_thread:
            return
        if channel.archived:
            raise E.thread_archived()
        if channel.locked and not self.permissions(self.bot_user, channel) & Perm.MANAGE_THREADS:
            raise E.thread_locked()

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

    def dms(self, user: User, *, include_deleted: bool = False) -> list[Message]:
        """Messages in the bot↔``user`` DM channel, oldest first (deleted ones on request)."""
        channel = self._dm_by_user.get(user.id)
        return self.channel_messages(channel, include_deleted=include_deleted) if channel else []

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

    def count(
        self,
        method: str | None = None,
        route: str | None = None,
        *,
        channel: Channel | int | None = None,
        status: int | None = None,
    ) -> int:
        """How many logged requests match (``None`` matches anything).

        ``channel`` is where the request acted: the route's ``channel_id``, or the
        channel of the interaction whose token it used (callbacks, followups). For
        budgets, e.g. ``fake.count("PATCH", MESSAGE, channel=thread, status=200)``.
        """
        cid = channel.id if isinstance(channel, Channel) else channel
        return sum(
            1
            for r in self.requests
            if (method is None or r.method == method)
            and (route is None or r.route == route)
            and (cid is None or r.channel_id == cid)
            and (status is None or r.status == status)
        )

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
            self._routes.append(Route(method, template, compile_template(template), fn, auth))
            return fn

        return deco

    def _match(self, method: str, path: str) -> tuple[Route | None, dict[str, str], bool]:
        path_known = False
        for r in self._routes:
            m = r.regex.match(path)
            if m:
                path_known = True
                if r.method == method:
                    return r, m.groupdict(), True
        return None, {}, path_known

    async def _unknown_root(self, request: web.Request) -> web.Response:
        return json_response(
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
                inter = self.interactions_by_token.get(part)
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
        record.channel_id = self._channel_of(params)
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
                f"{path} (add it to fakediscord/routes/)",
                "code": 0,
            }
            return json_response(status, record.response)
        if route.auth and request.headers.get("Authorization") != f"Bot {self.token}":
            return self._error(record, E.unauthorized())
        headers: dict[str, str] = {}
        if self.rate_limits is not None:
            headers, limited = self.rate_limits.check(record.method, path, route.template, params)
            if limited is not None:
                record.fault = "global_rate_limit" if limited.extra["global"] else "rate_limit"
                return self._error(record, limited)
        response = await self._handled(
            record, route, Req(record, params, record.query, body, uploads)
        )
        response.headers.update(headers)
        return response

    async def _handled(self, record: RequestRecord, route: Route, req: Req) -> web.Response:
        fault = await self.faults.apply(record)
        if fault is not None:
            return self._error(record, fault)
        try:
            status, answer = await route.handler(req)
        except DiscordError as exc:
            return self._error(record, exc)
        record.status = status
        record.response = answer
        if status == 204:
            return web.Response(status=204)
        return json_response(status, answer)

    def _error(self, record: RequestRecord, exc: DiscordError) -> web.Response:
        record.status = exc.status
        record.response = exc.body()
        if exc.status == 429:
            self.http_429 += 1
        token = record.params.get("token")
        if token and token in self.interactions_by_token:
            self.interactions_by_token[token].errors.append((exc.status, exc.body()))
        return json_response(exc.status, exc.body(), exc.headers)

    def _channel_of(self, params: dict[str, str]) -> int | None:
        """The channel a request acts in: its ``channel_id``, or its interaction's channel."""
        if params.get("channel_id", "").isdigit():
            return int(params["channel_id"])
        inter = self.interactions_by_token.get(params.get("token", ""))
        return inter.channel.id if inter is not None else None

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

    def store_message(self, message: Message) -> None:
        self.messages[message.id] = message
        self._channel_messages.setdefault(message.channel_id, []).append(message)
        channel = self.channels.get(message.channel_id)
        if channel is not None and message.ephemeral_for is None:
            channel.last_message_id = message.id
            channel.message_count += 1
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
        self.interactions_by_token[inter.token] = inter
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


__all__ = ["FakeDiscord", "RequestRecord", "Upload", "iter_components"]
