"""The one table procedure: what a table does next, for every kind of table.

"Deal, ask for bids, reopen after an overcall, close the window, let the seat
whose turn it is act, start the next hand" is the same whether the seats are
computer players in a simulation, a person at the terminal or people on
Discord; only the pace and who answers differ. ``Driver`` says the next
``Step``; its consumers (the arena and benches through ``bot.ai.play_hand``,
``python -m bot play``, the store's simulator and the table service) answer it
in their own way, the service adding its timing (deal pace, bot delay, the
bidding window, human timers).

Bids: after each deal step the seats that got cards are asked, in deal order;
after any bid the other three are asked again (they may overcall at once); once
the last card is out every seat is asked once more from the first seat dealt,
and when nobody is left to ask the bidding can close. Call ``observe`` with the
events of every accepted action, a person's too, so that a bid reopens the
question for the others.

Decisions where the issues are silent: a human seat asked to bid is simply
skipped by computer-only consumers (a person bids when they like, within the
window); the service closes the window on its timer, not when the queue empties.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from .actions import SYSTEM, Action, Deal, Declare, EndBidding, NextHand
from .events import BidMade, Dealt, Event, HandStarted, Redeal
from .match import Match
from .phase import DEAL, KITTY, OVERCALL, PLAY, SCORED, TurnKind
from .views import SeatView


@dataclass(frozen=True, slots=True)
class DealCards:
    """Deal the next ``count`` cards (as ``SYSTEM``)."""

    count: int


@dataclass(frozen=True, slots=True)
class AskBid:
    """Ask ``seat`` whether it bids now (a computer answers at once; a person may not)."""

    seat: int


@dataclass(frozen=True, slots=True)
class CloseBidding:
    """Nobody is left to ask: close the bidding window (as ``SYSTEM``)."""


@dataclass(frozen=True, slots=True)
class Turn:
    """``seat`` must act: ``kind`` is ``"bury"``, ``"overcall"`` or ``"play"``."""

    seat: int
    kind: TurnKind


@dataclass(frozen=True, slots=True)
class StartNextHand:
    """The hand is scored: start the next one (as ``SYSTEM``) after the summary."""


@dataclass(frozen=True, slots=True)
class MatchDone:
    """The match is over."""


Step = DealCards | AskBid | CloseBidding | Turn | StartNextHand | MatchDone
# a seat's decision from its view; None: no bid (or a person, who is not asked)
Decider = Callable[[SeatView], Action | None]


def next_step(match: Match, deal_round: int = 1) -> Step:
    """The next step once nobody is left to ask for a bid (``Driver`` asks first)."""
    phase = match.phase
    if phase is DEAL:
        return CloseBidding() if match.deal_done else DealCards(deal_round)
    if phase is KITTY or phase is PLAY or phase is OVERCALL:
        seat = match.to_act
        assert seat is not None
        return Turn(seat, "bury" if phase is KITTY else "play" if phase is PLAY else "overcall")
    if phase is SCORED:
        return StartNextHand()
    return MatchDone()


def system_action(step: Step) -> Action | None:
    """The ``SYSTEM`` action a step asks for (None for a seat's step or the end)."""
    match step:
        case DealCards(count=count):
            return Deal(count)
        case CloseBidding():
            return EndBidding()
        case StartNextHand():
            return NextHand()
        case _:
            return None


class Driver:
    """What one table does next. Keep one per table, next to its ``Match``."""

    def __init__(self, match: Match, deal_round: int = 1) -> None:
        self.match = match
        self.deal_round = deal_round
        self._ask: deque[int] = deque()
        self._window_asked = False  # every seat was asked once after the last card

    def next(self) -> Step:
        """The next step. Asking for a bid takes that seat off the queue."""
        match = self.match
        if match.phase is DEAL:
            seat = self.take_question()
            if seat is not None:
                return AskBid(seat)
            if match.deal_done and not self._window_asked:
                self._window_asked = True
                first = match.deal_start
                self._ask.extend((first + i) % 4 for i in range(1, 4))
                return AskBid(first)
        return next_step(match, self.deal_round)

    def take_question(self) -> int | None:
        """The next seat queued to be asked for a bid, off the queue (None: nobody)."""
        if self._ask and self.match.phase is DEAL:
            return self._ask.popleft()
        return None

    def observe(self, events: Iterable[Event]) -> None:
        """Take note of an accepted action's events (whoever acted)."""
        for event in events:
            if isinstance(event, Dealt):  # the common case first: this runs for every card dealt
                if event.seat not in self._ask:
                    self._ask.append(event.seat)
            elif isinstance(event, BidMade):
                self._ask = deque((event.seat + i) % 4 for i in (1, 2, 3))
            elif isinstance(event, (Redeal, HandStarted)):
                self._ask.clear()
                self._window_asked = False

    def next_action(self, deciders: Sequence[Decider | None]) -> tuple[int, Action] | None:
        """For tables of computers: the next (seat, action) to apply, None once over.

        ``deciders[seat]`` answers for a seat (None: a person, never asked to
        bid). A decider asked to bid returns a ``Declare`` or None; on its turn it
        must return an action (``RuntimeError`` otherwise: the caller sees the
        bug). The caller applies the action and passes its events to ``observe``.
        """
        view = self.match.view
        while True:
            # bid questions first, without building steps: a deal asks one per card
            while (asked := self.take_question()) is not None:
                decide = deciders[asked]
                bid = None if decide is None else decide(view(asked))
                if bid is not None:
                    if not isinstance(bid, Declare):
                        raise RuntimeError(f"seat {asked} answered a bid question with {bid!r}")
                    return asked, bid
            step = self.next()
            if type(step) is DealCards:  # the common case first: a deal asks nothing
                return SYSTEM, Deal(step.count)
            match step:
                case AskBid(seat=seat):
                    decide = deciders[seat]
                    bid = None if decide is None else decide(self.match.view(seat))
                    if bid is None:
                        continue
                    if not isinstance(bid, Declare):
                        raise RuntimeError(f"seat {seat} answered a bid question with {bid!r}")
                    return seat, bid
                case Turn(seat=seat):
                    decide = deciders[seat]
                    action = None if decide is None else decide(self.match.view(seat))
                    if action is None:
                        raise RuntimeError(f"seat {seat} did not act on its turn")
                    return seat, action
                case MatchDone():
                    return None
                case _:
                    system = system_action(step)
                    assert system is not None
                    return SYSTEM, system
