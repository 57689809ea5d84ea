"""The post-hand review's lines in a player's language, one wording on Discord and
in the terminal.

A follow is judged by what it answered, so its line shows the trick so far: who led
what, what the others played before the player, and who was winning it. The seats
are named as the caller's players know them: on Discord by where they sit from the
player (your partner, the opponent on your left or right: 对家, 下家, 上家), in the
terminal by its compass seats (``bot.cli.common.Printer.seat``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from bot.i18n import Arg, t
from bot.rules import Card

# seats from the player's: the next to play sits on the left (下家), the partner opposite
# play goes counter-clockwise (seed 003: 按逆时针方向依次出牌): the next seat, 下家, sits
# on a player's right
RELATIVE_SEATS = ("", "review-seat-next", "review-seat-partner", "review-seat-previous")


def relative_seat(locale: object, seat: int, me: int) -> str:
    """``seat`` named from ``me``'s chair (never ``me``: the line says "you")."""
    return t(locale, RELATIVE_SEATS[(seat - me) % 4])


class Decision(Protocol):
    """What a line says of a reviewed decision (``bot.ai.review.Decision``; named here
    by its shape, so the words depend on the rules library alone)."""

    @property
    def trick(self) -> int: ...
    @property
    def played(self) -> tuple[Card, ...]: ...
    @property
    def better(self) -> tuple[Card, ...]: ...
    @property
    def loss(self) -> float: ...
    @property
    def before(self) -> Sequence[tuple[int, tuple[Card, ...]]]: ...
    @property
    def winning(self) -> int | None: ...
    @property
    def attacking(self) -> bool: ...


def clauses(locale: object, items: Sequence[str]) -> str:
    """The plays of a trick so far, one clause each, joined as the locale joins
    clauses: ``A led X and B played Y``, ``A led X, B played Y, and C played Z`` /
    ``A首出X，B出Y，C出Z`` (a Chinese list's 、 and 和 join nouns, not clauses)."""
    if len(items) < 2:
        return "".join(items)
    if len(items) == 2:
        return t(locale, "review-trick-two", first=items[0], second=items[1])
    text = items[0]
    for item in items[1:-1]:
        text = t(locale, "review-trick-then", so_far=text, next=item)
    return t(locale, "review-trick-last", so_far=text, next=items[-1])


def review_line(
    locale: object,
    rank: int,
    decision: Decision,
    who: Callable[[int], str],
    cards: Callable[[tuple[Card, ...]], str],
) -> str:
    """One reviewed decision, ``rank`` in the list (the costliest is 1)."""
    words: dict[str, Arg] = {
        "rank": str(rank),
        "trick": str(decision.trick),
        "played": cards(decision.played),
        "better": cards(decision.better),
        "loss": decision.loss,
        "side": "attackers" if decision.attacking else "dealer",
    }
    if decision.winning is None:
        return t(locale, "review-line-led", **words)
    before = [
        t(
            locale,
            "review-trick-led" if k == 0 else "review-trick-played",
            who=who(seat),
            cards=cards(played),
        )
        for k, (seat, played) in enumerate(decision.before)
    ]
    return t(
        locale,
        "review-line-played",
        before=clauses(locale, before),
        winning=who(decision.winning),
        **words,
    )
