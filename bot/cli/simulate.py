"""``python -m bot simulate``: many hands among computer players, results and speed.

Without ``--db`` the hands run in memory through ``bot.ai.play_hand`` (timed: the
play-phase figure is the engine's speed). With ``--db`` the store's own simulator
(``bot.store.simulate_into``) plays them, with the same players and the same table
procedure, and records every action, hand and match end as the bot would.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot.ai import level_of, make_player, play_hand
from bot.game import SYSTEM, HandResult, Match, NextHand, Phase, team_of
from bot.rules import RuleSet
from bot.store import SeatInfo, simulate_into

from .common import add_rules, parse_rules


def simulate(
    kinds: Sequence[str], hands: int, seed: int, rules: RuleSet, db: str | Path | None = None
) -> dict[str, Any]:
    """Play ``hands`` hands among computer players; totals per team and timings.

    With ``db``, every hand and match is also recorded in that database file (the
    play-phase timing is then not measured: the database writes are part of it).
    """
    players = [make_player(k, seed=f"{seed}/{s}") for s, k in enumerate(kinds)]
    play_seconds: float | None = None  # None: not measured
    deal_seconds: float | None = None
    results: list[HandResult] = []
    start = time.perf_counter()
    if db is not None:
        seats = [SeatInfo("human", 1 + i, f"{k} {i}", k, True) for i, k in enumerate(kinds)]
        deciders = [player.act for player in players]
        out = simulate_into(db, hands, seed, seats, rules=rules, deciders=deciders)
        results, matches = out.results, len(out.tables)
    else:
        play_seconds = deal_seconds = 0.0
        match = Match.new(seed, rules)
        matches = 1
        for i in range(hands):
            stats = play_hand(match, players)
            play_seconds += stats.play_seconds
            deal_seconds += stats.deal_seconds
            results.append(stats.result)
            if i + 1 == hands:
                break
            if match.phase is Phase.OVER:
                match = Match.new(seed + matches, rules)
                matches += 1
            else:
                match.apply(SYSTEM, NextHand())
    seconds = time.perf_counter() - start
    return {
        "hands": hands,
        "players": list(kinds),
        "seed": seed,
        "rules": rules.to_dict(),
        "matches_started": matches,
        "seconds": round(seconds, 4),
        "hands_per_second": round(hands / seconds, 2) if seconds else None,
        "play_phase_seconds": _round(play_seconds),
        "play_phase_hands_per_second": round(hands / play_seconds, 2) if play_seconds else None,
        "deal_phase_seconds": _round(deal_seconds),
        "teams": team_totals(kinds, results),
    }


def _round(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds, 4)


def team_totals(kinds: Sequence[str], results: Sequence[HandResult]) -> list[dict[str, Any]]:
    """Per team (seats 0 & 2, 1 & 3): hands dealt and held, attacking points, levels, wins."""
    teams: list[dict[str, Any]] = [
        {
            "seats": [t, t + 2],
            "players": [kinds[t], kinds[t + 2]],
            "hands_dealing": 0,
            "hands_held": 0,
            "hands_attacking": 0,
            "attacking_points": 0,
            "levels_gained": 0,
            "matches_won": 0,
        }
        for t in (0, 1)
    ]
    for result in results:
        dealer_team = team_of(result.dealer)
        teams[dealer_team]["hands_dealing"] += 1
        teams[1 - dealer_team]["hands_attacking"] += 1
        teams[1 - dealer_team]["attacking_points"] += result.attacker_points
        if result.winner == "dealer":
            teams[dealer_team]["hands_held"] += 1
            teams[dealer_team]["levels_gained"] += result.levels_gained
        else:
            teams[1 - dealer_team]["levels_gained"] += result.levels_gained
        if result.match_winner is not None:
            teams[result.match_winner]["matches_won"] += 1
    for team in teams:
        n = team["hands_attacking"]
        team["mean_attacking_points"] = round(team["attacking_points"] / n, 2) if n else None
    return teams


def cmd_simulate(args: argparse.Namespace) -> int:
    kinds = [k.strip() for k in args.players.split(",")]
    if len(kinds) != 4:
        raise SystemExit("--players needs four comma-separated players, seat 0 first")
    for kind in kinds:  # a typo fails at once, in a sentence
        try:
            level_of(kind)
        except ValueError as err:
            raise SystemExit(f"--players: {err}") from None
    rules = parse_rules(args.decks, args.rule)
    report = simulate(kinds, args.hands, args.seed, rules, args.db)
    print(f"{report['hands']} hands, players {','.join(kinds)} (seats 0-3), seed {args.seed}")
    for t, team in enumerate(report["teams"]):
        print(
            f"  team {t} (seats {team['seats'][0]},{team['seats'][1]}: "
            f"{'/'.join(team['players'])}): dealt {team['hands_dealing']}, "
            f"held {team['hands_held']}, mean attacking points "
            f"{team['mean_attacking_points']}, levels gained {team['levels_gained']}, "
            f"matches won {team['matches_won']}"
        )
    speed = f"  {report['seconds']:.2f} s: {report['hands_per_second']} hands/s overall"
    if report["play_phase_hands_per_second"] is not None:
        speed += f", {report['play_phase_hands_per_second']} hands/s in the play phase"
    print(speed)
    if args.db is not None:
        print(f"  recorded {report['hands']} hands in {args.db}")
    if args.json:
        print(json.dumps(report, sort_keys=True))
    return 0


def register(sub: Any) -> None:
    sim = sub.add_parser("simulate", help="play hands among computer players, print results")
    sim.add_argument("--hands", type=int, default=100)
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument(
        "--players",
        default="ai,ai,ai,ai",
        help="four of easy, normal, expert (or greedy, ai, random), seat 0 first",
    )
    sim.add_argument("--json", action="store_true", help="end with one JSON line of results")
    sim.add_argument(
        "--db", default=None, help="also record the hands in this database (file or URL)"
    )
    add_rules(sim)
    sim.set_defaults(func=cmd_simulate)
