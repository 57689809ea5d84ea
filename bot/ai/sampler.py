"""The expert's sampler: deals of the unseen cards consistent with what a seat has seen.

Why a module of its own: the search (``expert``) asks for thousands of deals a decision
and only needs ``Sampler.sample``; how a deal respects the seat's memory (shown voids,
cards known from bids and failed throws, pairs a seat showed it lacks, the hidden kitty
drawn like a dealer buries, Hall's condition when a quick deal strands a suit) is its
own concern, measured on its own (docs/computer-players.md, 1 and 2 Dec).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.rules import TRUMP, Card, points

from .context import Context
from .deals import shuffle

KITTY_WEIGHTS = True  # draw the hidden kitty like a dealer buries (``_bury_weight``)
KITTY_TRUMP, KITTY_POINTS, KITTY_HIGH = 0.02, 0.2, 0.15
PAIR_TRIES = 6  # deals drawn again when they give a seat a pair it showed it lacks
DEAL_TRIES = 4  # quick deals tried (two with the kitty drawn by weight) before a checked one


class Sampler:
    """Deals the unseen cards consistently with the seat's memory, many times over.

    Cards known to be in a hand (shown by a bid or a failed throw) go there; every
    other unseen card goes to a hand not known void in its suit (or, for everyone
    but the dealer, to the kitty), with odds proportional to the room left, the
    most constrained suits first.
    """

    def __init__(self, ctx: Context) -> None:
        mem = ctx.mem
        suit_of = ctx.order.suit_of
        me = ctx.seat
        pool = [c for c, k in mem.unseen.items() for _ in range(k)]
        self.base: list[list[Card]] = [[], [], [], []]
        self.base[me] = list(ctx.hand)
        room = [0 if s == me else ctx.view.hand_sizes[s] for s in range(4)]
        for seat in range(4):
            for card, k in mem.known[seat].items():
                for _ in range(k):
                    if room[seat] and card in pool:
                        pool.remove(card)
                        self.base[seat].append(card)
                        room[seat] -= 1
        kitty_room = mem.kitty_size if mem.kitty_hidden else 0
        self.room = [*room, kitty_room]  # index 4: the hidden kitty
        self.ok = sum(self.room) == len(pool)
        # who may hold each suit (4: the kitty), and the pool in constrained-first groups
        holders: dict[str, tuple[int, ...]] = {}
        for card in pool:
            suit = suit_of[card]
            if suit not in holders:
                seats = [s for s in range(4) if room[s] and suit not in mem.void[s]]
                if kitty_room:
                    seats.append(4)
                holders[suit] = tuple(seats)
        self.groups: list[list[tuple[Card, tuple[int, ...]]]] = []
        for size in sorted({len(h) for h in holders.values()}):
            self.groups.append(
                [(c, holders[suit_of[c]]) for c in pool if len(holders[suit_of[c]]) == size]
            )
        # a group whose cards all go to the same seats (usually the last: no void)
        self.shared = [
            group[0][1] if len({seats for _, seats in group}) == 1 else None
            for group in self.groups
        ]
        self.kitty_points = ctx.kitty_points
        self.kitty_hidden = mem.kitty_hidden
        self.suit_of = suit_of
        self.no_pairs = [
            (s, frozenset(mem.no_pairs[s])) for s in range(4) if s != me and mem.no_pairs[s]
        ]
        # the hidden kitty is drawn first, by how likely a dealer is to bury each card
        self.kitty_powers: list[float] | None = None
        if kitty_room and KITTY_WEIGHTS:
            # a key ``u ** (1 / weight)`` a card, the largest drawn (Efraimidis and Spirakis)
            self.kitty_powers = [1.0 / _bury_weight(ctx, c) for c in pool]
            self.pool = pool

    def sample(self, rng: random.Random) -> tuple[list[list[Card]], float] | None:
        if not self.ok:
            return None
        # a seat that followed a pair lead with two odd cards holds no pair of that
        # suit: deals that give it one are drawn again (a few times, then kept)
        world = self._deal(rng)
        for _ in range(PAIR_TRIES if self.no_pairs else 0):
            if world is None or not self._shows_pair(world[0]):
                break
            world = self._deal(rng)
        return world

    def _shows_pair(self, hands: list[list[Card]]) -> bool:
        suit_of = self.suit_of
        for seat, suits in self.no_pairs:
            seen: set[Card] = set()
            for card in hands[seat]:
                if suit_of[card] in suits:
                    if card in seen:
                        return True
                    seen.add(card)
        return False

    def _deal(self, rng: random.Random) -> tuple[list[list[Card]], float] | None:
        for attempt in range(DEAL_TRIES):
            hands = [list(h) for h in self.base]
            left = list(self.room)
            skip: dict[Card, int] = {}
            if self.kitty_powers is not None and attempt < 2:
                kitty = self._draw_kitty(rng)
                hands.append(kitty)
                left[4] = 0
                for card in kitty:
                    skip[card] = skip.get(card, 0) + 1
            else:
                hands.append([])
            stuck = False
            for group, shared in zip(self.groups, self.shared, strict=True):
                shuffle(rng, group)  # rng.shuffle's draws
                if skip:
                    group = _without(group, skip)
                if shared is not None and sum(left[s] for s in shared) == len(group):
                    # exactly the room left: dealing a card at a time with odds by
                    # room is the same as cutting the shuffled cards by room
                    at = 0
                    for s in shared:
                        hands[s].extend(card for card, _ in group[at : at + left[s]])
                        at += left[s]
                        left[s] = 0
                    continue
                for card, seats in group:
                    seat = _by_room(rng, seats, left)
                    if seat is None:
                        stuck = True
                        break
                    hands[seat].append(card)
                    left[seat] -= 1
                if stuck:
                    break
            if not stuck:
                return self._dealt(hands)
        return self._deal_checked(rng)

    def _dealt(self, hands: list[list[Card]]) -> tuple[list[list[Card]], float]:
        """The four hands and the kitty's points of a deal (the kitty last in ``hands``)."""
        kitty = hands.pop()
        return hands, float(points(kitty)) if self.kitty_hidden else self.kitty_points

    def _deal_checked(self, rng: random.Random) -> tuple[list[list[Card]], float] | None:
        """A deal that cannot run out of seats, or None when no deal fits the memory.

        The quick deal can strand a suit late in a hand (suit A may go to seats 0 or 2,
        B to 0 or 3, C to 2 or 3, and A and B filled seat 0): on 3,088 decisions of
        heuristic hands, 61 of 24,704 samples failed four times, and a failed sample
        ended its search. Here a card goes only to a seat after which every set of
        seats still has room for the cards no other seat may take (Hall's condition),
        so a deal fails only when none exists. The kitty is drawn uniformly.
        """
        hands = [list(h) for h in self.base]
        hands.append([])
        left = list(self.room)
        cards = [item for group in self.groups for item in rng.sample(group, len(group))]
        masks = [sum(1 << s for s in seats) for _, seats in cards]
        need: dict[int, int] = {}
        for mask in masks:
            need[mask] = need.get(mask, 0) + 1
        for (card, seats), mask in zip(cards, masks, strict=True):
            need[mask] -= 1
            fits = []
            for s in seats:
                if left[s]:
                    left[s] -= 1
                    if _hall(need, left):
                        fits.append(s)
                    left[s] += 1
            seat = _by_room(rng, fits, left)
            if seat is None:
                return None
            hands[seat].append(card)
            left[seat] -= 1
        return self._dealt(hands)

    def _draw_kitty(self, rng: random.Random) -> list[Card]:
        """The hidden kitty's cards, drawn without replacement by ``_bury_weight``."""
        assert self.kitty_powers is not None
        rand = rng.random
        keys = [rand() ** power for power in self.kitty_powers]
        # the largest keys (``heapq.nlargest``'s choice, which is Python, not compiled)
        best = sorted(range(len(keys)), key=keys.__getitem__, reverse=True)[: self.room[4]]
        return [self.pool[i] for i in best]


