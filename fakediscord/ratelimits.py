"""Discord's REST rate limits, opt-in: ``FakeDiscord(rate_limits=True)``.

Per-route buckets answer Discord's headers (``X-RateLimit-Limit``, ``-Remaining``,
``-Reset``, ``-Reset-After``, ``-Bucket``) on every response of a limited route, so
discord.py learns each bucket and paces itself (it sleeps when ``Remaining`` hits
0); a request over the limit gets a 429 with ``Via``, ``Retry-After``,
``X-RateLimit-Scope: user`` and ``retry_after`` in the body, which discord.py
sleeps off and retries. A bucket is one window of ``per`` seconds opened by its
first request, keyed by the route's bucket and its top-level resource (the
channel, guild or webhook), as Discord keys them.

The global limit (50 requests per second for a bot) counts every authenticated
request except interaction callbacks and webhook calls, which Discord exempts;
over it the 429 says ``global: true`` with ``X-RateLimit-Global``.

The figures (:data:`DISCORD_LIMITS`) are the ones reported from production
headers, since Discord documents only the mechanism and the global limit:
messages 5 per 5 s per channel for POST and for PATCH (separate buckets);
DELETE of a message 5 per 1 s per channel (Discord's bucket for messages younger
than 10 s and for unknown ones; older messages have slower buckets the fake does
not model); reactions 1 per 0.25 s per channel, PUT and DELETE sharing a bucket.
Routes without a rule carry no headers and only count towards the global limit.
Interaction callbacks and followups are not limited per route here.

Windows run on real (monotonic) time because discord.py sleeps in real time.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from .errors import DiscordError, too_many_requests

MESSAGES = "/channels/{channel_id}/messages"
MESSAGE = "/channels/{channel_id}/messages/{message_id}"
REACTION = "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me"
GLOBAL_PER_SECOND = 50
# Discord's "top-level resources": a route's bucket is kept per value of the first found.
MAJOR_PARAMETERS = ("channel_id", "guild_id", "webhook_id", "token")
UNLIMITED_GLOBALLY = ("/interactions/", "/webhooks/")


@dataclass(frozen=True)
class RouteLimit:
    """``limit`` requests per ``per`` seconds on ``method route``, per top-level resource.

    Rules with the same ``bucket`` name share one bucket (and one hash).
    """

    method: str
    route: str
    limit: int
    per: float
    bucket: str = ""

    @property
    def name(self) -> str:
        return self.bucket or f"{self.method} {self.route}"

    @property
    def hash(self) -> str:
        return hashlib.md5(self.name.encode()).hexdigest()


DISCORD_LIMITS: tuple[RouteLimit, ...] = (
    RouteLimit("POST", MESSAGES, 5, 5.0),
    RouteLimit("PATCH", MESSAGE, 5, 5.0),
    RouteLimit("DELETE", MESSAGE, 5, 1.0),
    RouteLimit("PUT", REACTION, 1, 0.25, bucket="reactions"),
    RouteLimit("DELETE", REACTION, 1, 0.25, bucket="reactions"),
)


@dataclass
class Window:
    """One bucket's current window."""

    limit: int
    per: float
    started: float = -1e18
    used: int = 0

    def take(self, now: float) -> float:
        """Use one request; returns 0 when allowed, else the seconds until the window ends."""
        if now >= self.started + self.per:
            self.started, self.used = now, 0
        if self.used >= self.limit:
            return self.started + self.per - now
        self.used += 1
        return 0.0

    def reset_after(self, now: float) -> float:
        return max(0.0, self.started + self.per - now)


@dataclass
class RateLimits:
    """The buckets of one fake (``fake.rate_limits``); ``None`` there means unlimited."""

    rules: Iterable[RouteLimit] = DISCORD_LIMITS
    global_per_second: int | None = GLOBAL_PER_SECOND
    clock: Callable[[], float] = time.monotonic
    windows: dict[tuple[str, str], Window] = field(default_factory=dict)
    hits: int = 0  # 429s answered by these limits

    def __post_init__(self) -> None:
        self._by_route = {(r.method, r.route): r for r in self.rules}
        self._global = Window(self.global_per_second or 0, 1.0)

    def check(
        self, method: str, path: str, route: str | None, params: dict[str, str]
    ) -> tuple[dict[str, str], DiscordError | None]:
        """Count one request: the headers to answer with, and a 429 if it is over a limit."""
        now = self.clock()
        headers: dict[str, str] = {}
        rule = self._by_route.get((method, route or ""))
        window = None
        if rule is not None:
            major = next((params[p] for p in MAJOR_PARAMETERS if p in params), "")
            window = self.windows.setdefault((rule.name, major), Window(rule.limit, rule.per))
        if self.global_per_second and not path.startswith(UNLIMITED_GLOBALLY):
            wait = self._global.take(now)
            if wait:
                self.hits += 1
                return {}, too_many_requests(wait, is_global=True)
        if rule is None or window is None:
            return headers, None
        wait = window.take(now)
        reset_after = window.reset_after(now)
        headers = {
            "X-RateLimit-Limit": str(rule.limit),
            "X-RateLimit-Remaining": str(rule.limit - window.used),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": rule.hash,
        }
        if wait:
            self.hits += 1
            return {}, too_many_requests(wait, headers=headers)
        return headers, None
