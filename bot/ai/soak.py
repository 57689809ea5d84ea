"""Soak: many seeded hands among computer players, invariants checked throughout.

The driver of ``python3 -m bench.soak`` and of the slow tests; it lives here so
that benches and tests both import it from the code and never from each other.

Matches rotate through player line-ups (heuristic, greedy, random, mixed) and rule
variants (1 and 3 decks, joker bidding, redeals, fixed 2s, no trump chains,
suit-only following, other kitty multipliers, points cap, reach-A finish, throw
penalties). Checked:

* every card is accounted for after every action (hands, undealt stock, kitty,
  tricks): 108 with two decks;
* every player action was legal, re-checked against the real hand *before* it was
  applied, by the one legality check (``bot.game.legal.check_action``);
* each hand's point cards sum to the deck's total across tricks and kitty, and
  each trick's recorded points match its cards; the attackers' trick points are
  their tricks minus/plus the throw penalties;
* levels move only as RULES.md says: ``level_outcome`` of the final attacking
  points, gains stop at A, the next dealer follows ``next_dealer``, the kitty
  multiplier is ``kitty_multiplier`` of the last lead when the attackers take it.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field

from bot.game import SYSTEM, Action, Match, NextHand, Phase, Play, check_action
from bot.rules import (
    DEALER,
    DEFAULT_RULES,
    RulesError,
    advance,
    deck,
    kitty_multiplier,
    level_outcome,
    next_dealer,
    points,
    team_of,
)

from .table import make_player, play_hand

LINEUPS = (
    "ai,ai,ai,ai",
    "ai,greedy,ai,greedy",
    "random,ai,random,ai",
    "ai,random,greedy,ai",
    "random,random,random,random",
    "greedy,greedy,greedy,greedy",
)
VARIANTS: tuple[dict, ...] = (
    {},
    {"decks": 1},
    {"decks": 3},
    {"bidding": "joker"},
    {"no_bid": "redeal"},
    {"fixed_two_trump": True},
    {"trump_chain_tractors": False},
    {"follow_shape": "suit_only"},
    {"kitty_multiplier": "doubling"},
    {"kitty_multiplier": "flat", "throw_penalty": 0},
    {"points_cap": 200, "throw_penalty": 20},
    {"finish": "reach_a"},
)


@dataclass
class SoakReport:
    hands: int = 0
    matches: int = 0
    plays: int = 0
    seconds: float = 0.0
    failures: list[str] = field(default_factory=list)
    configs: Counter = field(default_factory=Counter)

    @property
    def ok(self) -> bool:
        return not self.failures


class Invariants:
    """Checks one match as it is played; failures are collected, not raised."""

    def __init__(self, match: Match, report: SoakReport, label: str) -> None:
        self.match = match
        self.report = report
        self.label = label
        self.full = Counter(map(str, deck(match.rules.decks)))

    def fail(self, what: str) -> None:
        m = self.match
        self.report.failures.append(f"[{self.label} hand {m.hand_no}] {what}")

    def before(self, match: Match, seat: int, action: Action) -> None:
        """Re-check a player's action against the real hand before it is applied."""
        try:
            check_action(match.view(seat), action)
        except RulesError as error:
            self.fail(f"illegal {action!r} by seat {seat}: {error}")
        if isinstance(action, Play):
            self.report.plays += 1

    def cards_accounted(self) -> None:
        m = self.match
        seen: Counter = Counter()
        for hand in m.hands:
            seen.update(map(str, hand))
        if m.phase == Phase.DEAL:
            seen.update(map(str, m.stock[m.dealt : m.deal_total]))
        if m.phase != Phase.KITTY:  # in the kitty phase the kitty is in the dealer's hand
            seen.update(map(str, m.kitty))
        for trick in m.tricks:
            for _, cards in trick.plays:
                seen.update(map(str, cards))
        for _, cards in m.trick:
            seen.update(map(str, cards))
        if seen != self.full:
            self.fail(
                f"cards not accounted for in phase {m.phase}: {seen - self.full} extra, "
                f"{self.full - seen} missing"
            )

    def hand_scored(self) -> None:
        m = self.match
        r = m.result
        assert r is not None
        rules = m.rules
        total = sum(points(cards) for t in m.tricks for _, cards in t.plays) + r.kitty_points
        if total != rules.total_points:
            self.fail(f"point cards sum to {total}, not {rules.total_points}")
        dealer_team = team_of(r.dealer)
        won = 0
        for t in m.tricks:
            if t.points != sum(points(cards) for _, cards in t.plays):
                self.fail(f"trick points {t.points} do not match its cards")
            if team_of(t.winner) != dealer_team:
                won += t.points
        penalty = sum(p if team_of(s) != dealer_team else -p for s, p in r.failed_throws)
        if r.trick_points != won - penalty:
            self.fail(f"attackers' trick points {r.trick_points} != {won} - {penalty}")
        last = m.tricks[-1]
        expected = (
            kitty_multiplier(last.lead, r.trump, rules)
            if team_of(last.winner) != dealer_team
            else 0
        )
        if r.multiplier != expected or r.kitty_bonus != r.kitty_points * expected:
            self.fail(f"kitty multiplier {r.multiplier}, expected {expected}")
        if r.attacker_points != r.trick_points + r.kitty_bonus:
            self.fail("attacker points are not tricks + kitty bonus")
        winner, gained = level_outcome(r.attacker_points, rules)
        if (winner, gained) != (r.winner, r.levels_gained):
            self.fail(f"level outcome {(r.winner, r.levels_gained)}, RULES say {(winner, gained)}")
        up = dealer_team if winner == DEALER else 1 - dealer_team
        after = list(r.levels_before)
        after[up] = advance(after[up], gained)
        if tuple(after) != r.levels_after or list(r.levels_after) != m.levels:
            self.fail(f"levels {r.levels_before} -> {r.levels_after}, expected {tuple(after)}")
        if r.next_dealer != next_dealer(r.dealer, winner):
            self.fail(f"next dealer {r.next_dealer}, expected {next_dealer(r.dealer, winner)}")
        if any(m.hands):
            self.fail("cards left in hands after the last trick")


