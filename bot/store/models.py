"""Plain values the store hands out and takes in (no database types leak out).

Everything here is a frozen dataclass or a simple container so the table service,
the cogs and the CLI can use them without knowing SQL, and so they compare by value
in tests.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from bot.game import HandResult, TrickRecord
from bot.rules import RuleSet

SeatKind = Literal["human", "bot"]
Metric = Literal["league", "rating", "wins", "hands"]
METRICS: tuple[str, ...] = ("league", "rating", "wins", "hands")


class StoreError(Exception):
    """The database cannot be used as asked; the message is meant for the operator.

    Raised for files that are not SQLite databases, corrupt or truncated files,
    databases written by a newer version of the bot, and misuse of a table (an
    unknown or closed table, a second live table in a channel).
    """


class ConnectionLost(StoreError):
    """The server connection went away mid-call; the next call connects again.

    Its own class so the service can tell it passes (pause and retry) from a
    store that refuses for good: the message alone says nothing to code.
    """


class SequenceError(StoreError):
    """``append_action`` got a seq that is not the next one for the table.

    The log must be gap-free to replay, so the store refuses rather than guesses;
    ``expected`` tells the service where the log really is.
    """

    def __init__(self, message: str, expected: int) -> None:
        super().__init__(message)
        self.expected = expected


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """Who sits in a seat: a Discord user (``human``) or a computer player (``bot``).

    ``auto`` marks a human whose moves the computer makes (托管); such a seat still
    counts for that human's records. ``ai`` names the computer player used for bots
    and auto seats.
    """

    kind: SeatKind
    user_id: int | None
    name: str
    ai: str | None = None
    auto: bool = False

    def __post_init__(self) -> None:
        if self.kind not in ("human", "bot"):
            raise ValueError(f"seat kind must be 'human' or 'bot', not {self.kind!r}")
        if self.kind == "human" and self.user_id is None:
            raise ValueError("a human seat needs a user_id")

    @property
    def ranked(self) -> bool:
        """Whether this seat's results go to a player's records (humans only)."""
        return self.kind == "human" and self.user_id is not None

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "user_id": self.user_id,
            "name": self.name,
            "ai": self.ai,
            "auto": self.auto,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SeatInfo:
        return cls(
            kind=data["kind"],
            user_id=data.get("user_id"),
            name=data["name"],
            ai=data.get("ai"),
            auto=bool(data.get("auto", False)),
        )

    @classmethod
    def bot(cls, name: str, ai: str = "heuristic") -> SeatInfo:
        return cls("bot", None, name, ai, True)

    @classmethod
    def human(cls, user_id: int, name: str, *, auto: bool = False) -> SeatInfo:
        return cls("human", user_id, name, None, auto)


@dataclass(frozen=True, slots=True)
class Leaver:
    """A human who left a match before its end, from the seat a computer plays on in
    (``Store.leave_match`` counts them for the match)."""

    seat: int
    user_id: int
    name: str


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """A guild's rules and timers.

    ``timers`` holds only what the guild changed (``bid_window_seconds``,
    ``deal_pace_ms``, ``bot_delay_ms``, ...): the table service owns the defaults,
    so a new timer needs no migration and no default lives in two places. The
    guild's choices that are words (``language``, ``table_place``) live here too.
    """

    rules: RuleSet = field(default_factory=RuleSet)
    timers: dict[str, float | str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class LiveTable:
    """Everything needed to bring a live table back after a restart.

    ``actions`` are the (seq, seat, action dict) accepted after ``snapshot_seq``
    (all of them when there is no snapshot). ``last_seq`` is the last logged seq.
    ``hands_recorded`` is how many hands ``record_hand`` has stored for the table:
    when the restored match is scored but ``result.hand_no`` was not recorded (a
    crash between the last play and ``record_hand``), call ``record_hand`` again; it
    is idempotent per (table, hand_no).
    """

    table_id: int
    guild_id: int
    channel_id: int
    host_id: int
    rules: RuleSet
    seed: int
    first_dealer: int | None
    seats: list[SeatInfo | None]
    meta: dict[str, Any]
    snapshot: dict[str, Any] | None
    snapshot_seq: int
    actions: list[tuple[int, int, dict[str, Any]]]
    created_at: float = 0.0
    last_seq: int = 0
    hands_recorded: int = 0
    last_action_at: float = 0.0  # when the last action was accepted: timers resume from it


@dataclass(frozen=True, slots=True)
class LeaderRow:
    """One line of a leaderboard; ``value`` is the metric (the ordinal for ratings)."""

    user_id: int
    name: str
    value: float
    matches: int
    wins: int
    hands: int


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """A player's records in one guild."""

    user_id: int
    name: str
    matches: int
    wins: int
    hands: int
    dealer_hands: int
    partner_hands: int
    attacker_hands: int
    levels_gained: int
    kitty_bonuses: int
    kitty_bonus_points: int
    failed_throws: int
    throw_penalty_points: int
    league: int
    mu: float
    sigma: float
    ordinal: float
    rated_matches: int


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """A table's match for a "recent matches" list.

    ``players`` are the seats as they were at the end (or now, for a live table);
    ``levels`` are the teams' levels after the last recorded hand.
    """

    table_id: int
    channel_id: int
    players: list[SeatInfo | None]
    status: str
    winner_team: int | None
    hands: int
    started_at: float
    finished_at: float | None
    levels: tuple[str, str] | None


@dataclass(frozen=True, slots=True)
class HandPlayer:
    """One seat's part in a recorded hand."""

    seat: int
    kind: SeatKind
    user_id: int | None
    name: str
    role: str  # "dealer", "partner" or "attacker"
    team: int
    levels_gained: int  # levels the seat's team went up this hand
    kitty_bonus: int  # the kitty bonus the seat's team earned (attackers only)
    last_trick: bool  # this seat won the last trick
    failed_throws: int
    throw_penalty: int
    league_before: int | None  # None for bots: they hold no league points
    league_delta: int | None


@dataclass(frozen=True, slots=True)
class HandRecord:
    """The full record of one hand, trick by trick (for /history and replays)."""

    hand_id: int
    table_id: int
    guild_id: int
    hand_no: int
    seed: int
    played_at: float
    result: HandResult
    tricks: list[TrickRecord]
    players: list[HandPlayer]
    league_change: int  # before the factor
    league_factor: int


@dataclass(frozen=True, slots=True)
class ReplaySource:
    """What replaying one recorded hand needs (the post-hand review): the table's
    origin (rules, seed, first dealer), its place, and its whole action log (empty
    once pruned: logs hold every hidden card and go 30 days after the table closed)."""

    hand_id: int
    hand_no: int
    table_id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    rules: RuleSet
    seed: int
    first_dealer: int | None
    actions: list[tuple[int, dict[str, Any]]]  # (seat, action dict) in order
