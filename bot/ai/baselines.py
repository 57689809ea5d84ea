"""The two baselines the heuristic is measured against: random-legal and greedy.

Neither remembers cards. ``RandomPlayer`` makes a random legal move of every kind
(random bids now and then, a random burial, a random card or pair, now and then a
random throw, a random legal follow); it is also the load generator for
the engine's speed figure, so it is written to be cheap. ``GreedyPlayer`` grabs
tricks: it leads its biggest, highest unit and follows with the cheapest play that
wins the trick as it stands, else the cheapest play.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from bot.game import Action, Bury, Declare, Pass, Play, SeatView, fallback_action
from bot.rules import (
    ALL_CARDS,
    TRUMP,
    Card,
    follow_candidates,
    order_for,
    points,
    random_follow,
    team_of,
    trick_winner,
)
from bot.rules.units import decompose_in

RANDOM_BID_CHANCE = 0.1
RANDOM_THROW_CHANCE = 0.05
# a play of each single card, made once: a ``Play`` is an immutable value, and building
# one costs more than the rest of a random follow to a single
_SINGLE_PLAYS = {card: Play((card,)) for card in ALL_CARDS}


class RandomPlayer:
    """Uniform-ish random legal moves; ``seed`` makes a run reproducible.

    It is the load generator for the engine's speed figure, so the common case (a
    follow to a single card) takes a couple of microseconds.
    """

    name = "random"

    def __init__(self, seed: int | str = 0) -> None:
        self.rng = random.Random(seed)
        self._trump: object = None
        self._suit_of: dict[Card, str] = {}
        self._members: dict[str, frozenset[Card]] = {}

    def act(self, view: SeatView) -> Action | None:
        seat = view.seat
        if view.expecting == "play":  # nearly every call: the play itself, inline
            if seat is None or view.to_act != seat:
                return None
            trump = view.trump
            assert trump is not None
            if trump is not self._trump:  # one lookup per hand, not per card
                self._trump = trump
                order = order_for(trump, view.rules)
                self._suit_of, self._members = order.suit_of, order.members
            # ``random()`` is one C call; ``choice`` wraps a rejection loop written in
            # Python, several times dearer, and this runs for every card of every hand
            draw = self.rng.random
            suit_of = self._suit_of
            hand = view.hand
            trick = view.trick
            if trick:
                lead = trick[0][1]
                if len(lead) == 1:
                    # uniform over the led suit's cards if any, else over the hand: a
                    # first draw from the whole hand stands when it is of the led suit
                    # (each such card then has 1/n + (1 - k/n)/k = 1/k), which spares
                    # the filtering
                    led = suit_of[lead[0]]
                    card = hand[int(draw() * len(hand))]
                    if suit_of[card] != led:
                        in_suit = [*filter(self._members[led].__contains__, hand)]
                        if in_suit:
                            card = in_suit[int(draw() * len(in_suit))]
                    return _SINGLE_PLAYS[card]
                return Play(tuple(random_follow(hand, lead, trump, view.rules, self.rng)))
            return self._lead(hand, draw)
        if seat is None:
            return None
        return self._bid_or_bury(view, view.expecting, seat)

    def _lead(self, hand: tuple[Card, ...], draw: Callable[[], float]) -> Play:
        """A random card, led alone or (when held twice) sometimes as a pair; now and
        then a random throw of a few cards of its suit (it may well fail)."""
        card = hand[int(draw() * len(hand))]
        roll = draw()
        if roll < RANDOM_THROW_CHANCE:
            same = [*filter(self._members[self._suit_of[card]].__contains__, hand)]
            if len(same) > 1:
                rng = self.rng
                return Play(tuple(rng.sample(same, rng.randint(2, min(4, len(same))))))
        if roll < 0.5 and hand.count(card) > 1:
            return Play((card, card))
        return _SINGLE_PLAYS[card]

    def _bid_or_bury(self, view: SeatView, kind: str | None, seat: int) -> Action | None:
        rng = self.rng
        if kind in ("deal", "end_bidding"):
            if rng.random() >= RANDOM_BID_CHANCE:
                return None
            bids = view.auction.options(view.hand, seat)
            return Declare(rng.choice(bids).cards) if bids else None
        if kind == "bury" and view.to_act == seat:
            return Bury(tuple(rng.sample(view.hand, view.rules.kitty_size)))
        if kind == "overcall" and view.to_act == seat:
            options: list[Action] = [Pass()]
            options += [Declare(b.cards) for b in view.auction.options(view.hand, seat)]
            return rng.choice(options)
        return None


class GreedyPlayer:
    """Leads its biggest, highest unit; follows with the cheapest winning play.

    Bids the first legal bid it gets unless the bid would overcall its partner or
    itself, and buries the cheapest cards (the engine's fallback: no trumps, no
    points, lowest first).
    """

    name = "greedy"

    def act(self, view: SeatView) -> Action | None:
        if view.seat is None:
            return None
        kind = view.expecting
        if kind in ("deal", "end_bidding"):
            current = view.current_bid
            if current is not None and team_of(current.seat) == team_of(view.seat):
                return None
            bids = view.auction.options(view.hand, view.seat)
            return Declare(bids[-1].cards) if bids else None
        if view.to_act != view.seat or kind not in ("bury", "play", "overcall"):
            return None
        if kind == "overcall":  # the attackers overcall with their strongest showing
            bids = view.auction.options(view.hand, view.seat)
            return Declare(bids[-1].cards) if bids and view.is_attacker(view.seat) else Pass()
        if kind == "bury":
            return fallback_action(view)
        assert view.trump is not None
        order = order_for(view.trump, view.rules)
        if view.lead is None:
            best: tuple[int, bool, int] | None = None
            chosen: Sequence[Card] = ()
            by_suit: dict[str, list[Card]] = {}
            for card in view.hand:
                by_suit.setdefault(order.suit_of[card], []).append(card)
            for suit, cards in by_suit.items():
                for unit in decompose_in(order, cards):
                    key = (len(unit.cards), suit != TRUMP, unit.high)
                    if best is None or key > best:
                        best, chosen = key, unit.cards
            return Play(tuple(chosen))
        plays = [cards for _, cards in view.trick]
        lead = plays[0]
        if len(lead) == 1:
            led = order.suit_of[lead[0]]
            in_suit = [c for c in view.hand if order.suit_of[c] == led]
            options: list[list[Card]] = [[c] for c in dict.fromkeys(in_suit or view.hand)]
        else:
            options = follow_candidates(view.hand, lead, view.trump, view.rules)

        def cost(cards: Sequence[Card]) -> tuple[int, int, int]:
            return (
                sum(order.suit_of[c] == TRUMP for c in cards),
                points(cards),
                sum(order.tier[c] for c in cards),
            )

        me = len(plays)
        winning = [o for o in options if trick_winner([*plays, o], view.trump, view.rules) == me]
        cheapest = min(winning or options, key=cost)
        return Play(tuple(cheapest))
