"""One table's match as a state machine: actions in, events out (see ``match``).

``events`` holds the typed events ``Match.apply`` returns and ``codec`` the one
JSON form of actions, events, results and the match state.
"""

from bot.rules import MAX_REDEALS, team_of

from . import codec
from .actions import (
    SYSTEM,
    Action,
    Bury,
    Deal,
    Declare,
    EndBidding,
    NextHand,
    Pass,
    Play,
    bury,
    declare,
    play,
)
from .codec import action_from_dict, action_to_dict, event_from_dict, event_to_dict
from .events import (
    BidMade,
    Buried,
    DealProgress,
    Dealt,
    Event,
    HandScored,
    HandStarted,
    KittyBuried,
    KittyDrawn,
    KittyTaken,
    MatchOver,
    MatchStarted,
    OvercallRound,
    Passed,
    Played,
    Redeal,
    RoundOver,
    ThrowFailed,
    TrickWon,
    TrumpSet,
)
from .legal import GameError, NotYourTurn, check_action, is_legal, play_options
from .match import Decide, Match, fallback_action, replay
from .phase import Phase
from .views import HandResult, SeatView, TrickRecord

__all__ = [
    "MAX_REDEALS",
    "SYSTEM",
    "Action",
    "BidMade",
    "Buried",
    "Bury",
    "Deal",
    "DealProgress",
    "Dealt",
    "Decide",
    "Declare",
    "EndBidding",
    "Event",
    "GameError",
    "HandResult",
    "HandScored",
    "HandStarted",
    "KittyBuried",
    "KittyDrawn",
    "KittyTaken",
    "Match",
    "MatchOver",
    "MatchStarted",
    "NextHand",
    "NotYourTurn",
    "OvercallRound",
    "Pass",
    "Passed",
    "Phase",
    "Play",
    "Played",
    "Redeal",
    "RoundOver",
    "SeatView",
    "ThrowFailed",
    "TrickRecord",
    "TrickWon",
    "TrumpSet",
    "action_from_dict",
    "action_to_dict",
    "bury",
    "check_action",
    "codec",
    "declare",
    "event_from_dict",
    "event_to_dict",
    "fallback_action",
    "is_legal",
    "play",
    "play_options",
    "replay",
    "team_of",
]
