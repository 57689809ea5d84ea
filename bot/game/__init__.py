"""One table's match as a state machine: actions in, events out (see ``match``)."""

from .actions import (
    SYSTEM,
    Action,
    Bury,
    Deal,
    Declare,
    EndBidding,
    NextHand,
    Play,
    action_from_dict,
    action_to_dict,
    bury,
    declare,
    play,
)
from .match import (
    MAX_REDEALS,
    Decide,
    GameError,
    Match,
    NotYourTurn,
    fallback_action,
    replay,
    team_of,
)
from .phase import Phase
from .views import Event, HandResult, SeatView, TrickRecord

__all__ = [
    "MAX_REDEALS",
    "SYSTEM",
    "Action",
    "Bury",
    "Deal",
    "Decide",
    "Declare",
    "EndBidding",
    "Event",
    "GameError",
    "HandResult",
    "Match",
    "NextHand",
    "NotYourTurn",
    "Phase",
    "Play",
    "SeatView",
    "TrickRecord",
    "action_from_dict",
    "action_to_dict",
    "bury",
    "declare",
    "fallback_action",
    "play",
    "replay",
    "team_of",
]
