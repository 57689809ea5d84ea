"""Building seat views by hand for scripted AI situations."""

from __future__ import annotations

from collections.abc import Sequence

from bot.game import SeatView, TrickRecord
from bot.rules import RuleSet, Trump, parse_cards, points, trick_winner


def trick(leader: int, plays: Sequence[str], trump: Trump, rules: RuleSet | None = None):
    """A finished trick from its plays in order (leader first), winner computed."""
    rules = rules or RuleSet()
    cards = [tuple(parse_cards(p)) for p in plays]
    win = trick_winner(cards, trump, rules)
    record = tuple(((leader + i) % 4, c) for i, c in enumerate(cards))
    return TrickRecord(leader, record, (leader + win) % 4, sum(points(c) for c in cards))


def make_view(
    seat: int,
    hand: str,
    *,
    trump: Trump | None = None,
    dealer: int = 0,
    leader: int | None = None,
    trick_so_far: Sequence[str] = (),
    tricks: Sequence[TrickRecord] = (),
    kitty: str | None = None,
    rules: RuleSet | None = None,
    sizes: Sequence[int] | None = None,
    phase: str = "play",
) -> SeatView:
    """The view of ``seat`` in the play phase (or burying, with ``phase="kitty"``).

    ``trick_so_far`` lists the cards already played to the current trick, starting
    with ``leader``'s lead. Other hands are as big as ours, less what they played
    to this trick.
    """
    rules = rules or RuleSet()
    trump = trump or Trump("2", "H")
    cards = tuple(parse_cards(hand))
    if leader is None:
        leader = (seat - len(trick_so_far)) % 4
    current = tuple(((leader + i) % 4, tuple(parse_cards(p))) for i, p in enumerate(trick_so_far))
    if sizes is None:
        n = len(current[0][1]) if current else 0
        played = {s for s, _ in current}
        sizes = tuple(len(cards) - n if s in played else len(cards) for s in range(4))
    attackers = sum(t.points for t in tricks if t.winner % 2 != dealer % 2)
    return SeatView(
        seat=seat,
        rules=rules,
        hand_no=0,
        phase=phase,
        levels=("2", "2"),
        dealer=dealer,
        level=trump.level,
        trump=trump,
        hand=cards,
        hand_sizes=tuple(sizes),
        dealt=4 * rules.hand_size,
        deal_total=4 * rules.hand_size,
        bids=(),
        kitty=tuple(parse_cards(kitty)) if kitty is not None else None,
        to_act=seat,
        expecting="bury" if phase == "kitty" else "play",
        leader=leader,
        trick=current,
        tricks=tuple(tricks),
        attackers_points=attackers,
        last_result=None,
        match_winner=None,
    )
