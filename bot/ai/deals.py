"""The endgame's deals of the hidden cards, and the shuffle every sampler here uses.

Why apart from ``endgame``: how a deal is drawn (voids, known cards, the hidden kitty,
the most constrained cards first) is the same question for every decision, where the
endgame's play-outs are its own; ``shuffle`` is shared with the expert's ``sampler``.
"""

from __future__ import annotations

import random
from typing import TypeVar

from bot.rules import Card, points

from .context import Context


class Deck:
    """What every sample of one decision starts from: the unseen cards less those known
    to be in a hand (there already), each seat's room, the seats that may hold each
    suit, and per card how many of the others may (the fewest are dealt first)."""

    __slots__ = ("constrained", "hands", "holders", "kitty_room", "pool", "room", "seats")

    def __init__(self, ctx: Context) -> None:
        mem = ctx.mem
        sizes = list(ctx.view.hand_sizes)
        me = ctx.seat
        pool = [c for c, k in mem.unseen.items() for _ in range(k)]
        hands: list[list[Card]] = [[], [], [], []]
        hands[me] = list(ctx.hand)
        room = [0 if s == me else sizes[s] for s in range(4)]
        for seat in range(4):
            for card, k in mem.known[seat].items():
                for _ in range(k):
                    if room[seat] and card in pool:
                        pool.remove(card)
                        hands[seat].append(card)
                        room[seat] -= 1
        self.pool, self.hands, self.room = pool, hands, room
        self.kitty_room = mem.kitty_size if mem.kitty_hidden else 0
        suits = ctx.order.ranked
        # the seats that may be dealt a card of each suit (my own and full ones never are:
        # leaving them out changes no draw, ``sample`` passes over seats without room)
        allowed = {
            suit: [s for s in range(4) if suit not in mem.void[s] and room[s]] for suit in suits
        }
        holders = {suit: _holders(ctx, suit) for suit in suits}
        suit_of = ctx.order.suit_of
        self.seats = {card: allowed[suit_of[card]] for card in pool}
        self.holders = {card: holders[suit_of[card]] for card in pool}
        # all cards with as many possible holders: ordering them changes nothing
        self.constrained = len(set(self.holders.values())) > 1


def sample(ctx: Context, rng: random.Random, deck: Deck) -> tuple[list[list[Card]], float] | None:
    """Other hands (and the kitty's points) dealt from the unseen cards, or None.

    ``rng.choices`` is inlined: the same one draw, the seat that ``bisect`` over the
    cumulative weights (the seats with room, then the kitty) would pick."""
    mem = ctx.mem
    pool, room, kitty_room = list(deck.pool), deck.room, deck.kitty_room
    if sum(room) + kitty_room != len(pool):
        return None
    holders, seats_of = deck.holders, deck.seats
    random_ = rng.random
    for _attempt in range(4):
        shuffle(rng, pool)
        # deal the most constrained cards first: those few seats may hold
        dealt = [list(h) for h in deck.hands]
        left = list(room)
        kitty: list[Card] = []
        kitty_left = kitty_room
        ok = True
        for card in sorted(pool, key=holders.__getitem__) if deck.constrained else pool:
            seats = seats_of[card]
            total = kitty_left
            for s in seats:
                total += left[s]
            if not total:  # no seat (nor the kitty) has room for it
                ok = False
                break
            # the first seat whose cumulative room exceeds the draw, else the last
            # one with room (what bisect over the cumulative weights picks)
            x = random_() * (total + 0.0)
            seat = -1
            room_so_far = 0
            for s in seats:
                if left[s]:
                    room_so_far += left[s]
                    seat = s
                    if x < room_so_far:
                        break
            else:
                if kitty_left:
                    seat = -1
            if seat < 0:
                kitty.append(card)
                kitty_left -= 1
            else:
                dealt[seat].append(card)
                left[seat] -= 1
        if ok:
            kitty_points = ctx.kitty_points if not mem.kitty_hidden else float(points(kitty))
            return dealt, kitty_points
    return None


T = TypeVar("T")


def shuffle(rng: random.Random, cards: list[T]) -> None:
    """``rng.shuffle(cards)`` without a call per card: the same draws, ``_randbelow``'s
    by ``getrandbits`` (a test holds it to ``random.shuffle``); compiled, five times
    faster than ``random.shuffle``, which stays Python (the expert's ``Sampler``)."""
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def _holders(ctx: Context, suit: str) -> int:
    return sum(1 for s in range(4) if s != ctx.seat and suit not in ctx.mem.void[s])