def _by_room(rng: random.Random, seats: Sequence[int], left: Sequence[int]) -> int | None:
    """One of ``seats`` with odds by the room ``left`` in each (one draw), None if none has room."""
    total = 0
    for s in seats:
        total += left[s]
    if not total:
        return None
    r = rng.random() * total
    for s in seats:
        r -= left[s]
        if r < 0 and left[s]:
            return s
    return next(s for s in reversed(seats) if left[s])  # rounding: the last with room


def _hall(need: dict[int, int], left: Sequence[int]) -> bool:
    """Whether the cards still to deal fit: ``need`` counts them by the mask of seats
    that may hold them, ``left`` is each seat's room; every set of seats must have room
    for the cards that only it may take."""
    for subset in range(1, 1 << len(left)):
        demand = sum(n for mask, n in need.items() if not mask & ~subset)
        if demand and demand > sum(left[s] for s in range(len(left)) if subset >> s & 1):
            return False
    return True


def _without(
    group: list[tuple[Card, tuple[int, ...]]], skip: dict[Card, int]
) -> list[tuple[Card, tuple[int, ...]]]:
    """``group`` less the cards (counted in ``skip``, which is used up) already dealt."""
    out = []
    for item in group:
        card = item[0]
        if skip.get(card):
            skip[card] -= 1
        else:
            out.append(item)
    return out


def _bury_weight(ctx: Context, card: Card) -> float:
    """How likely a dealer is to bury ``card``, relative to a low side card.

    A dealer keeps trumps, points and aces and kings (the heuristic's kitty, 40 hands:
    7.3 low side cards, 0.55 point cards, 0.13 aces or kings, no trumps).
    """
    if ctx.order.suit_of[card] == TRUMP:
        return KITTY_TRUMP
    if card.points:
        return KITTY_POINTS
    if card.rank in "AK":
        return KITTY_HIGH
    return 1.0
