"""Tournaments run by the bot (seed 000, 晋级规则): bracket, match tallies, round clocks.

``bracket``, ``tally`` and ``clock`` are pure (``bot.rules`` and ``bot.game`` only, no
I/O); ``cli`` plays a tournament among computer players in the terminal.
"""

from .bracket import (
    BYE,
    BracketError,
    Entrant,
    Game,
    Outcome,
    Round,
    TeamScore,
    Tournament,
    draw,
    match_winner,
    pair,
    plan,
)
from .clock import ClockError, RoundClock
from .tally import Tally

__all__ = [
    "BYE",
    "BracketError",
    "ClockError",
    "Entrant",
    "Game",
    "Outcome",
    "Round",
    "RoundClock",
    "Tally",
    "TeamScore",
    "Tournament",
    "draw",
    "match_winner",
    "pair",
    "plan",
]
