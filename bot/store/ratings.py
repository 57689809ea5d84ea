"""Skill ratings for teams of two with openskill's Plackett-Luce model.

Why openskill: it rates *teams* (a partnership's result moves each partner by
their share of the team's uncertainty), it is maintained, MIT-licensed and pure
Python, and its (mu, sigma) pairs are plain floats that fit in two columns.

Computer players take part as a fixed rating (``BOT_MU``, ``BOT_SIGMA``) that is
never updated. Skipping bot seats instead would leave most matches (humans with
bots) unrated, and pretending a bot is a new unknown player would hand it most of
every update. A small sigma says "we know how strong the bot is", so the human
partner takes nearly all of the team's update, and beating bots counts for as
much as a bot's fixed strength says it should.
"""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
DEFAULT_MU: float = MODEL.mu
DEFAULT_SIGMA: float = MODEL.sigma
BOT_MU: float = DEFAULT_MU
BOT_SIGMA: float = 1.0

Rating = tuple[float, float]  # (mu, sigma)


def ordinal(mu: float, sigma: float) -> float:
    """The conservative skill estimate leaderboards sort by: mu - 3 sigma."""
    return mu - 3.0 * sigma


def rate_match(seats: Sequence[Rating | None], winner_team: int) -> dict[int, Rating]:
    """New ratings of the rated seats after a match between teams 0/2 and 1/3.

    ``seats`` holds each seat's (mu, sigma), or None for a computer player (who
    plays at the fixed bot rating). Returns {seat: (mu, sigma)} for rated seats only.
    """
    if winner_team not in (0, 1):
        raise ValueError(f"winner_team must be 0 or 1, not {winner_team!r}")
    players = [
        MODEL.rating(mu=BOT_MU, sigma=BOT_SIGMA) if r is None else MODEL.rating(mu=r[0], sigma=r[1])
        for r in seats
    ]
    teams = [[players[0], players[2]], [players[1], players[3]]]
    ranks: list[float] = [0, 1] if winner_team == 0 else [1, 0]
    new_teams = MODEL.rate(teams, ranks=ranks)
    new = [new_teams[0][0], new_teams[1][0], new_teams[0][1], new_teams[1][1]]
    return {
        seat: (float(new[seat].mu), float(new[seat].sigma))
        for seat, r in enumerate(seats)
        if r is not None
    }
