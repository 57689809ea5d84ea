"""The phases of a hand, as stored in snapshots and views."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal


class Phase(StrEnum):
    """Where a hand stands. The values are the strings stored since version 1.

    ``deal`` (cards go out; anyone may bid) → ``kitty`` (the dealer buries) →
    [``overcall``: with ``overcall="after_bury"``, each player once in turn may
    overcall] → ``play`` → ``scored`` (the summary is up) … ``over`` (the match has
    ended).
    """

    DEAL = "deal"
    KITTY = "kitty"
    OVERCALL = "overcall"
    PLAY = "play"
    SCORED = "scored"
    OVER = "over"


# The phases as module constants: an Enum class attribute costs several times a global
# lookup, and these checks run for every view and every play (the simulations' hot path).
DEAL, KITTY, OVERCALL, PLAY, SCORED, OVER = (
    Phase.DEAL,
    Phase.KITTY,
    Phase.OVERCALL,
    Phase.PLAY,
    Phase.SCORED,
    Phase.OVER,
)

#: what a match waits for (``Match.expecting``): a system step, or a seat's decision
Expecting = Literal["deal", "end_bidding", "bury", "overcall", "play", "next_hand"]
#: a seat's decision (``driver.Turn``, ``SeatView.expecting`` when it is a seat's turn)
TurnKind = Literal["bury", "overcall", "play"]
