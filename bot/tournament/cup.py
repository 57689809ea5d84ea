"""What the tournament service keeps of one tournament, and how it is saved.

A ``Cup`` is one tournament of a channel: its teams, its bracket once drawn, its round
clock and, per match, a ``Slot`` (the match's table and running tally). ``to_state`` /
``load_state`` are the JSON the store keeps with the tournament, so a restart resumes
where it stopped. ``TournamentSink`` is what the service asks of the Discord side.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from bot.presets import presets
from bot.rules import RuleSet

from .bracket import Game, Tournament
from .clock import RoundClock
from .tally import Tally

GRACE_SECONDS = 300.0


class TournamentSink(Protocol):
    """The Discord side: threads for matches and the tournament's messages."""

    async def post_opening(self, cup: Cup, title: str) -> int:
        """The match's first message in the tournament's channel (its thread's starter); its id."""
        ...

    async def open_place(self, cup: Cup, title: str, opening: int) -> int | None:
        """The match's thread, opened from the message ``opening``; its id.

        Asked again for the same message (a restart), it answers the same thread;
        ``None`` if that message no longer exists (deleted by someone).
        """
        ...

    async def match_opened(self, cup: Cup, game: Game, place_id: int) -> None: ...

    async def locale(self, cup: Cup) -> str:
        """The language of the tournament's messages and of its tables' (the server's)."""
        ...

    async def changed(self, cup: Cup, note: str = "", **args: int | str) -> None:
        """Registration or standings changed: edit the live messages; ``note`` is the key of
        an announcement (``tournament.ftl``), said in the server's language with ``args``."""
        ...


@dataclass
class Team:
    """A registration: ``members`` are user ids (none for a computer team).

    ``level`` is a computer team's strength (easy, normal, expert), chosen when the
    organiser adds it and played by its seats at every table it opens; a state saved
    before levels existed reads as normal, the strength those teams had.
    """

    name: str
    members: list[int]
    names: list[str]
    confirmed: bool = False
    computer: bool = False
    level: str = "normal"

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "members": self.members,
            "names": self.names,
            "confirmed": self.confirmed,
            "computer": self.computer,
            "level": self.level,
        }


@dataclass
class Slot:
    """A match being played: its table and running tally.

    ``present``: the players who checked in or acted at the table; ``quiet``: per
    player, when the first of their decisions in a row that the turn timer took
    for them ran out (kept, so a restart does not give a quiet player a new grace);
    ``away``: per player who left mid-match, when (their seat on 托管 until they act
    again or the grace period ends).
    """

    place_id: int
    table_id: int
    tally: Tally = field(default_factory=Tally)
    present: list[int] = field(default_factory=list)
    done: bool = False
    quiet: dict[int, float] = field(default_factory=dict)
    away: dict[int, float] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "place_id": self.place_id,
            "table_id": self.table_id,
            "tally": self.tally.to_dict(),
            "present": self.present,
            "done": self.done,
            "quiet": {str(user): since for user, since in self.quiet.items()},
            "away": {str(user): since for user, since in self.away.items()},
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Slot:
        tally = Tally.from_dict(data["tally"])
        quiet, away = (
            {int(user): since for user, since in data.get(key, {}).items()}
            for key in ("quiet", "away")
        )
        return cls(
            data["place_id"], data["table_id"], tally, data["present"], data["done"], quiet, away
        )


#: registration (open) → closed (no more teams) → running → finished, or cancelled
CupPhase = Literal["registration", "closed", "running", "finished", "cancelled"]


@dataclass(eq=False)
class Cup:
    """One tournament of a channel, as the service runs it."""

    id: int
    guild_id: int
    channel_id: int
    organiser_id: int
    name: str
    seed: str
    preset: str = "tournament"
    round_minutes: float = 90.0
    advance: int = 8
    podium: int = 3
    grace_seconds: float = GRACE_SECONDS
    phase: CupPhase = "registration"
    teams: list[Team] = field(default_factory=list)
    bracket: Tournament | None = None
    clock: RoundClock | None = None
    slots: dict[str, Slot] = field(default_factory=dict)  # "round.index" -> Slot
    times: dict[int, list[float | None]] = field(default_factory=dict)
    messages: dict[str, int] = field(default_factory=dict)  # what the sink posted
    openings: dict[str, int] = field(default_factory=dict)  # slot key -> its thread's starter
    timed_out: list[int] = field(default_factory=list)  # rounds whose time-up was announced
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    opening: asyncio.Lock = field(default_factory=asyncio.Lock)  # one opening of matches at once
    # one registration change at a time, saved or undone before the next is checked
    registering: asyncio.Lock = field(default_factory=asyncio.Lock)
    tasks: list[asyncio.Task[None]] = field(default_factory=list)

    @property
    def rules(self) -> RuleSet:
        """The rules of every match of the tournament."""
        return presets()[self.preset][0]

    @property
    def status(self) -> str:
        """The store's status."""
        return {"closed": "registration"}.get(self.phase, self.phase)

    def team_of(self, user_id: int) -> Team | None:
        return next((t for t in self.teams if user_id in t.members), None)

    def to_state(self) -> dict[str, Any]:
        return {
            "preset": self.preset,
            "round_minutes": self.round_minutes,
            "advance": self.advance,
            "podium": self.podium,
            "grace_seconds": self.grace_seconds,
            "phase": self.phase,
            "teams": [t.to_dict() for t in self.teams],
            "bracket": self.bracket.to_dict() if self.bracket else None,
            "clock": self.clock.to_dict() if self.clock else None,
            "slots": {k: s.to_dict() for k, s in self.slots.items()},
            "times": {str(k): v for k, v in self.times.items()},
            "messages": self.messages,
            "openings": self.openings,
            "timed_out": self.timed_out,
        }

    def load_state(self, state: dict[str, Any]) -> None:
        for key in ("preset", "round_minutes", "advance", "podium", "grace_seconds", "phase"):
            setattr(self, key, state[key])
        self.teams = [Team(**t) for t in state["teams"]]
        self.bracket = Tournament.from_dict(state["bracket"]) if state["bracket"] else None
        self.clock = RoundClock.from_dict(state["clock"]) if state["clock"] else None
        self.slots = {k: Slot.from_dict(s) for k, s in state["slots"].items()}
        self.times = {int(k): v for k, v in state["times"].items()}
        self.messages = dict(state["messages"])
        self.openings = dict(state.get("openings", {}))
        self.timed_out = list(state.get("timed_out", []))


def slot_key(game: Game) -> str:
    return f"{game.round_no}.{game.index}"


def game_of(key: str) -> tuple[int, int]:
    """A slot key's (round, match index): the inverse of ``slot_key``."""
    round_no, index = key.split(".")
    return int(round_no), int(index)
