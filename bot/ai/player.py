"""The one interface every computer player implements, and the safety net around it.

A player answers every decision through ``act(view)``: during the deal it returns a
``Declare`` or None (no bid now), for the kitty a ``Bury``, in play a ``Play``.
Players see only a ``SeatView``. ``legal_or_fallback`` re-checks a proposed play
or burial against the rules and replaces anything illegal with the engine's safe
``fallback_action``, so a bug in a heuristic can never stall or corrupt a table.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from bot.game import Action, Bury, Declare, Play, SeatView, fallback_action
from bot.rules import RulesError, check_follow, contains, decompose, possible_bids


@runtime_checkable
class Player(Protocol):
    """A computer player: one method for bids, the kitty, leads and follows."""

    name: str

    def act(self, view: SeatView) -> Action | None:
        """The action for this seat now; None during the deal means "no bid now"."""
        ...


def is_legal(view: SeatView, action: Action) -> bool:
    """Whether ``action`` is legal for ``view.seat`` now (checked from the view alone)."""
    try:
        check_action(view, action)
    except (RulesError, AssertionError):
        return False
    return True


def check_action(view: SeatView, action: Action) -> None:
    """Raise ``RulesError`` (or ``AssertionError``) unless ``action`` is legal now."""
    assert view.seat is not None
    if view.expecting in ("deal", "end_bidding"):
        assert isinstance(action, Declare)
        legal = possible_bids(view.hand, view.seat, view.level, view.current_bid, view.rules)
        assert any(b.cards == action.cards for b in legal), "not a legal bid now"
        return
    if view.expecting == "bury":
        assert isinstance(action, Bury) and view.to_act == view.seat
        assert len(action.cards) == view.rules.kitty_size
        assert contains(view.hand, action.cards), "buries cards not in hand"
        return
    assert view.expecting == "play" and view.to_act == view.seat
    assert isinstance(action, Play) and view.trump is not None
    if view.lead is None:
        assert action.cards and contains(view.hand, action.cards), "leads cards not in hand"
        decompose(action.cards, view.trump, view.rules)  # one suit, else IllegalPlay
    else:
        check_follow(view.hand, view.lead, action.cards, view.trump, view.rules)


def legal_or_fallback(view: SeatView, action: Action | None) -> Action | None:
    """``action`` if it is legal now, else the safe fallback (None for a bad bid)."""
    if action is None:
        return None
    if is_legal(view, action):
        return action
    if view.expecting in ("bury", "play"):
        return fallback_action(view)
    return None
