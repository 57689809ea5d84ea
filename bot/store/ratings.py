"""Skill ratings for teams of two with openskill's Plackett-Luce model.

Why openskill: it rates *teams* (a partnership's result moves each partner by
their share of the team's uncertainty), it is maintained, MIT-licensed and pure
Python, and its (mu, sigma) pairs are plain floats that fit in two columns.

Computer players take part as a fixed rating that is never updated, one per level
(``BOT_RATINGS``: easy, normal, expert; ``BOT_MU`` is the normal level's).
Skipping bot seats instead would leave most matches (humans with bots)
unrated, and pretending a bot is a new unknown player would hand it most of
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

# Calibrated from the arena (README, "Computer players"): a team of two at a
# rating this much above another wins a match with the probability measured
# between the levels. normal won all 29 matches against easy in 400 simulated
# hands (about 97%: +6); expert at 250 ms (the table default) gained 0.07 levels a
# hand over normal when matches were measured at about 55% (+0.4); it now gains 0.20
# (2 Dec, 300 duplicate deals: 0.403 a deal of two hands), carried over in proportion:
# about 64% of matches, +1.15. random is a floor, far below easy.
BOT_RATINGS: dict[str, Rating] = {
    "random": (DEFAULT_MU - 12.0, BOT_SIGMA),
    "easy": (DEFAULT_MU - 6.0, BOT_SIGMA),
    "normal": (BOT_MU, BOT_SIGMA),
    "expert": (DEFAULT_MU + 1.15, BOT_SIGMA),
}
# the computer players' other names (bot.ai.levels); the store cannot import bot.ai
_LEVEL_NAMES = {"greedy": "easy", "ai": "normal", "heuristic": "normal"}


def bot_rating(level: str | None) -> Rating:
    """The fixed rating of a computer player by level or kind (unknown: normal)."""
    name = (level or "normal").strip().lower()
    return BOT_RATINGS.get(_LEVEL_NAMES.get(name, name), BOT_RATINGS["normal"])


def ordinal(mu: float, sigma: float) -> float:
    """The conservative skill estimate leaderboards sort by: mu - 3 sigma."""
    return mu - 3.0 * sigma


def rate_match(seats: Sequence[Rating | str | None], winner_team: int) -> dict[int, Rating]:
    """New ratings of the rated seats after a match between teams 0/2 and 1/3.

    ``seats`` holds each seat's (mu, sigma), or for a computer player its level
    (``bot_rating``; None: normal), who plays at that fixed rating. Returns
    {seat: (mu, sigma)} for rated seats only.
    """
    if winner_team not in (0, 1):
        raise ValueError(f"winner_team must be 0 or 1, not {winner_team!r}")
    fixed = [r if isinstance(r, tuple) else bot_rating(r) for r in seats]
    players = [MODEL.rating(mu=mu, sigma=sigma) for mu, sigma in fixed]
    teams = [[players[0], players[2]], [players[1], players[3]]]
    ranks: list[float] = [0, 1] if winner_team == 0 else [1, 0]
    new_teams = MODEL.rate(teams, ranks=ranks)
    new = [new_teams[0][0], new_teams[1][0], new_teams[0][1], new_teams[1][1]]
    return {
        seat: (float(new[seat].mu), float(new[seat].sigma))
        for seat, r in enumerate(seats)
        if isinstance(r, tuple)
    }
