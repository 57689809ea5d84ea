"""Soak: many seeded hands among computer players, invariants checked throughout.

The driver of ``python3 -m bench.soak`` and of the slow tests; it lives here so
that benches and tests both import it from the code and never from each other.

Matches rotate through player line-ups (heuristic, greedy, random, mixed, and
experts searching a fixed number of samples) and rule variants (1 and 3 decks,
joker bidding, redeals, fixed 2s, no trump chains, suit-only following, other
kitty multipliers, points cap, reach-A finish, throw penalties, and seed 000's:
the final bidder dealing, overcalls after the bury, the kitty draw, the linear
kitty, the race to 45, the tournament preset). Checked:

* every card is accounted for after every action (hands, undealt stock, kitty,
  tricks): 108 with two decks;
* every player action was legal, re-checked against the real hand *before* it was
  applied, by the one legality check (``bot.game.legal.check_action``);
* each hand's point cards sum to the deck's total across tricks and kitty, and
  each trick's recorded points match its cards; the attackers' trick points are
  their tricks minus/plus the throw penalties;
* levels move only as RULES.md says: ``hand_outcome`` of the final attacking
  points (and the last trick, for the race), gains stop at A, the next dealer
  follows ``next_dealer``, the kitty multiplier is ``kitty_multiplier`` of the
  last lead when the attackers take it;
* an overcall round after the bury hears each seat once, from the dealer's next
  seat round to the dealer, and never shows a trump twice; a kitty draw turns up
  the kitty's first cards and decides as ``kitty_draw`` says.

``SoakReport.paths`` counts the overcall rounds (and the overcalls in them), the
kitty draws and the race draws, so a run shows that those paths were taken.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field

from bot.game import (
    SYSTEM,
    Action,
    BidMade,
    Event,
    HandScored,
    KittyDrawn,
    Match,
    NextHand,
    OvercallRound,
    Passed,
    Phase,
    Play,
    RoundOver,
    check_action,
)
from bot.rules import (
    DEALER,
    DEFAULT_RULES,
    DRAW,
    RulesError,
    advance,
    deck,
    hand_outcome,
    kitty_draw,
    kitty_multiplier,
    next_dealer,
    points,
    team_of,
)

from .expert import RACE_AFTER, ExpertPlayer
from .levels import level_of, make_player
from .player import Player
from .table import play_hand

LINEUPS = (
    "ai,ai,ai,ai",
    "ai,greedy,ai,greedy",
    "random,ai,random,ai",
    "ai,random,greedy,ai",
    "random,random,random,random",
    "greedy,greedy,greedy,greedy",
    "expert,random,ai,expert",
)
SOAK_WORLDS = RACE_AFTER + 1  # samples a decision for the soak's experts (they race), not a clock
VARIANTS: tuple[dict[str, object], ...] = (
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
    {"first_dealer": "final_bid", "kitty_multiplier": "linear"},
    {"no_bid": "kitty_draw"},
    {"overcall": "after_bury"},
    {"decks": 1, "scoring": "race45", "finish": "reach_a"},
    {"decks": 3, "kitty_multiplier": "linear", "bidding": "joker", "overcall": "after_bury"},
    # the tournament preset (seed 000)
    {
        "bidding": "joker",
        "overcall": "after_bury",
        "no_bid": "kitty_draw",
        "assistance": "none",
        "points_cap": 200,
    },
)
PATHS = ("overcall rounds", "round overcalls", "kitty draws", "draws redealt", "race draws")


@dataclass
class SoakReport:
    hands: int = 0
    matches: int = 0
    plays: int = 0
    seconds: float = 0.0
    failures: list[str] = field(default_factory=list)
    # (line-up, sorted variant items) -> matches played with it
    configs: Counter[tuple[str, tuple[tuple[str, object], ...]]] = field(default_factory=Counter)
    paths: Counter[str] = field(default_factory=Counter)  # how often each rare path ran

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
        seen: Counter[str] = Counter()
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
        attackers_last = team_of(last.winner) != dealer_team
        winner, gained = hand_outcome(r.attacker_points, attackers_last, rules)
        if (winner, gained) != (r.winner, r.levels_gained):
            self.fail(f"level outcome {(r.winner, r.levels_gained)}, RULES say {(winner, gained)}")
        up = dealer_team if winner == DEALER else 1 - dealer_team
        after = list(r.levels_before)
        if winner != DRAW:
            after[up] = advance(after[up], gained)
        if tuple(after) != r.levels_after or list(r.levels_after) != m.levels:
            self.fail(f"levels {r.levels_before} -> {r.levels_after}, expected {tuple(after)}")
        if r.next_dealer != next_dealer(r.dealer, winner):
            self.fail(f"next dealer {r.next_dealer}, expected {next_dealer(r.dealer, winner)}")
        if any(m.hands):
            self.fail("cards left in hands after the last trick")


class Paths:
    """Follows the events of one match: counts the rare paths and checks their order."""

    def __init__(self, checks: Invariants) -> None:
        self.checks = checks
        self.round: list[int] | None = None  # seats heard in the running overcall round
        self.before = 0  # bids made before the round

    def __call__(self, match: Match, events: list[Event]) -> None:
        paths = self.checks.report.paths
        for event in events:
            match event:
                case OvercallRound(first=first):
                    paths["overcall rounds"] += 1
                    assert match.dealer is not None
                    if first != (match.dealer + 1) % 4:
                        self.checks.fail(f"overcall round starts at {first}")
                    self.round = []
                    self.before = len(match.bids)
                case BidMade(seat=seat) | Passed(seat=seat) if self.round is not None:
                    if isinstance(event, BidMade):
                        paths["round overcalls"] += 1
                    self.round.append(seat)
                case RoundOver(dealer=dealer):
                    self._round_over(match, dealer)
                case KittyDrawn(cards=cards, dealer=dealer, suit=suit):
                    paths["kitty draws" if dealer is not None else "draws redealt"] += 1
                    # a redeal has already replaced the hand and its kitty: check a decision
                    levels = (match.levels[0], match.levels[1])
                    expected = kitty_draw(match.kitty, levels, match.deal_start)
                    if dealer is not None and expected != (cards, dealer, suit):
                        self.checks.fail(f"kitty draw {cards} -> {dealer}, expected {expected}")
                case HandScored(result=result) if result.winner == DRAW:
                    paths["race draws"] += 1
                case _:
                    pass

    def _round_over(self, match: Match, dealer: int) -> None:
        want = [(dealer + i) % 4 for i in (1, 2, 3, 4)]
        if self.round != want:
            self.checks.fail(f"overcall round heard {self.round}, not {want}")
        # 000:43 其他花色不可重复反牌: a suit once a hand; no trump (None) may be shown again
        shown = {b.suit for b in match.bids[: self.before]} - {None}
        suits = [b.suit for b in match.bids[self.before :] if b.suit is not None]
        if len(set(suits)) != len(suits) or shown & set(suits):
            self.checks.fail(f"a suit shown twice: {shown} then {suits}")
        self.round = None


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
        players = [_player(k, f"{seed}/{config}/{s}") for s, k in enumerate(lineup.split(","))]
        match = Match.new(seed * 100_003 + config, rules)
        checks = Invariants(match, report, label)
        report.matches += 1
        report.configs[(lineup, tuple(sorted(variant.items())))] += 1
        config += 1

        paths = Paths(checks)

        def hook(m: Match, seat: int, action: Action, checks: Invariants = checks) -> None:
            checks.before(m, seat, action)
            checks.cards_accounted()

        while report.hands < hands:
            try:
                play_hand(match, players, on_action=hook, on_events=paths)
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


def _player(kind: str, seed: str) -> Player:
    """A soak player; experts search a fixed number of samples, so a failure replays
    the same on any machine."""
    if level_of(kind) == "expert":
        return ExpertPlayer(60_000, worlds=SOAK_WORLDS, strict=True)
    return make_player(kind, seed=seed, strict=True)
