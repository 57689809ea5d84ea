"""Computer players for 双升: one interface for every decision, fed only a seat's view.

``bot.ai`` imports only ``bot.rules`` and ``bot.game``: no Discord, no I/O, no
asyncio. Players decide from a ``SeatView`` and never see the ``Match``, so hidden
cards stay hidden.

* ``Player``: the protocol, ``act(view) -> Action | None`` (None: no bid now).
* ``HeuristicPlayer`` (``ai``): card memory, voids, boss tests, projected-length
  bidding, void-making burial, expected-value leads and follows, kitty care, and
  sampled play-outs of the last three cards.
* ``GreedyPlayer`` and ``RandomPlayer``: the baselines.
* ``suggest(view)``: the heuristic's play or burial, for hints, timeouts
  (``Match.timeout(seat, suggest)``) and 托管; ``suggest_bid(view)`` for bids.
* ``make_player(kind, seed)`` and ``play_hand`` / ``run_deal``: build players by
  name and drive a table of computer players (simulations, arenas, soak tests).
"""

from .baselines import GreedyPlayer, RandomPlayer
from .heuristic import HeuristicPlayer, suggest, suggest_bid
from .memory import Memory
from .player import Player, check_action, is_legal, legal_or_fallback
from .table import KINDS, HandStats, make_player, play_hand

__all__ = [
    "KINDS",
    "GreedyPlayer",
    "HandStats",
    "HeuristicPlayer",
    "Memory",
    "Player",
    "RandomPlayer",
    "check_action",
    "is_legal",
    "legal_or_fallback",
    "make_player",
    "play_hand",
    "suggest",
    "suggest_bid",
]
