"""Computer players by name: three levels to choose from, and the random baseline.

Players of a Discord game bot pick a difficulty, not an algorithm, so the names
people see are levels:

* ``easy``: the greedy player (grabs tricks, remembers nothing);
* ``normal``: the heuristic player (card memory, expected-value leads and follows);
* ``expert``: the heuristic's candidates judged by sampled play-outs (``expert``),
  ``think_ms`` per decision (250 ms by default, as at a table).

The algorithm names stay accepted everywhere a level is (``greedy``, ``ai`` and
``heuristic``), and ``random`` (not a level: a load generator and a floor) too.
"""

from __future__ import annotations

from .baselines import GreedyPlayer, RandomPlayer
from .expert import THINK_MS, ExpertPlayer
from .heuristic import HeuristicPlayer
from .player import Player

LEVELS = ("easy", "normal", "expert")
KINDS = (*LEVELS, "ai", "heuristic", "greedy", "random")
_CANONICAL = {
    "easy": "easy",
    "greedy": "easy",
    "normal": "normal",
    "ai": "normal",
    "heuristic": "normal",
    "expert": "expert",
    "random": "random",
}


def level_of(kind: str) -> str:
    """The canonical name of a player kind: a level, or ``random``; ValueError if unknown."""
    name = _CANONICAL.get(kind.strip().lower())
    if name is None:
        raise ValueError(f"unknown player {kind!r}: use one of {', '.join(KINDS)}")
    return name


def make_player(
    kind: str, seed: int | str = 0, *, strict: bool = False, think_ms: float | None = None
) -> Player:
    """A computer player by level (``easy``, ``normal``, ``expert``) or kind name.

    ``seed`` seeds the random player; ``strict`` makes the heuristic and the expert
    raise instead of falling back if they ever propose an illegal move (tests);
    ``think_ms`` is the expert's time per decision.
    """
    level = level_of(kind)
    if level == "normal":
        return HeuristicPlayer(strict=strict)
    if level == "expert":
        return ExpertPlayer(THINK_MS if think_ms is None else think_ms, strict=strict)
    if level == "easy":
        return GreedyPlayer()
    return RandomPlayer(seed)
