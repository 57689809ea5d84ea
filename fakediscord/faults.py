"""Injectable faults: the failures production Discord produces that a bot must survive.

HTTP faults are rules matched against each request by method and route
*template* (the same strings the request log records, e.g.
``"/channels/{channel_id}/messages"``), optionally narrowed by a predicate on the
:class:`~.server.RequestRecord`, and consumed ``times`` times (``None`` = until
cleared). State faults (a user with DMs closed, a deleted channel, lost
permissions) live on :class:`~.server.FakeDiscord` because they change the world;
gateway faults live on :class:`~.gateway.Gateway`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .errors import DiscordError, too_many_requests

if TYPE_CHECKING:
    from .server import FakeDiscord, RequestRecord

ANY = "*"


@dataclass
class Rule:
    """One HTTP fault: answer ``error`` (after ``delay`` real seconds) when the rule matches."""

    name: str
    method: str
    route: str
    error: DiscordError | None
    times: int | None
    delay: float = 0.0
    when: Callable[[RequestRecord], bool] | None = None
    hits: int = 0

    def matches(self, record: RequestRecord) -> bool:
        if self.times is not None and self.hits >= self.times:
            return False
        if self.method not in (ANY, record.method):
            return False
        if self.route not in (ANY, record.route):
            return False
        return self.when is None or self.when(record)


class Faults:
    """The fault registry of one :class:`~.server.FakeDiscord` (``fake.faults``)."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.rules: list[Rule] = []
        self._late_acks: list[float] = []

    def add(self, rule: Rule) -> Rule:
        self.rules.append(rule)
        return rule

    def clear(self) -> None:
        self.rules.clear()
        self._late_acks.clear()

    def fail(
        self,
        method: str,
        route: str,
        status: int,
        code: int,
        message: str,
        *,
        times: int | None = 1,
        when: Callable[[RequestRecord], bool] | None = None,
    ) -> Rule:
        """Answer ``status``/``code`` to matching requests (any Discord error)."""
        return self.add(
            Rule("fail", method, route, DiscordError(status, code, message), times, when=when)
        )

    def rate_limit(
        self,
        method: str = ANY,
        route: str = ANY,
        *,
        retry_after: float = 0.05,
        is_global: bool = False,
        times: int | None = 1,
        when: Callable[[RequestRecord], bool] | None = None,
    ) -> Rule:
        """429 with ``retry_after`` and the ``Via`` header discord.py needs to retry it."""
        error = too_many_requests(retry_after, is_global=is_global)
        return self.add(Rule("rate_limit", method, route, error, times, when=when))

    def ban(self, method: str = ANY, route: str = ANY, *, times: int | None = 1) -> Rule:
        """A 429 *without* ``Via`` (a Cloudflare ban): discord.py raises instead of retrying."""
        error = DiscordError(
            429,
            0,
            "You are being blocked from accessing our API temporarily "
            "due to exceeding our rate limits frequently.",
            extra={"retry_after": 0.05, "global": True},
        )
        return self.add(Rule("ban", method, route, error, times))

    def server_error(
        self,
        method: str = ANY,
        route: str = ANY,
        *,
        status: int = 500,
        times: int | None = 1,
        when: Callable[[RequestRecord], bool] | None = None,
    ) -> Rule:
        """5xx; discord.py retries 500/502/504 (after 1 s, 3 s, …) and raises on others."""
        error = DiscordError(status, 0, f"{status}: Internal Server Error")
        return self.add(Rule("server_error", method, route, error, times, when=when))

    def disconnect(
        self,
        method: str = ANY,
        route: str = ANY,
        *,
        handled: bool = False,
        times: int | None = 1,
        when: Callable[[RequestRecord], bool] | None = None,
    ) -> Rule:
        """Close the connection instead of answering (aiohttp raises
        ``ServerDisconnectedError``), as a reused keep-alive connection the server dropped
        does; ``handled``: the request took effect first (a message posted whose answer
        was lost), else it never did."""
        name = "disconnect_handled" if handled else "disconnect"
        return self.add(Rule(name, method, route, None, times, when=when))

    def delay(
        self, method: str = ANY, route: str = ANY, *, seconds: float, times: int | None = 1
    ) -> Rule:
        """Hold matching requests ``seconds`` of real time before handling them normally."""
        return self.add(Rule("delay", method, route, None, times, delay=seconds))

    def late_ack(self, seconds: float = 3.5, *, times: int = 1) -> None:
        """The next interaction callback(s) arrive ``seconds`` late (virtual clock advanced).

        With the default 3.5 s the callback misses Discord's 3-second window and
        gets 404/10062 Unknown interaction, as a slow handler would in production.
        """
        self._late_acks.extend([seconds] * times)

    def take_late_ack(self) -> float:
        return self._late_acks.pop(0) if self._late_acks else 0.0

    async def apply(self, record: RequestRecord) -> DiscordError | None:
        """Called by the server for every routed request; returns the error to answer."""
        for rule in self.rules:
            if rule.matches(record):
                rule.hits += 1
                record.fault = rule.name
                if rule.delay:
                    await asyncio.sleep(rule.delay)
                if rule.error is not None:
                    return rule.error
                return None
        return None