def run_soak(
    hands: int, seed: int = 1, progress: bool = False, hands_per_match: int | None = None
) -> SoakReport:
    """Play ``hands`` hands, rotating line-ups and rule variants match by match.

    ``hands_per_match`` cuts matches short so that a short run still meets every
    variant (the full soak plays every match to its end).
    """
    report = SoakReport()
    start = time.perf_counter()
    config = 0
    while report.hands < hands:
        # every line-up meets every variant over len(LINEUPS) * len(VARIANTS) matches
        variant = VARIANTS[config % len(VARIANTS)]
        lineup = LINEUPS[(config + config // len(VARIANTS)) % len(LINEUPS)]
        label = f"match {config}: {lineup} {variant or 'default'}"
        rules = DEFAULT_RULES.replace(**variant)
        players = [
            make_player(k, seed=f"{seed}/{config}/{s}", strict=True)
            for s, k in enumerate(lineup.split(","))
        ]
        match = Match.new(seed * 100_003 + config, rules)
        checks = Invariants(match, report, label)
        report.matches += 1
        report.configs[(lineup, tuple(sorted(variant.items())))] += 1
        config += 1

        def hook(m: Match, seat: int, action: Action, checks: Invariants = checks) -> None:
            checks.before(m, seat, action)
            checks.cards_accounted()

        while report.hands < hands:
            try:
                play_hand(match, players, on_action=hook)
            except Exception as error:  # a soak reports every failure, it does not stop
                checks.fail(f"{type(error).__name__}: {error}")
                break
            checks.cards_accounted()
            checks.hand_scored()
            report.hands += 1
            if progress and report.hands % 500 == 0:
                print(f"  {report.hands} hands, {len(report.failures)} failures", flush=True)
            if match.phase == Phase.OVER or (
                hands_per_match is not None and match.hand_no + 1 >= hands_per_match
            ):
                break
            match.apply(SYSTEM, NextHand())
            checks.cards_accounted()
    report.seconds = time.perf_counter() - start
    return report
