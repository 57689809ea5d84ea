"""Duplicate-deal arena: compare two players on the same cards with seats swapped.

Each deal is played twice from the same deck order, dealer fixed at seat 0:

* run 1: A sits at seats 0 and 2 (the dealer's side), B at 1 and 3 (attacking);
* run 2: B at 0 and 2, A at 1 and 3.

So A and B attack with exactly the same cards against the same defensive cards.
The **point difference** of a deal is A's attacking points (run 2) minus B's
attacking points (run 1), using the hand's final attacking points (tricks, kitty
bonus and throw penalties). (With ``bidding="joker"`` the attackers can take the
deal; each run then counts its attacking points for A when A's team attacked and
against A when B's did, which is the same thing whenever the deal stays put.)
The **level difference** of a deal is the levels A's team gained minus the levels
B's team gained, over both runs. A deterministic
player against itself scores exactly 0 on every deal; pairing the runs removes
most of the luck of the cards, so a couple of hundred deals give tight intervals.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.game import HandResult, Match
from bot.rules import DEALER, DEFAULT_RULES, Card, RuleSet, deck, team_of

from .levels import make_player
from .player import Player
from .table import play_hand

# a player by level or name (``expert``, ``ai``, ``greedy``, …) or a factory taking a seed
PlayerSpec = str | Callable[[str], Player]


def _build(spec: PlayerSpec, seed: str) -> Player:
    return make_player(spec, seed=seed) if isinstance(spec, str) else spec(seed)


@dataclass(frozen=True, slots=True)
class DealOutcome:
    """One duplicate deal, from A's side: signed attacking points of both runs.

    ``run1`` and ``run2`` are the attacking points of each run, positive when A's
    team attacked and negative when B's did (normally run 1 is B attacking and
    run 2 A attacking; with joker bidding the attackers can take the deal).
    """

    index: int
    run1: int
    run2: int
    level_diff: int  # levels A's team gained minus levels B's team gained

    @property
    def point_diff(self) -> int:
        return self.run1 + self.run2

    @property
    def a_attacking(self) -> int:
        return sum(r for r in (self.run1, self.run2) if r > 0)

    @property
    def b_attacking(self) -> int:
        return -sum(r for r in (self.run1, self.run2) if r < 0)


@dataclass(frozen=True, slots=True)
class Summary:
    """Mean and 95% confidence half-width of a sample."""

    n: int
    mean: float
    half_width: float

    @property
    def low(self) -> float:
        return self.mean - self.half_width

    @property
    def high(self) -> float:
        return self.mean + self.half_width


def summarize(values: Sequence[float]) -> Summary:
    """Mean with a normal-approximation 95% interval (n ≥ 30 in practice)."""
    n = len(values)
    if n == 0:
        return Summary(0, 0.0, 0.0)
    mean = sum(values) / n
    if n == 1:
        return Summary(1, mean, math.inf)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return Summary(n, mean, 1.96 * math.sqrt(var / n))


def deal_cards(seed: int, index: int, rules: RuleSet) -> list[Card]:
    """The deck order of deal ``index`` of an arena seeded ``seed``."""
    cards = deck(rules.decks)
    random.Random(f"arena/{seed}/{index}").shuffle(cards)
    return cards


def _run(
    specs: Sequence[PlayerSpec], seed: int, index: int, rules: RuleSet, cards: list[Card]
) -> Match:
    # players are seeded by deal and seat, not by side: the same player kind in the
    # same seat behaves identically in both runs
    players = [_build(specs[s], f"{seed}/{index}/{s}") for s in range(4)]
    match = Match.new(seed + index, rules, first_dealer=0, deck_order=cards)
    play_hand(match, players)
    return match


def play_deal(
    a: PlayerSpec, b: PlayerSpec, seed: int, index: int, rules: RuleSet | None = None
) -> DealOutcome:
    """Play deal ``index`` twice, A defending first, then A attacking."""
    rules = rules or DEFAULT_RULES
    cards = deal_cards(seed, index, rules)
    first = _run([a, b, a, b], seed, index, rules, cards).result
    second = _run([b, a, b, a], seed, index, rules, cards).result
    assert first is not None and second is not None
    # A sits on team 0 (seats 0 and 2) in run 1 and on team 1 in run 2
    return DealOutcome(
        index,
        _signed_points(first, a_team=0),
        _signed_points(second, a_team=1),
        _signed_levels(first, a_team=0) + _signed_levels(second, a_team=1),
    )


def _signed_points(result: HandResult, a_team: int) -> int:
    a_attacked = team_of(result.dealer) != a_team
    return result.attacker_points if a_attacked else -result.attacker_points


def _signed_levels(result: HandResult, a_team: int) -> int:
    dealer_team = team_of(result.dealer)
    up = dealer_team if result.winner == DEALER else 1 - dealer_team
    return result.levels_gained if up == a_team else -result.levels_gained


def arena(
    a: PlayerSpec,
    b: PlayerSpec,
    deals: int,
    seed: int,
    rules: RuleSet | None = None,
    think_ms: float | None = None,
) -> list[DealOutcome]:
    """``deals`` duplicate deals of A against B; ``think_ms`` for expert players."""
    a, b = (_with_think(x, think_ms) for x in (a, b))
    return [play_deal(a, b, seed, i, rules) for i in range(deals)]


def _with_think(spec: PlayerSpec, think_ms: float | None) -> PlayerSpec:
    if think_ms is None or not isinstance(spec, str):
        return spec
    return lambda seed: make_player(spec, seed=seed, think_ms=think_ms)
