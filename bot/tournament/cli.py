"""``python -m bot tournament``: a whole tournament among computer players, in the terminal.

So the bracket can be tried without Discord. Every match is a table of four computer
players with the tournament's rules; the round's clock is counted in hands
(``--round-hands``, default 8, about an hour and a half of human play): after that
many hands no new hand starts, and the match's winner follows the bracket's rule.
Each match's deals come from the tournament seed, so a run can be repeated exactly.
With ``--json`` the last line is one JSON object: ``rounds``, ``matches`` (matches
played, byes not counted), ``podium`` (team names, best first), and ``standings``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections.abc import Callable
from typing import Any

from bot.ai import KINDS, level_of, make_player, play_hand
from bot.cli.common import language
from bot.game import SYSTEM, Match, NextHand
from bot.i18n import t
from bot.i18n.rules import join
from bot.presets import presets
from bot.rules import RuleSet

from .bracket import Entrant, Game, Round, Tournament
from .tally import Tally

DEFAULT_ROUND_HANDS = 8


def match_seed(seed: str, round_no: int, index: int) -> int:
    """A match's deal seed, derived from the tournament's (re-checkable like the draw)."""
    digest = hashlib.sha256(f"{seed}/{round_no}/{index}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


def play_match(seed: int, rules: RuleSet, hands: int, kind: str = "ai") -> Tally:
    """Four computer players play until a team wins outright or ``hands`` hands are done."""
    match = Match.new(seed, rules)
    players = [make_player(kind, seed=f"{seed}/{seat}") for seat in range(4)]
    tally = Tally()
    while True:
        tally.add(play_hand(match, players).result, rules.points_cap)
        if tally.outright is not None or tally.hands >= hands:
            return tally
        match.apply(SYSTEM, NextHand())


def play_tournament(
    teams: int,
    seed: str,
    *,
    rules: RuleSet,
    round_hands: int = DEFAULT_ROUND_HANDS,
    advance: int = 8,
    podium: int = 3,
    kind: str = "ai",
    on_round: Callable[[Tournament, Round], None] | None = None,
    locale: str = "en-US",
) -> Tournament:
    """Play a tournament of ``teams`` computer teams to its podium (named in ``locale``)."""
    entrants = [Entrant(t(locale, "cli-cup-team", n=i + 1), computer=True) for i in range(teams)]
    tournament = Tournament(entrants, seed, advance=advance, podium_size=podium)
    round_: Round | None = tournament.start()
    while round_ is not None:
        for game in round_.games:
            if game.outcome is None:
                deals = match_seed(seed, round_.number, game.index)
                tally = play_match(deals, rules, round_hands, kind)
                tournament.record(round_.number, game.index, tally.outcome())
        if on_round is not None:
            on_round(tournament, round_)
        round_ = tournament.close_round()
    return tournament


def describe_game(tournament: Tournament, game: Game, locale: str = "en-US") -> str:
    names = [tournament.entrants[team].name for team in game.teams]
    if game.bye:
        return t(locale, "cli-cup-bye", team=names[0])
    assert game.outcome is not None and game.winner is not None
    win = game.teams.index(game.winner)
    scores = game.outcome.scores
    line = t(
        locale,
        "cli-cup-outright" if scores[win].outright else "cli-cup-beat",
        winner=names[win],
        won=scores[win].level,
        loser=names[1 - win],
        lost=scores[1 - win].level,
        hands=game.outcome.hands,
    )
    return line + (f" [{'; '.join(game.outcome.flags)}]" if game.outcome.flags else "")


def standings(tournament: Tournament) -> dict[str, Any]:
    """The bracket as JSON-ready data (the CLI's --json line, also handy for tests)."""
    name = [e.name for e in tournament.entrants]
    rounds = []
    for round_ in tournament.rounds:
        ranking = tournament.ranking(round_) if round_.done else []
        rounds.append(
            {
                "round": round_.number,
                "matches": [
                    {
                        "teams": [name[t] for t in g.teams],
                        "winner": name[g.winner] if g.winner is not None else None,
                        "levels": [s.level for s in g.outcome.scores] if g.outcome else None,
                        "hands": g.outcome.hands if g.outcome else 0,
                        "flags": list(g.outcome.flags) if g.outcome else [],
                    }
                    for g in round_.games
                ],
                "ranking": [name[t] for t in ranking],
            }
        )
    return {
        "seed": tournament.seed,
        "draw": [name[t] for t in tournament.order],
        "rounds": rounds,
        "podium": [name[t] for t in tournament.podium or []],
    }


def _players_word(locale: str, kind: str) -> str:
    """The computer players' level as the slash command names it (``ai`` is normal)."""
    level = level_of(kind)
    return t(locale, "cli-cup-random" if level == "random" else f"cmd-choice-{level}")


def cmd_tournament(args: argparse.Namespace) -> int:
    if args.teams < 2:
        raise SystemExit("--teams must be at least 2")
    if args.round_hands < 1:
        raise SystemExit("--round-hands must be at least 1")
    rules = presets()[args.preset][0]
    loc = args.lang

    def show_round(tournament: Tournament, round_: Round) -> None:
        rounds, matches = tournament.total_rounds, len(round_.games)
        print(t(loc, "cli-cup-round", round=round_.number, rounds=rounds, matches=matches))
        for game in round_.games:
            print(f"  {game.index + 1:2d}. {describe_game(tournament, game, loc)}")
        if round_.number < rounds:  # the last round's winners make the podium, below
            kept = tournament.advancing(round_)
            teams = join(loc, [tournament.entrants[team].name for team in kept])
            print("  " + t(loc, "cli-cup-advancing", teams=teams))

    print(
        t(
            loc,
            "cli-cup-title",
            teams=args.teams,
            players=_players_word(loc, args.players),
            seed=args.seed,
            preset=t(loc, f"cmd-choice-{args.preset}"),
            hands=args.round_hands,
            advance=args.advance,
            podium=args.podium,
        )
    )
    tournament = play_tournament(
        args.teams,
        args.seed,
        rules=rules,
        round_hands=args.round_hands,
        advance=args.advance,
        podium=args.podium,
        kind=args.players,
        on_round=show_round,
        locale=loc,
    )
    podium = [tournament.entrants[team].name for team in tournament.podium or []]
    places = join(loc, [f"{i}. {name}" for i, name in enumerate(podium, start=1)])
    print(t(loc, "cli-cup-podium", teams=places))
    if args.json:
        played = sum(not g.bye for r in tournament.rounds for g in r.games)
        report = {"rounds": len(tournament.rounds), "matches": played, "podium": podium}
        print(json.dumps({**report, "standings": standings(tournament)}, ensure_ascii=False))
    return 0


def register(subparsers: Any) -> None:
    """Add the ``tournament`` command to ``python -m bot``'s subcommands."""
    cmd = subparsers.add_parser(
        "tournament",
        help="play a tournament among computer players, print the standings",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    cmd.add_argument("--teams", type=int, default=16)
    cmd.add_argument("--seed", default="1", help="the draw's and the deals' seed")
    cmd.add_argument("--round-hands", type=int, default=DEFAULT_ROUND_HANDS)
    cmd.add_argument("--advance", type=int, default=8, help="match winners going on")
    cmd.add_argument("--podium", type=int, default=3)
    cmd.add_argument("--preset", default="tournament", choices=sorted(presets()))
    cmd.add_argument("--players", default="ai", choices=KINDS, help="computer player kind")
    cmd.add_argument("--json", action="store_true", help="end with one JSON line")
    cmd.add_argument("--lang", default="en", type=language, help="language: en or zh (中文)")
    cmd.set_defaults(func=cmd_tournament)
