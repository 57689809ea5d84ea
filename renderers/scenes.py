"""The plain data each image is drawn from: small frozen dataclasses.

A scene holds exactly what one image may show and nothing more. The caller (the
game) builds it from the table state for one viewer, so an image cannot leak a
card the scene was not given: a trick scene has the cards already on the table,
a hand scene one player's own cards.

Labels: a scene's ``words`` maps label keys (``renderers.labels``) to the
caller's text, already in the reader's language; the image draws those and
falls back to its built-in English or Chinese for a key not given.

Seats are numbered 0-3 in play order; partners sit opposite, so team 0 is seats
0 and 2 and team 1 is seats 1 and 3. Levels are rank letters (``"2"`` ... ``"T"``
... ``"A"``), as in ``bot.rules``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from bot.rules import LEVELS, Card, Trump

Names = tuple[str, str, str, str]


def _check_seat(value: int | None, what: str, optional: bool = False) -> None:
    if value is None and optional:
        return
    if not isinstance(value, int) or not 0 <= value < 4:
        raise ValueError(f"{what} must be a seat 0-3, not {value!r}")


def _check_names(names: Sequence[str]) -> None:
    if len(names) != 4:
        raise ValueError(f"names must hold 4 players, not {len(names)}")


def _check_levels(levels: Sequence[str], what: str) -> None:
    if len(levels) != 2 or any(level not in LEVELS for level in levels):
        raise ValueError(f"{what} must be two levels from 2-A, not {levels!r}")


@dataclass(frozen=True, slots=True)
class HandScene:
    """One player's cards, as only that player may see them.

    ``trump`` None means it is not set yet (during the deal): cards are grouped
    by suit only and no card is marked as trump. ``selected`` is a multiset: two
    ``AH`` highlight both copies, one ``AH`` only one of them. ``marked`` cards
    (the kitty, for the dealer who took it) get their code on a gold tag.
    """

    cards: Sequence[Card]
    trump: Trump | None = None
    selected: Sequence[Card] = ()
    title: str = ""
    per_row: int = 13  # fewer for large cards: a narrower image a phone shows bigger
    marked: Sequence[Card] = ()  # a multiset too: the dealer's cards from the kitty
    words: Mapping[str, str] = field(default_factory=dict)  # the caller's labels, by key


@dataclass(frozen=True, slots=True)
class TrickScene:
    """A trick on the table, seen by ``viewer`` (drawn at the bottom; None: seat 0).

    ``plays`` holds the seats that have played so far, each with the cards it
    played (after a failed throw, the cards that stood). ``winner`` is the seat
    winning so far, or the seat that won when ``final``. ``failed_throw`` is
    (seat, cards attempted, cards taken back) when the lead was a throw that did
    not stand; ``throw_penalty`` the points it cost, if any.
    """

    names: Names
    leader: int
    plays: Mapping[int, Sequence[Card]]
    trump: Trump
    dealer: int
    winner: int | None = None
    final: bool = False
    trick_points: int = 0
    failed_throw: tuple[int, Sequence[Card], Sequence[Card]] | None = None
    viewer: int | None = None
    trick_no: int | None = None
    throw_penalty: int = 0

    def __post_init__(self) -> None:
        _check_names(self.names)
        _check_seat(self.leader, "leader")
        _check_seat(self.dealer, "dealer")
        _check_seat(self.winner, "winner", optional=True)
        _check_seat(self.viewer, "viewer", optional=True)
        for seat in self.plays:
            _check_seat(seat, "a seat in plays")
        if self.failed_throw is not None:
            _check_seat(self.failed_throw[0], "the failed throw's seat")


BADGES = ("dealer", "led", "winning", "won", "to_play")


@dataclass(frozen=True, slots=True)
class TableScene:
    """The hand's live table message as one image: the trick so far and the strip.

    Every word is the caller's, in the table's language: ``head`` ("Hand 3 ·
    Trick 5"); ``teams``, the dealer's team's words then the attackers' (the
    level, such as "Attackers · 3"; the image adds the two names); ``score``
    (the attackers' points, the cards left); ``trump_word`` before the trump's
    suit and level; ``last_title`` over ``last`` (the previous trick, while a
    trick is in progress); ``badges``, the words on the seats' plates, keyed by
    ``BADGES``; ``pair_word`` between partners' names, with its spaces if any
    (`` & ``, 和). ``trick`` is the trick on the table (no plays before the lead).
    """

    trick: TrickScene
    head: str
    teams: tuple[str, str]
    score: str
    trump_word: str
    badges: Mapping[str, str]
    last: TrickScene | None = None
    last_title: str = ""
    pair_word: str = " & "

    def __post_init__(self) -> None:
        missing = [key for key in BADGES if key not in self.badges]
        if missing:
            raise ValueError(f"badges lack the words for {missing}")


@dataclass(frozen=True, slots=True)
class HistoryScene:
    """A finished hand, trick by trick, as a grid (``/shengji history hand_id:``).

    Every trick of a finished hand and its kitty are public once the hand is
    scored. ``tricks`` are finished ``TrickScene``s in order (their ``winner`` and
    ``trick_points`` set); ``title`` and ``kitty_word`` are the caller's words.
    """

    names: Names
    dealer: int
    tricks: Sequence[TrickScene]
    kitty: Sequence[Card]
    title: str
    kitty_word: str

    def __post_init__(self) -> None:
        _check_names(self.names)
        _check_seat(self.dealer, "dealer")
        if any(trick.winner is None for trick in self.tricks):
            raise ValueError("every trick of a finished hand has a winner")


@dataclass(frozen=True, slots=True)
class KittyScene:
    """The kitty (底牌) shown at the end of a hand.

    ``multiplier`` is the factor applied to its points when the attackers won the
    last trick (2, 4, 16, ...); None when the dealer's team kept it.
    """

    cards: Sequence[Card]
    trump: Trump | None
    dealer_name: str
    multiplier: int | None = None
    title: str = ""
    words: Mapping[str, str] = field(default_factory=dict)  # the caller's labels, by key


@dataclass(frozen=True, slots=True)
class SummaryScene:
    """How a hand was scored.

    ``trick_points`` are the attackers' card points from tricks, ``penalty`` the
    throw penalties added to them (negative when a defender's failed throw cost
    the attackers), ``kitty_points`` the points buried in the kitty and
    ``multiplier`` its factor (None when the dealer's team won the last trick).
    Levels are per team (team 0: seats 0 and 2). ``result`` is the caller's
    one-line verdict, such as "Attackers take the deal, +1". ``step`` is the score
    step (40 with two decks: the attackers take the deal at two steps), ``total``
    the points in the deck (200 with two decks).
    """

    names: Names
    dealer: int
    trick_points: int
    kitty_points: int
    multiplier: int | None
    levels_before: tuple[str, str]
    levels_after: tuple[str, str]
    next_dealer: int
    result: str
    penalty: int = 0
    hand_no: int | None = None
    step: int = 40
    total: int = 200
    words: Mapping[str, str] = field(default_factory=dict)  # the caller's labels, by key

    def __post_init__(self) -> None:
        _check_names(self.names)
        _check_seat(self.dealer, "dealer")
        _check_seat(self.next_dealer, "next_dealer")
        if self.step <= 0 or self.total <= 0:
            raise ValueError("step and total must be positive")
        _check_levels(self.levels_before, "levels_before")
        _check_levels(self.levels_after, "levels_after")

    @property
    def kitty_bonus(self) -> int:
        """The kitty's points times the multiplier (0 when the dealer's team kept it)."""
        return self.kitty_points * self.multiplier if self.multiplier else 0

    @property
    def attacker_points(self) -> int:
        """Tricks, penalties and the kitty bonus together."""
        return self.trick_points + self.penalty + self.kitty_bonus
