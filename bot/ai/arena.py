"""Duplicate-deal arena: compare two players on the same cards with seats swapped.

Each deal is played twice from the same deck order, dealer fixed at seat 0:

* run 1: A sits at seats 0 and 2 (the dealer's side), B at 1 and 3 (attacking);
* run 2: B at 0 and 2, A at 1 and 3.

So A and B attack with exactly the same cards against the same defensive cards.
The **point difference** of a deal is A's attacking points (run 2) minus B's
attacking points (run 1), using the hand's final attacking points (tricks, kitty
bonus and throw penalties). The **level difference** of a deal is the levels A's
team gained minus the levels B's team gained, over both runs. A deterministic
player against itself scores exactly 0 on every deal; pairing the runs removes
most of the luck of the cards, so a couple of hundred deals give tight intervals.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.game import Match
from bot.rules import DEALER, RuleSet, deck

from .player import Player
from .table import make_player, play_hand

# a player by name (``ai``, ``greedy``, ``random``) or a factory taking a seed
PlayerSpec = str | Callable[[str], Player]


def _build(spec: PlayerSpec, seed: str) -> Player:
    return make_player(spec, seed=seed) if isinstance(spec, str) else spec(seed)


@dataclass(frozen=True, slots=True)
class DealOutcome:
    """One duplicate deal: both runs' attacking points and the signed differences."""

    index: int
    b_attacking: int  # run 1: B attacks A
    a_attacking: int  # run 2: A attacks B
    level_diff: int  # levels A's team gained minus levels B's team gained

    @property
    def point_diff(self) -> int:
        return self.a_attacking - self.b_attacking


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


def deal_cards(seed: int, index: int, rules: RuleSet) -> list:
    """The deck order of deal ``index`` of an arena seeded ``seed``."""
    cards = deck(rules.decks)
    random.Random(f"arena/{seed}/{index}").shuffle(cards)
    return cards


def _run(specs: Sequence[PlayerSpec], seed: int, index: int, rules: RuleSet, cards: list) -> Match:
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
    rules = rules or RuleSet()
    cards = deal_cards(seed, index, rules)
    first = _run([a, b, a, b], seed, index, rules, cards).result
    second = _run([b, a, b, a], seed, index, rules, cards).result
    assert first is not None and second is not None
    levels = first.levels_gained if first.winner == DEALER else -first.levels_gained
    levels += -second.levels_gained if second.winner == DEALER else second.levels_gained
    return DealOutcome(index, first.attacker_points, second.attacker_points, levels)


def arena(a: str, b: str, deals: int, seed: int, rules: RuleSet | None = None) -> list[DealOutcome]:
    """``deals`` duplicate deals of A against B."""
    return [play_deal(a, b, seed, i, rules) for i in range(deals)]
