"""Points, the kitty bonus, level changes, the next dealer, match end, league points."""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Card
from .ruleset import DEFAULT_RULES, RuleSet
from .seats import partner_of
from .trump import LEVELS, Trump, order_for
from .units import decompose_in

DEALER = "dealer"
ATTACKERS = "attackers"


def kitty_multiplier(lead: Sequence[Card], trump: Trump, rules: RuleSet | None = None) -> int:
    """How many times the kitty's points count when the attackers win the last trick.

    ``lead`` is the last trick's (resolved) lead; only its largest unit counts.
    ``power``: 2^cards of that unit, at most 64 (single 2, pair 4, 2-pair tractor 16,
    3-pair 64). ``doubling``: 2 for a single, doubled for each further card on a
    tier (pair 4, 2-pair tractor 8, 3-pair 16; a triple counts two such cards).
    ``flat``: always 2.
    """
    rules = rules or DEFAULT_RULES
    if rules.kitty_multiplier == "flat":
        return 2
    units = decompose_in(order_for(trump, rules), lead)
    if rules.kitty_multiplier == "power":
        return min(2 ** max(len(u.cards) for u in units), 64)
    return max(2 ** (1 + u.length * (u.width - 1)) for u in units)


def level_outcome(attacker_points: int, rules: RuleSet | None = None) -> tuple[str, int]:
    """Which team goes up and by how many levels, from the attackers' points.

    With a step of 20 per deck (40 for two decks): 0 is dealer +3, under one step
    +2, under two steps +1; from two steps the attackers take the deal (+0), and
    each further step is one more level. Negative points count as 0.
    """
    rules = rules or DEFAULT_RULES
    pts = max(0, attacker_points)
    if rules.points_cap is not None:
        pts = min(pts, rules.points_cap)
    step = rules.step
    if pts == 0:
        return (DEALER, 3)
    if pts < step:
        return (DEALER, 2)
    if pts < 2 * step:
        return (DEALER, 1)
    return (ATTACKERS, pts // step - 2)


def advance(level: str, gain: int) -> str:
    """A team's level after gaining ``gain`` levels; gains stop at A."""
    return LEVELS[min(LEVELS.index(level) + gain, len(LEVELS) - 1)]


def next_dealer(dealer: int, winner: str) -> int:
    """Seat of the next dealer: the partner if the dealer's team held, else the next seat."""
    return partner_of(dealer) if winner == DEALER else (dealer + 1) % 4


def match_over(
    dealer_level: str, winner: str, new_levels: Sequence[str], rules: RuleSet | None = None
) -> bool:
    """Whether the hand just scored ends the match.

    ``defend_a``: the dealer's team was at A and held the deal. ``reach_a``: either
    team is now at A.
    """
    rules = rules or DEFAULT_RULES
    if rules.finish == "reach_a":
        return "A" in new_levels
    return dealer_level == "A" and winner == DEALER


def league_change(winner: str, levels: int) -> int:
    """League points (积分, seed 001) the winning side earns; the losers lose as many.

    Attackers taking the deal: 2, plus 1 per level above that. Dealer's team going up:
    2 for one level, plus 1 per further level, at most 4.
    """
    if winner == ATTACKERS:
        return 2 + levels
    return min(2 + max(levels - 1, 0), 4)


def league_factor(league_points: Sequence[int]) -> int:
    """Doubled when all four players hold 80 league points or more, tripled above 300.

    Seed 001 doubles for "all between 80 and 300" and triples for "all above 300";
    a table with some players above 300 and the rest above 80 is not named there,
    and is doubled here so that higher scores never lower the stakes.
    """
    if all(p > 300 for p in league_points):
        return 3
    if all(p >= 80 for p in league_points):
        return 2
    return 1
