"""The one interface every computer player implements, and the safety net around it.

A player answers every decision through ``act(view)``: during the deal it returns a
``Declare`` or None (no bid now), for the kitty a ``Bury``, in play a ``Play``.
Players see only a ``SeatView``. ``legal_or_fallback`` re-checks a proposed play
or burial with the one legality check (``bot.game.legal``, shared with the match,
the panels and autocomplete) and replaces anything illegal with the engine's safe
``fallback_action``, so a bug in a heuristic can never stall or corrupt a table.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from bot.game import Action, SeatView, check_action, fallback_action, is_legal

__all__ = ["Player", "check_action", "is_legal", "legal_or_fallback"]


@runtime_checkable
class Player(Protocol):
    """A computer player: one method for bids, the kitty, leads and follows."""

    name: str

    def act(self, view: SeatView) -> Action | None:
        """The action for this seat now; None during the deal means "no bid now"."""
        ...


def legal_or_fallback(view: SeatView, action: Action | None) -> Action | None:
    """``action`` if it is legal now, else the safe fallback (None for a bad bid)."""
    if action is None:
        return None
    if is_legal(view, action):
        return action
    if view.expecting in ("bury", "play", "overcall"):
        return fallback_action(view)
    return None
