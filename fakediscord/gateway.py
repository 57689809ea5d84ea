"""The gateway websocket: HELLO, IDENTIFY/READY, heartbeats, RESUME, dispatches.

discord.py connects to ``DEFAULT_GATEWAY?v=10&encoding=json&compress=zlib-stream``
(``zstd-stream`` when ``zstandard`` is installed). With zlib-stream the whole
connection is one deflate stream: every message is compressed by the same
``compressobj`` and ends with a ``Z_SYNC_FLUSH`` (``00 00 ff ff``), which is
how discord.py knows a message is complete. Text frames are always accepted,
so without ``compress`` we send JSON text.

Sessions outlive connections: events dispatched while the bot is disconnected
are buffered with their sequence numbers and replayed after a RESUME, which is
what lets a test drop the connection mid-game and check nothing was lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import zlib
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from .errors import JSON
from .http import dumps
from .state import Intents

if TYPE_CHECKING:
    from .server import FakeDiscord

OP_DISPATCH, OP_HEARTBEAT, OP_IDENTIFY, OP_PRESENCE, OP_VOICE = 0, 1, 2, 3, 4
OP_RESUME, OP_RECONNECT, OP_REQUEST_MEMBERS, OP_INVALID_SESSION = 6, 7, 8, 9
OP_HELLO, OP_HEARTBEAT_ACK = 10, 11
# seconds from a heartbeat to its ACK, a network round trip as from Discord. Sent at once,
# the ACK could reach discord.py before its keep-alive thread noted the send (the thread
# waits for the GIL), which then measured the latency from the beat before, one interval
# back, and warned "Can't keep up, websocket is 41.3s behind"
ROUND_TRIP = 0.05

CLOSE_UNKNOWN_ERROR = 4000
CLOSE_UNKNOWN_OPCODE = 4001
CLOSE_DECODE_ERROR = 4002
CLOSE_NOT_AUTHENTICATED = 4003
CLOSE_AUTH_FAILED = 4004
CLOSE_ALREADY_AUTHENTICATED = 4005
CLOSE_INVALID_API_VERSION = 4012
CLOSE_INVALID_SHARD = 4010
CLOSE_DISALLOWED_INTENTS = 4014

RESUME_BUFFER = 5000


def shard_of(guild_id: int, num_shards: int) -> int:
    """Discord's routing of a guild to a shard."""
    return (guild_id >> 22) % num_shards


def owns(session: Session, guild_id: int | None) -> bool:
    """Whether ``session`` gets this guild's events (events outside guilds go to shard 0)."""
    shard_id, count = session.shard
    return shard_id == (0 if guild_id is None else shard_of(guild_id, count))


def guild_of_event(event: str, data: JSON) -> int | None:
    """The guild an event belongs to: ``guild_id``, or the guild itself for GUILD_CREATE etc."""
    if data.get("guild_id"):
        return int(data["guild_id"])
    if event in ("GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"):
        return int(data["id"])
    return None


class _Compressor:
    """One compression context per connection, as Discord keeps one per connection."""

    def __init__(self, kind: str | None) -> None:
        self.kind = kind
        self._zlib = zlib.compressobj() if kind == "zlib-stream" else None
        self._zstd: Any = None
        if kind == "zstd-stream":
            try:
                import zstandard
            except ImportError:
                self.kind = None  # fall back to text frames, which discord.py always accepts
            else:
                self._zstd = zstandard.ZstdCompressor().compressobj()
                self._flush_block = zstandard.COMPRESSOBJ_FLUSH_BLOCK

    def encode(self, text: str) -> str | bytes:
        raw = text.encode()
        if self._zlib is not None:
            return self._zlib.compress(raw) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
        if self._zstd is not None:
            frame: bytes = self._zstd.compress(raw) + self._zstd.flush(self._flush_block)
            return frame
        return text


class Session:
    """A gateway session (survives reconnects until invalidated)."""

    def __init__(
        self, session_id: str, intents: int, identify: JSON, shard: tuple[int, int] = (0, 1)
    ) -> None:
        self.id = session_id
        self.intents = intents
        self.identify = identify
        self.shard = shard
        self.seq = 0
        self.buffer: deque[tuple[int, str]] = deque(maxlen=RESUME_BUFFER)
        self.conn: Connection | None = None
        self.resumes = 0


class Connection:
    """One websocket: its compressor, its ordered send queue and its session."""

    def __init__(self, ws: web.WebSocketResponse, compress: str | None) -> None:
        self.ws = ws
        self.compressor = _Compressor(compress)
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.session: Session | None = None
        self.heartbeats = 0
        self.closed = False

    def send(self, payload: JSON | str) -> None:
        if self.closed:
            return
        text = payload if isinstance(payload, str) else dumps(payload).decode()
        self.queue.put_nowait(text)

    async def writer(self) -> None:
        # One writer per connection keeps the deflate stream in order.
        while True:
            text = await self.queue.get()
            if text is None or self.ws.closed:
                return
            data = self.compressor.encode(text)
            try:
                if isinstance(data, bytes):
                    await self.ws.send_bytes(data)
                else:
                    await self.ws.send_str(data)
            except (ConnectionError, RuntimeError):
                return


