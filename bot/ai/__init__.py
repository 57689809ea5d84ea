"""Computer players for 双升: one interface for every decision, fed only a seat's view.

``bot.ai`` imports only ``bot.rules`` and ``bot.game``: no Discord, no I/O, no
asyncio. Players decide from a ``SeatView`` and never see the ``Match``, so hidden
cards stay hidden.

* ``Player``: the protocol, ``act(view) -> Action | None`` (None: no bid now).
* ``HeuristicPlayer`` (``ai``): card memory, voids, boss tests, projected-length
  bidding, void-making burial, expected-value leads and follows, kitty care, and
  sampled play-outs of the last three cards.
* ``ExpertPlayer`` (``expert``): the heuristic's candidates judged by sampled
  play-outs of the rest of the hand, ``think_ms`` per decision.
* ``GreedyPlayer`` and ``RandomPlayer``: the baselines.
* Levels (``LEVELS``): ``easy`` (greedy), ``normal`` (heuristic), ``expert``.
* ``suggest(view)``: the heuristic's play or burial, for hints, timeouts
  (``Match.timeout(seat, suggest)``) and 托管 (``suggest_cards``: just its cards);
  ``suggest_bid(view)`` for bids.
* ``make_player(kind, seed, think_ms=)`` (``levels``) and ``play_hand``: build
  players by level or name and drive a table of computer players (simulations, arenas, soak tests).
"""

from .baselines import GreedyPlayer, RandomPlayer
from .expert import ExpertPlayer
from .heuristic import HeuristicPlayer, suggest, suggest_bid, suggest_cards
from .levels import KINDS, LEVELS, level_of, make_player
from .memory import Memory
from .player import Player, check_action, is_legal, legal_or_fallback
from .table import HandStats, play_hand

__all__ = [
    "KINDS",
    "LEVELS",
    "ExpertPlayer",
    "GreedyPlayer",
    "HandStats",
    "HeuristicPlayer",
    "Memory",
    "Player",
    "RandomPlayer",
    "check_action",
    "is_legal",
    "legal_or_fallback",
    "level_of",
    "make_player",
    "play_hand",
    "suggest",
    "suggest_bid",
    "suggest_cards",
]
