"""Tournaments on Discord: the ``/shengji tournament`` commands and their messages.

For now: a player's tournament results as shown by ``/shengji stats``.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.store.tournaments import TournamentResult

PLACES = {1: "🥇 1st", 2: "🥈 2nd", 3: "🥉 3rd"}


def place_text(place: int) -> str:
    if place in PLACES:
        return PLACES[place]
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def results_text(results: Sequence[TournamentResult]) -> str:
    """One line per tournament, newest first: where the player's team finished."""
    lines = []
    for r in results:
        if r.place is not None:
            how = place_text(r.place)
        elif r.eliminated_round is not None:
            how = f"out in round {r.eliminated_round}"
        elif r.status == "running":
            how = f"playing (round {r.rounds_played})"
        else:
            how = r.status
        lines.append(f"**{r.name}** · {r.team}: {how}")
    return "\n".join(lines)[:1024]
