"""One legality check, from a seat's view: what the match, the computer players,
the panels and autocomplete all ask before an action is taken.

Everything here raises ``RulesError`` (never ``assert``, which ``python -O``
strips) with a message key for the player's language. ``Match.apply`` checks the
same things on the real hands with the same functions (``check_bury``,
``check_lead``), so a view's verdict and the match's never disagree; the match
adds only what a view cannot know (the failed-throw check against the other hands).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.rules import (
    Card,
    IllegalPlay,
    RulesError,
    RuleSet,
    Trump,
    Unit,
    check_follow,
    contains,
    decompose,
    decompose_in,
    follow_candidates,
    order_for,
)

from .actions import Action, Bury, Declare, Pass, Play
from .phase import Phase
from .views import SeatView


class GameError(RulesError):
    """An action at the wrong time or from the wrong seat (the message is for players)."""


class NotYourTurn(GameError):
    def __init__(self, message: str, waiting_for: int | None, *, key: str) -> None:
        super().__init__(message, key=key)
        self.waiting_for = waiting_for


_ACTION_WORDS = {
    "deal": "deal",
    "bid": "bid",
    "close": "close the bidding",
    "bury": "bury cards",
    "overcall": "overcall",
    "play": "play cards",
    "next": "start the next hand",
}
_PHASE_WORDS = {
    Phase.DEAL: "the cards are being dealt",
    Phase.KITTY: "the dealer is burying the kitty",
    Phase.OVERCALL: "the players are overcalling in turn",
    Phase.PLAY: "the hand is being played",
    Phase.SCORED: "the hand is over",
    Phase.OVER: "the match is over",
}


def wrong_phase(phase: Phase, what: str) -> GameError:
    """The error for ``what`` (a key of the action words) asked in ``phase``."""
    return GameError(
        f"You can't {_ACTION_WORDS[what]} now: {_PHASE_WORDS[phase]}.",
        key="game-err-wrong-phase",
        action=what,
        phase=str(phase),
    )


def check_seat(seat: int | None) -> int:
    if seat not in (0, 1, 2, 3):
        raise GameError("Only seated players can do that.", key="game-err-not-seated")
    return seat


def missing(hand: Sequence[Card], cards: Sequence[Card]) -> IllegalPlay:
    """The error for cards not (or not that often) in ``hand``."""
    left = list(hand)
    for card in cards:
        if card in left:
            left.remove(card)
        elif card in hand:
            return IllegalPlay(
                f"You don't hold another {card.pretty}.", key="game-err-not-another", cards=(card,)
            )
        else:
            return IllegalPlay(
                f"You don't hold {card.pretty}.", key="rules-err-not-held", cards=(card,)
            )
    return IllegalPlay("You don't hold those cards.", key="game-err-not-held")


def check_bury(hand: Sequence[Card], cards: Sequence[Card], rules: RuleSet) -> None:
    """The dealer buries exactly the kitty's size, from the hand."""
    size = rules.kitty_size
    if len(cards) != size:
        raise IllegalPlay(
            f"Bury exactly {size} cards (you chose {len(cards)}).",
            key="game-err-bury-count",
            count=size,
            chosen=len(cards),
        )
    if not contains(hand, cards):
        raise IllegalPlay("You can only bury cards in your hand.", key="game-err-bury-held")


def check_lead(
    hand: Sequence[Card], cards: Sequence[Card], trump: Trump, rules: RuleSet
) -> list[Unit]:
    """A lead is cards from the hand, all of one suit (a throw is checked when played).

    Returns the lead's units (more than one: a throw), which the match needs next.
    """
    if not cards:
        raise IllegalPlay("Play at least one card.", key="rules-err-empty-play")
    if not contains(hand, cards):
        raise missing(hand, cards)
    return decompose(cards, trump, rules)


def check_cards(view: SeatView, cards: Sequence[Card]) -> None:
    """Whether ``cards`` answer the seat's current decision (bury, lead or follow).

    Whose turn it is is not checked here: the panels ask this of a staged selection.
    """
    if view.expecting == "bury":
        check_bury(view.hand, cards, view.rules)
        return
    if view.expecting != "play" or view.trump is None:
        raise wrong_phase(view.phase, "play")
    if view.lead is None:
        check_lead(view.hand, cards, view.trump, view.rules)
    else:
        check_follow(view.hand, view.lead, cards, view.trump, view.rules)


def check_action(view: SeatView, action: Action) -> None:
    """Raise ``RulesError`` unless ``action`` is legal for ``view.seat`` right now."""
    seat = check_seat(view.seat)
    if view.expecting == "overcall" and isinstance(action, Declare | Pass):
        if view.to_act != seat:
            raise NotYourTurn("It is not your turn.", view.to_act, key="game-err-not-your-turn")
        if isinstance(action, Pass):
            return
    if view.expecting in ("deal", "end_bidding", "overcall"):
        if not isinstance(action, Declare):
            raise wrong_phase(view.phase, action.kind if action.kind in _ACTION_WORDS else "play")
        if not contains(view.hand, action.cards):
            raise IllegalPlay(
                "You can only show cards you have been dealt.", key="game-err-bid-not-dealt"
            )
        view.auction.check(seat, action.cards)
        return
    wanted = Bury if view.expecting == "bury" else Play
    if not isinstance(action, wanted):
        what = "bid" if isinstance(action, Declare) else action.kind
        raise wrong_phase(view.phase, what if what in _ACTION_WORDS else "play")
    if view.to_act != seat:
        raise NotYourTurn("It is not your turn.", view.to_act, key="game-err-not-your-turn")
    check_cards(view, action.cards)


def is_legal(view: SeatView, action: Action) -> bool:
    """Whether ``check_action`` accepts ``action``."""
    try:
        check_action(view, action)
    except RulesError:
        return False
    return True


def play_options(view: SeatView, limit: int = 30) -> list[tuple[Card, ...]]:
    """Distinct legal plays for the seat to act, strongest cards first (for autocomplete).

    A lead offers every unit of every suit in hand (a throw is the player's own
    idea); a follow, a varied set of legal follows. Empty when it is not the
    seat's turn to play.
    """
    if view.expecting != "play" or view.to_act != view.seat or view.trump is None:
        return []
    order = order_for(view.trump, view.rules)
    if view.lead is None:
        candidates: list[Sequence[Card]] = []
        for suit in sorted({order.suit_of[c] for c in view.hand}):
            in_suit = [c for c in view.hand if order.suit_of[c] == suit]
            candidates += [u.cards for u in decompose_in(order, in_suit)]
    else:
        candidates = [*follow_candidates(view.hand, view.lead, view.trump, view.rules, limit)]
    options: list[tuple[Card, ...]] = []
    seen: set[tuple[Card, ...]] = set()
    for cards in candidates:
        ranked = tuple(sorted(cards, key=order.sort_key, reverse=True))
        if ranked not in seen:
            seen.add(ranked)
            options.append(ranked)
            if len(options) == limit:
                break
    return options
