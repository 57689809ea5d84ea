"""A tournament as the store's record rows (the service saves these with its state)."""

from __future__ import annotations

from collections.abc import Mapping

from bot.store.tournaments import EntrantRow, MatchRow, RoundRow, TournamentRows

from .bracket import Tournament
from .cup import Cup, game_of


def _user_id(member: str) -> int | None:
    return int(member) if member.isdigit() else None


def tournament_rows(
    tournament: Tournament,
    tables: Mapping[tuple[int, int], int] | None = None,
    times: Mapping[int, tuple[float | None, float | None]] | None = None,
) -> TournamentRows:
    """``tables[(round, match index)]`` is a match's table id; ``times[round]`` its span.

    Members are Discord user ids as text; anything else (a computer team) has none.
    """
    tables = tables or {}
    times = times or {}
    podium = tournament.podium or []
    entrants = []
    for no, entrant in enumerate(tournament.entrants):
        ids = [_user_id(m) for m in entrant.members[:2]] + [None, None]
        entrants.append(
            EntrantRow(
                no,
                entrant.name,
                entrant.computer,
                (ids[0], ids[1]),
                podium.index(no) + 1 if no in podium else None,
                tournament.eliminated_in(no),
            )
        )
    rounds = [RoundRow(r.number, *times.get(r.number, (None, None))) for r in tournament.rounds]
    matches = []
    for round_ in tournament.rounds:
        for game in round_.games:
            scores = game.outcome.scores if game.outcome else ()
            levels = [s.level for s in scores] + [None, None]
            matches.append(
                MatchRow(
                    round_.number,
                    game.index,
                    (game.teams[0], game.teams[1] if len(game.teams) > 1 else None),
                    tables.get((round_.number, game.index)),
                    game.winner,
                    (levels[0], levels[1]),
                    game.outcome.hands if game.outcome else 0,
                    game.outcome.flags if game.outcome else (),
                )
            )
    return TournamentRows(entrants, rounds, matches)


def cup_rows(cup: Cup) -> TournamentRows:
    """The rows saved with ``cup``: the bracket's once drawn, else the teams registered."""
    if cup.bracket is not None:
        tables = {game_of(key): slot.table_id for key, slot in cup.slots.items()}
        times = {k: (v[0], v[1]) for k, v in cup.times.items()}
        return tournament_rows(cup.bracket, tables, times)
    return TournamentRows(
        [
            EntrantRow(
                i,
                t.name,
                t.computer,
                (t.members[0] if t.members else None, t.members[1] if t.members else None),
            )
            for i, t in enumerate(cup.teams)
        ]
    )
