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
  sent with the response gets bound to its message); without it, as on Discord,
  the answer is 204 with no body (``cogs.respond``'s "thinking" acknowledgement).
* Uploads are multipart with ``payload_json`` plus ``files[n]``.

Routes the fake does not know answer a loud 404 naming the route, so a bot that
starts using a new endpoint fails its tests instead of silently passing.
"""

from __future__ import annotations

import asyncio
import functools
import time
from collections import Counter, deque
from collections.abc import Callable
from typing import Any

from aiohttp import web
from aiohttp.multipart import content_disposition_filename, parse_content_disposition

from . import errors as E
from . import routes
from .clock import VirtualClock
from .errors import JSON, DiscordError
from .faults import Faults
from .gateway import Gateway
from .http import (
    API_PREFIX,
    Handler,
    Req,
    RequestRecord,
    Route,
    Upload,
    compile_template,
    json_response,
    loads,
)
from .limits import Limits
from .messages import MessagesMixin
from .ratelimits import RateLimits
from .state import (
    Attachment,
    Channel,
    Command,
    Guild,
    Intents,
    Interaction,
    Message,
    Notifier,
    Snowflakes,
    User,
    iter_components,
    new_token,
)
from .world import WorldMixin


class FakeDiscord(WorldMixin, MessagesMixin):
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
        self._idle_checked_at = float("-inf")
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
        self.port = int(self._runner.addresses[0][1])  # the port the system chose
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
        raw = await request.read()
        ctype = request.headers.get("Content-Type", "")
        if ctype.startswith("multipart/"):
            return _multipart(ctype, raw)
        return (_json(raw) if raw else None), []

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
        self.archive_idle_threads()
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
        if record.fault in ("disconnect", "disconnect_handled") and request.transport:
            request.transport.close()  # no answer: the client's connection is dropped
        response.headers.update(headers)
        return response

    async def _handled(self, record: RequestRecord, route: Route, req: Req) -> web.Response:
        fault = await self.faults.apply(record)
        if fault is not None:
            return self._error(record, fault)
        if record.fault == "disconnect":
            return web.Response(status=500)  # never sent: the connection closes first
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
        # a refusal only: a 5xx or 429 discord.py waits out and tries again, and the
        # person's client shows "interaction failed" only if no answer lands in time
        refused = 400 <= exc.status < 500 and exc.status != 429
        if refused and token and token in self.interactions_by_token:
            self.interactions_by_token[token].errors.append((exc.status, exc.body()))
        return json_response(exc.status, exc.body(), exc.headers)

    def _channel_of(self, params: dict[str, str]) -> int | None:
        """The channel a request acts in: its ``channel_id``, or its interaction's channel."""
        if params.get("channel_id", "").isdigit():
            return int(params["channel_id"])
        inter = self.interactions_by_token.get(params.get("token", ""))
        return inter.channel.id if inter is not None else None

    # ================================================================== interactions (driver side)
    def new_interaction(
        self, *, type: int, user: User, channel: Channel, data: JSON, message: Message | None = None
    ) -> Interaction:
        """Create an interaction and dispatch INTERACTION_CREATE (the driver calls this)."""
        self.archive_idle_threads()
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
            "locale": inter.user.locale,
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
                guild={"id": str(guild.id), "locale": guild.preferred_locale, "features": []},
                guild_locale=guild.preferred_locale,
                member=member.payload(permissions=user_perms),
                context=0,
            )
        else:
            payload.update(user=inter.user.payload(), context=1)
        if inter.message is not None:
            payload["message"] = inter.message.payload()
        return payload


__all__ = ["FakeDiscord", "RequestRecord", "Upload", "iter_components"]


@functools.lru_cache(maxsize=512)
def _disposition(header: str | None) -> tuple[str, str | None]:
    """A part's ``name`` and ``filename``, as aiohttp reads them (``part.name``, ...).

    Cached: the same few headers come with every upload, and aiohttp's parser
    rebuilds an escaping table on each call (a quarter of the fake's request
    handling in a profile of tests/cogs).
    """
    _, params = parse_content_disposition(header)
    return content_disposition_filename(params, "name") or "", content_disposition_filename(
        params, "filename"
    )


def _multipart(ctype: str, raw: bytes) -> tuple[Any, list[Upload]]:
    """The ``payload_json`` and ``files[n]`` parts of a ``multipart/form-data`` body.

    Split in one pass over the whole body: aiohttp's streaming reader, which the fake
    used before, searched each 8 KB chunk for the boundary in Python (a sixth of the
    fake's CPU in a profile of tests/cogs). The boundary is random, so it cannot
    occur inside a part, and discord.py (through aiohttp's ``FormData``) writes each
    part as headers, a blank line, the bytes and CRLF.
    """
    boundary = _boundary(ctype)
    if boundary is None:
        raise DiscordError(400, 50035, "Invalid Form Body: no multipart boundary")
    payload: Any = None
    uploads: list[Upload] = []
    for chunk in raw.split(b"--" + boundary)[1:]:
        if chunk.startswith(b"--"):  # the closing delimiter
            break
        head, blank, data = chunk.partition(b"\r\n\r\n")
        if not blank:
            raise DiscordError(400, 50035, "Invalid Form Body: a part without headers")
        if data.endswith(b"\r\n"):
            data = data[:-2]
        disposition = None
        for line in head.decode("latin-1").split("\r\n"):
            key, colon, value = line.partition(":")
            if colon and key.strip().lower() == "content-disposition":
                disposition = value.strip()
        name, filename = _disposition(disposition)
        if name == "payload_json":
            payload = _json(data)
        else:
            uploads.append(Upload(name, filename or name, data))
    return payload, uploads


def _json(raw: bytes) -> Any:
    try:
        return loads(raw)
    except ValueError:
        raise DiscordError(400, 50109, "The request body contains invalid JSON.") from None


@functools.lru_cache(maxsize=64)
def _boundary(ctype: str) -> bytes | None:
    for param in ctype.split(";")[1:]:
        key, eq, value = param.strip().partition("=")
        if eq and key.strip().lower() == "boundary":
            return value.strip().strip('"').encode("latin-1") or None
    return None
