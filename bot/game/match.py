"""One table's match, from level 2 to the end, as a state machine.

``Match.apply(seat, action)`` is the one way in: it checks the action against the
phase, the turn and the rules, changes the state only when everything is legal,
and returns the events that describe what happened (some meant for one seat
only). Illegal actions raise an error whose message a player can read.

Phases of a hand: ``deal`` (cards go out one at a time; anyone may bid, during the
deal and in the window after it) → ``kitty`` (the dealer buries) → with
``overcall="after_bury"`` once the dealer is known, ``overcall`` (each player once
in turn from the dealer's next seat overcalls or passes) → ``play`` → ``scored``
(the summary is up; ``NextHand`` starts the next deal) … ``over``.

Time is data: ``expecting()`` says who must act next and on what; the caller owns
the clock and sends ``Deal``/``EndBidding``/``NextHand`` as ``SYSTEM``, and calls
``timeout(seat, decide)`` when a player runs out of time.

The match is built from rooms: ``state`` (the attributes and the questions asked of
them), ``bidding`` (deal, bids, kitty, overcall round) and ``tricks`` (play, scoring,
next hand), each with the decisions it takes where RULES.md is silent. This module
joins them: the entry point, timeouts, snapshots and replay.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot.rules import (
    DEFAULT_RULES,
    RULES_BEFORE,
    Bid,
    Card,
    RulesError,
    RuleSet,
    Trump,
    order_for,
    points,
)

from . import codec
from .actions import Action, Bury, Deal, Declare, EndBidding, NextHand, Pass, Play
from .bidding import BiddingPhases
from .events import Event
from .legal import GameError
from .phase import Phase
from .tricks import TrickPhases
from .views import HandResult, SeatView, TrickRecord

Decide = Callable[[SeatView], Action]


class Match(BiddingPhases, TrickPhases):
    """A whole match for four seats. Build one with ``Match.new``."""

    # --- construction --------------------------------------------------------------

    @classmethod
    def new(
        cls,
        seed: int,
        rules: RuleSet | None = None,
        *,
        first_dealer: int | None = None,
        levels: tuple[str, str] = ("2", "2"),
        deck_order: Sequence[Card] | None = None,
    ) -> Match:
        """A match ready to deal its first hand.

        ``first_dealer`` fixes the first dealer instead of letting the winning bid
        choose (duplicate-deal arenas need that); ``deck_order`` fixes the first
        hand's cards (stacked decks for tests and arenas).
        """
        match = cls(rules or DEFAULT_RULES, seed, first_dealer or 0)
        match.levels = list(levels)
        match.dealer = first_dealer
        if deck_order is not None:
            match.deck_override = list(deck_order)
        match._start_hand()
        return match

    # --- the entry point -----------------------------------------------------------

    def apply(self, seat: int, action: Action, *, auto: bool = False) -> list[Event]:
        """Apply ``action`` by ``seat`` (or ``SYSTEM``); return the events, or raise.

        On an error nothing has changed. ``auto`` marks actions the computer took
        for a player (timeouts, 托管) in the events.
        """
        if isinstance(action, Play):
            events = self._play(seat, action.cards, auto)
        elif isinstance(action, Declare):
            events = self._declare(seat, list(action.cards))
        elif isinstance(action, Bury):
            events = self._bury(seat, list(action.cards), auto)
        elif isinstance(action, Deal):
            events = self._deal(seat, action.count)
        elif isinstance(action, EndBidding):
            events = self._end_bidding(seat)
        elif isinstance(action, NextHand):
            events = self._next_hand(seat)
        elif isinstance(action, Pass):
            events = self._pass(seat, auto)
        else:  # pragma: no cover - the Action union is closed
            raise GameError(f"Unknown action {action!r}.", key="game-err-unknown-action")
        self.seq += 1
        self.last_action = action
        return events

    def timeout(self, seat: int, decide: Decide) -> list[Event]:
        """Act for ``seat`` who ran out of time: ``decide`` (the AI) picks from the view.

        If ``decide`` raises (whatever the error: the caller logs it) or proposes something
        illegal, the safest legal action is taken instead, so a timeout always moves the
        game on. ``last_action`` then
        holds the action taken, for the caller's log.
        """
        kind, actor = self.expecting()
        if actor != seat or kind not in ("play", "bury", "overcall"):
            raise GameError("Nothing is waiting for that seat.", key="game-err-nothing-waiting")
        try:
            action: Action | None = decide(self.view(seat))
        except Exception:  # a computer player's bug (an assert too) must not stop the game
            action = None
        if action is not None:
            try:
                return self.apply(seat, action, auto=True)
            except (RulesError, ValueError, TypeError, KeyError, IndexError):
                pass
        return self.apply(seat, fallback_action(self.view(seat)), auto=True)

    # --- serialisation -------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON-ready data (includes hidden cards: store it privately)."""
        return {"version": STATE_VERSION, **codec.encode_attrs(self, _STATE)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Match:
        """The match ``to_dict`` stored; version-1 states (before the codec) load too."""
        if data.get("version") not in (1, STATE_VERSION):
            raise ValueError(f"unsupported match state version {data.get('version')!r}")
        # attributes added since (the seed-000 variants): an older state has their defaults
        data = {"contested": data.get("dealer") is None, **_ADDED, **data}
        if isinstance(data.get("rules"), dict):  # as ``RuleSet.of_table`` reads a table's
            data["rules"] = {**RULES_BEFORE, **data["rules"]}
        state = codec.decode_attrs(_STATE, data)
        match = cls(state["rules"], state["seed"], state["first_dealer"])
        for name, value in state.items():
            setattr(match, name, value)
        return match

    # defining __eq__ leaves Match unhashable (__hash__ is None), as mutable state should be
    def __eq__(self, other: object) -> bool:
        return isinstance(other, Match) and self.to_dict() == other.to_dict()


def replay(
    seed: int,
    actions: Sequence[tuple[int, Action | dict[str, Any]]],
    rules: RuleSet | None = None,
    **options: Any,
) -> Match:
    """Rebuild a match from its seed and accepted actions (dicts or ``Action`` values)."""
    match = Match.new(seed, rules, **options)
    for seat, action in actions:
        auto = False
        if isinstance(action, dict):
            auto = codec.is_auto(action)
            action = codec.action_from_dict(action)
        match.apply(seat, action, auto=auto)
    return match


def fallback_action(view: SeatView) -> Action:
    """The safe legal action when no better decision is at hand (cheapest cards)."""
    from bot.rules import follow_candidates

    assert view.trump is not None or view.expecting == "bury"
    if view.expecting == "overcall":
        return Pass()
    if view.expecting == "bury":
        order = order_for(view.trump or Trump(view.level, None), view.rules)
        ranked = sorted(view.hand, key=lambda c: (order.is_trump(c), c.points, order.tier[c]))
        return Bury(tuple(ranked[: view.rules.kitty_size]))
    assert view.trump is not None
    order = order_for(view.trump, view.rules)

    def cost(cards: Sequence[Card]) -> tuple[int, int, int]:
        return (
            sum(order.is_trump(c) for c in cards),
            points(cards),
            sum(order.tier[c] for c in cards),
        )

    if view.lead is None:
        return Play((min(view.hand, key=lambda c: cost([c])),))
    candidates = follow_candidates(view.hand, view.lead, view.trump, view.rules)
    cheapest = min(candidates, key=cost)
    return Play(tuple(cheapest))


# The snapshot: every attribute that is state, with its type for the codec. Bids
# keep the suit and strength they had when made: after a hand is scored the level
# has moved on and the cards would no longer read as a bid.
STATE_VERSION = 2
_STATE: dict[str, Any] = {
    "rules": RuleSet,
    "seed": int,
    "first_dealer": int,
    "hand_no": int,
    "redeals": int,
    "levels": list[str],
    "dealer": int | None,
    "phase": Phase,
    "deal_start": int,
    "stock": list[Card],
    "dealt": int,
    "hands": list[list[Card]],
    "kitty": list[Card],
    "bids": list[Bid],
    "contested": bool,
    "round_done": int,
    "passed": list[int],
    "turned": list[Card],
    "trump": Trump | None,
    "leader": int | None,
    "trick": list[tuple[int, tuple[Card, ...]]],
    "attempted": tuple[Card, ...] | None,
    "tricks": list[TrickRecord],
    "attackers_points": int,
    "failed_throws": list[tuple[int, int]],
    "result": HandResult | None,
    "winner_team": int | None,
    "seq": int,
}
_ADDED: dict[str, Any] = {"round_done": 0, "passed": [], "turned": ""}
