"""A round's clock as data: a time budget that can be paused and extended.

"When the round's time is up no new hand starts; hands in progress finish"
(seed 000 gives each round an hour and a half). The clock only answers questions
about time given ``now``; whoever owns it stores it and does the waiting. Pausing
stops the round's time, not the tables: an organiser pauses for an incident at one
table while the others play on, and the time lost is given back to every match.
Times are wall-clock seconds so a stored clock survives a restart.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any


class ClockError(ValueError):
    """A pause, resume or extension that makes no sense now (message for the organiser).

    ``key`` names the same sentence in the catalogs (``tournament.ftl``).
    """

    def __init__(self, text: str, key: str) -> None:
        super().__init__(text)
        self.key = key


@dataclass(frozen=True, slots=True)
class RoundClock:
    seconds: float  # the round's budget, extensions included
    started_at: float | None = None
    paused_at: float | None = None
    paused_total: float = 0.0

    @property
    def started(self) -> bool:
        return self.started_at is not None

    @property
    def paused(self) -> bool:
        return self.paused_at is not None

    def start(self, now: float) -> RoundClock:
        if self.started:
            raise ClockError("The round's clock is already running.", "tournament-clock-running")
        return replace(self, started_at=now)

    def elapsed(self, now: float) -> float:
        if self.started_at is None:
            return 0.0
        end = self.paused_at if self.paused_at is not None else now
        return max(0.0, end - self.started_at - self.paused_total)

    def remaining(self, now: float) -> float:
        return max(0.0, self.seconds - self.elapsed(now))

    def expired(self, now: float) -> bool:
        """Time is up: no new hand may start."""
        return self.started and self.remaining(now) <= 0

    def deadline(self) -> float | None:
        """When the time runs out, if the clock runs (None while paused or not started)."""
        if self.started_at is None or self.paused_at is not None:
            return None
        return self.started_at + self.paused_total + self.seconds

    def pause(self, now: float) -> RoundClock:
        if not self.started:
            raise ClockError("The round has not started.", "tournament-round-not-started")
        if self.paused:
            raise ClockError("The round is already paused.", "tournament-already-paused")
        if self.expired(now):
            raise ClockError("The round's time is already up.", "tournament-time-already-up")
        return replace(self, paused_at=now)

    def resume(self, now: float) -> RoundClock:
        if self.paused_at is None:
            raise ClockError("The round is not paused.", "tournament-not-paused")
        return replace(self, paused_at=None, paused_total=self.paused_total + now - self.paused_at)

    def extend(self, seconds: float, now: float) -> RoundClock:
        if seconds <= 0:
            raise ClockError(
                "Extend by a positive number of minutes.", "tournament-extend-positive"
            )
        if self.expired(now):
            raise ClockError(
                "The round's time is already up: its last hands are finishing.",
                "tournament-time-already-up",
            )
        return replace(self, seconds=self.seconds + seconds)

    def to_dict(self) -> dict[str, Any]:
        return {
            "seconds": self.seconds,
            "started_at": self.started_at,
            "paused_at": self.paused_at,
            "paused_total": self.paused_total,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RoundClock:
        return cls(**data)