class Gateway:
    """Accepts discord.py's websocket and speaks gateway v10 to it."""

    def __init__(self, fake: FakeDiscord, heartbeat_interval: float) -> None:
        self.fake = fake
        self.heartbeat_interval = heartbeat_interval
        self.sessions: dict[str, Session] = {}
        self.connections: list[Connection] = []
        self.events: list[tuple[str, JSON]] = []  # every dispatch, for tests
        self.received: list[JSON] = []  # every client payload (heartbeats excluded)
        self.identifies = 0
        self.resumes = 0
        self.heartbeats = 0
        self.close_codes: list[int] = []
        self.on_identify: Callable[[Session], None] | None = None

    # ------------------------------------------------------------------ serving
    async def handle(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        query = request.query
        conn = Connection(ws, query.get("compress"))
        self.connections.append(conn)
        writer = asyncio.create_task(self._run_writer(conn))
        try:
            if query.get("v", "10") != "10":
                await self._close(conn, CLOSE_INVALID_API_VERSION, "Invalid API version")
                return ws
            if query.get("encoding", "json") != "json":
                await self._close(conn, CLOSE_DECODE_ERROR, "Only json encoding is faked")
                return ws
            conn.send(
                {
                    "op": OP_HELLO,
                    "d": {"heartbeat_interval": int(self.heartbeat_interval * 1000)},
                    "s": None,
                    "t": None,
                }
            )
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    text = msg.data
                elif msg.type == WSMsgType.BINARY:
                    text = msg.data.decode()
                else:
                    break
                try:
                    payload = json.loads(text)
                except ValueError:
                    await self._close(conn, CLOSE_DECODE_ERROR, "Decode error")
                    break
                await self._on_payload(conn, payload)
                if conn.closed:
                    break
        finally:
            conn.closed = True
            conn.queue.put_nowait(None)
            with contextlib.suppress(Exception):
                await writer
            if conn.session is not None and conn.session.conn is conn:
                conn.session.conn = None
            if conn in self.connections:
                self.connections.remove(conn)
            self.fake.notifier.notify()
        return ws

    async def _run_writer(self, conn: Connection) -> None:
        await conn.writer()

    async def _close(self, conn: Connection, code: int, reason: str) -> None:
        conn.closed = True
        self.close_codes.append(code)
        conn.queue.put_nowait(None)
        await asyncio.sleep(0)
        await conn.ws.close(code=code, message=reason.encode())
        self.fake.notifier.notify()

    def _ack(self, conn: Connection) -> None:
        conn.send({"op": OP_HEARTBEAT_ACK, "d": None, "s": None, "t": None})
        self.fake.notifier.notify()

    async def _on_payload(self, conn: Connection, payload: JSON) -> None:
        op = payload.get("op")
        data = payload.get("d")
        if op == OP_HEARTBEAT:
            conn.heartbeats += 1
            self.heartbeats += 1
            asyncio.get_running_loop().call_later(ROUND_TRIP, self._ack, conn)
            return
        self.received.append(payload)
        if op == OP_IDENTIFY:
            await self._identify(conn, data or {})
        elif op == OP_RESUME:
            await self._resume(conn, data or {})
        elif conn.session is None:
            await self._close(conn, CLOSE_NOT_AUTHENTICATED, "Not authenticated.")
        elif op == OP_REQUEST_MEMBERS:
            self._request_members(conn, data or {})
        elif op in (OP_PRESENCE, OP_VOICE):
            return
        else:
            await self._close(conn, CLOSE_UNKNOWN_OPCODE, "Unknown opcode.")

    async def _identify(self, conn: Connection, data: JSON) -> None:
        if conn.session is not None:
            await self._close(conn, CLOSE_ALREADY_AUTHENTICATED, "Already authenticated.")
            return
        if data.get("token") != self.fake.token:
            await self._close(conn, CLOSE_AUTH_FAILED, "Authentication failed.")
            return
        intents = int(data.get("intents", 0))
        if intents & Intents.PRIVILEGED & ~self.fake.privileged_intents:
            await self._close(conn, CLOSE_DISALLOWED_INTENTS, "Disallowed intent(s).")
            return
        shard = data.get("shard") or [0, 1]
        if (
            not isinstance(shard, list)
            or len(shard) != 2
            or not all(isinstance(n, int) for n in shard)
            or not 0 <= shard[0] < shard[1]
        ):
            await self._close(conn, CLOSE_INVALID_SHARD, "Invalid shard.")
            return
        self.identifies += 1
        session = Session(secrets.token_hex(16), intents, data, (shard[0], shard[1]))
        self.sessions[session.id] = session
        session.conn = conn
        conn.session = session
        fake = self.fake
        guilds = [
            g for g in fake.guilds.values() if owns(session, g.id) and fake.bot_user.id in g.members
        ]
        user = fake.bot_user.payload() | {
            "verified": True,
            "mfa_enabled": False,
            "locale": "en-US",
            "email": None,
        }
        self._dispatch_to(
            session,
            "READY",
            {
                "v": 10,
                "user": user,
                "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
                "shard": list(session.shard),
                "session_id": session.id,
                "session_type": "normal",
                "resume_gateway_url": fake.gateway_url,
                "application": {"id": str(fake.application_id), "flags": fake.application_flags},
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "guild_join_requests": [],
                "geo_ordered_rtc_regions": [],
                "user_settings": {},
                "auth": {},
                "_trace": ["fakediscord"],
            },
        )
        for guild in guilds:
            self._dispatch_to(
                session, "GUILD_CREATE", self.for_session(session, fake.guild_create_payload(guild))
            )
        if self.on_identify is not None:
            self.on_identify(session)
        fake.notifier.notify()

    async def _resume(self, conn: Connection, data: JSON) -> None:
        session = self.sessions.get(str(data.get("session_id")))
        if session is None or data.get("token") != self.fake.token:
            conn.send({"op": OP_INVALID_SESSION, "d": False, "s": None, "t": None})
            return
        seq = int(data.get("seq") or 0)
        if session.buffer and session.buffer[0][0] > seq + 1:
            # Too far behind: the events are gone, as on Discord.
            conn.send({"op": OP_INVALID_SESSION, "d": False, "s": None, "t": None})
            return
        old = session.conn
        if old is not None and old is not conn:
            await self._close(old, CLOSE_UNKNOWN_ERROR, "Session resumed elsewhere")
        session.conn = conn
        conn.session = session
        for s, text in session.buffer:
            if s > seq:
                conn.send(text)
        session.resumes += 1
        self.resumes += 1
        self._dispatch_to(session, "RESUMED", {"_trace": ["fakediscord"]})
        self.fake.notifier.notify()

    def _request_members(self, conn: Connection, data: JSON) -> None:
        assert conn.session is not None
        guild = self.fake.guilds.get(int(data.get("guild_id", 0)))
        if guild is None:
            return
        query = data.get("query")
        ids = {int(i) for i in data.get("user_ids") or []}
        members = [
            m
            for m in guild.members.values()
            if (not ids or m.user.id in ids) and (not query or m.user.name.startswith(query))
        ]
        limit = int(data.get("limit") or 0)
        if limit:
            members = members[:limit]
        payload: JSON = {
            "guild_id": str(guild.id),
            "members": [m.payload() for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce"):
            payload["nonce"] = data["nonce"]
        self._dispatch_to(conn.session, "GUILD_MEMBERS_CHUNK", payload)

    # ------------------------------------------------------------------ dispatching
    def _dispatch_to(self, session: Session, event: str, data: JSON) -> None:
        session.seq += 1
        text = dumps({"op": OP_DISPATCH, "t": event, "s": session.seq, "d": data}).decode()
        session.buffer.append((session.seq, text))
        if session.conn is not None:
            session.conn.send(text)

    def for_session(self, session: Session, guild_payload: JSON) -> JSON:
        """Without GUILD_MEMBERS, GUILD_CREATE lists only the bot itself (as on Discord)."""
        if session.intents & Intents.GUILD_MEMBERS:
            return guild_payload
        me = str(self.fake.bot_user.id)
        return guild_payload | {
            "members": [m for m in guild_payload["members"] if m["user"]["id"] == me]
        }

    def sessions_for(self, guild_id: int | None) -> list[Session]:
        """The sessions that receive a guild's events: those of its shard (DMs: shard 0)."""
        return [s for s in self.sessions.values() if owns(s, guild_id)]

    def dispatch(self, event: str, data: JSON, *, intent: int | None = None) -> None:
        """Send an event to every session of its guild's shard that asked for it
        (buffered while disconnected)."""
        self.events.append((event, data))
        for session in self.sessions_for(guild_of_event(event, data)):
            if intent is None or session.intents & intent:
                payload = self.for_session(session, data) if event == "GUILD_CREATE" else data
                self._dispatch_to(session, event, payload)

    # ------------------------------------------------------------------ faults
    @property
    def connected(self) -> bool:
        return any(c.session is not None and not c.closed for c in self.connections)

    async def disconnect(self, code: int = CLOSE_UNKNOWN_ERROR) -> None:
        """Drop every live connection (sessions stay, so discord.py RESUMEs)."""
        for conn in list(self.connections):
            await self._close(conn, code, "fakediscord: injected disconnect")

    def request_reconnect(self) -> None:
        """Send op 7 RECONNECT, as Discord does before moving a session."""
        for conn in list(self.connections):
            conn.send({"op": OP_RECONNECT, "d": None, "s": None, "t": None})

    def invalidate_sessions(self, *, resumable: bool = False) -> None:
        """Send op 9 INVALID_SESSION; unless resumable, the sessions are forgotten."""
        for conn in list(self.connections):
            conn.send({"op": OP_INVALID_SESSION, "d": resumable, "s": None, "t": None})
        if not resumable:
            self.sessions.clear()

    async def close_all(self) -> None:
        for conn in list(self.connections):
            with contextlib.suppress(Exception):
                await self._close(conn, 1001, "fakediscord shutting down")
