"""Points, the kitty bonus, level changes, the next dealer, match end, league points."""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Card, check_copies
from .ruleset import DEFAULT_RULES, RuleSet
from .seats import partner_of, team_of
from .trump import LEVELS, Trump, order_for
from .units import decompose_in

DEALER = "dealer"
ATTACKERS = "attackers"
DRAW = "draw"  # race45: exactly 40 without the last trick; nobody moves
RACE_TARGET, RACE_DRAW = 45, 40  # seed 000 §四: 抢到45分获胜; 得到40分算平局
BIG_LIGHT_LEAGUE = 4  # league points of a 大光 result unless a server sets its own (seed 001)


def kitty_multiplier(lead: Sequence[Card], trump: Trump, rules: RuleSet | None = None) -> int:
    """How many times the kitty's points count when the attackers win the last trick.

    ``lead`` is the last trick's (resolved) lead; only its largest unit counts.
    ``power``: 2^cards of that unit, at most 64 (single 2, pair 4, 2-pair tractor 16,
    3-pair 64). ``doubling``: 2 for a single, doubled for each further card on a
    tier (pair 4, 2-pair tractor 8, 3-pair 16; a triple counts two such cards).
    ``flat``: always 2. ``linear`` (seed 002, three decks): single 2, pair 3, triple 4,
    tractor of pairs 5 plus 1 for each further pair, of triples 6 plus 2 for each
    further triple.
    """
    rules = rules or DEFAULT_RULES
    if rules.kitty_multiplier == "flat":
        return 2
    check_copies(lead)  # any deck count: the guide prices a pair for one deck too
    units = decompose_in(order_for(trump, rules), lead)
    if rules.kitty_multiplier == "power":
        return min(1 << max(len(u.cards) for u in units), 64)
    if rules.kitty_multiplier == "linear":
        return max(_linear(u.width, u.length) for u in units)
    return max(1 << (1 + u.length * (u.width - 1)) for u in units)


def _linear(width: int, length: int) -> int:
    if width == 1:
        return 2
    if length == 1:
        return width + 1  # pair 3, triple 4
    return 5 + (width - 2) + (width - 1) * (length - 2)  # 2 pairs 5 (+1), 2 triples 6 (+2)


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


def trick_side(winner: int, dealer: int | None) -> str:
    """Whose a trick's points are: ``ATTACKERS`` when they won it (the points count),
    else ``DEALER`` (kept from the attackers; no dealer yet counts as that too)."""
    return ATTACKERS if dealer is not None and team_of(winner) != team_of(dealer) else DEALER


def hand_outcome(
    attacker_points: int, last_trick: bool, rules: RuleSet | None = None
) -> tuple[str, int]:
    """Who goes up and by how much: the level table, or with ``scoring="race45"`` the race.

    ``last_trick`` says whether the attackers won the last trick. The race (seed 000
    §四, one deck): 45 points or the last trick win the hand for the attackers, both
    together 2 levels; exactly 40 without the last trick is a ``DRAW`` (nobody moves,
    the next deal is contested); anything else is the dealer's team +1. The kitty
    bonus is part of ``attacker_points`` in both.
    """
    rules = rules or DEFAULT_RULES
    if rules.scoring == "levels":
        return level_outcome(attacker_points, rules)
    reached = attacker_points >= RACE_TARGET
    if reached or last_trick:
        return (ATTACKERS, 2 if reached and last_trick else 1)
    if attacker_points == RACE_DRAW:
        return (DRAW, 0)
    return (DEALER, 1)


def advance(level: str, gain: int) -> str:
    """A team's level after gaining ``gain`` levels; gains stop at A."""
    return LEVELS[min(LEVELS.index(level) + gain, len(LEVELS) - 1)]


def next_dealer(dealer: int, winner: str) -> int:
    """Seat of the next dealer: the partner if the dealer's team held, else the next seat.

    After a race45 ``DRAW`` the next deal is contested by bidding as in the first hand
    (seed 000 平局后下一局重新抢庄); it starts from the same seat, returned here.
    """
    if winner == DRAW:
        return dealer
    return partner_of(dealer) if winner == DEALER else (dealer + 1) % 4


def match_over(
    dealer_level: str, winner: str, new_levels: Sequence[str], rules: RuleSet | None = None
) -> bool:
    """Whether the hand just scored ends the match.

    ``defend_a``: the dealer's team was at A and held the deal. ``reach_a``: either
    team is now at A.
    """
    rules = rules or DEFAULT_RULES
    if winner == DRAW:
        return False
    if rules.finish == "reach_a":
        return "A" in new_levels
    return dealer_level == "A" and winner == DEALER


def league_change(winner: str, levels: int, big_light: int = BIG_LIGHT_LEAGUE) -> int:
    """League points (积分, seed 001) the winning side earns; the losers lose as many.

    Attackers taking the deal: 2, plus 1 per level above that. Dealer's team going up:
    2 for one level, 3 for two; a 大光 (three levels) earns ``big_light``, which a
    server may set (seed 001 特殊房间配置; 4 by default). A race45 draw earns nothing.
    """
    if winner == DRAW:
        return 0
    if winner == ATTACKERS:
        return 2 + levels
    if levels >= 3:
        return big_light
    return 2 + max(levels - 1, 0)


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
