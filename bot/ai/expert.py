"""The expert computer player: the heuristic's candidates, judged by sampled play-outs.

At each lead or follow the expert

1. at a lead, or a follow with ``FOLLOW_CARDS`` cards or fewer in hand (every
   follow since the play-outs keep pairs and the kitty is drawn like a dealer buries:
   on 7,500 decisions of heuristic hands, each candidate continued by the heuristic
   on the real deal, early follows' estimated gains track the real ones best of all
   decisions, and searching every follow measured +1.4 and +2.0 points a hand on
   100 deals of two seeds against 5 cards),
   asks the heuristic for its candidates (leads by unit, follows by intent: see
   ``heuristic``) and keeps its best ``CANDIDATES``, so a decision stays bounded;
2. samples deals consistent with what the seat has seen (``Sampler``: the unseen
   cards dealt to the other hands and, for everyone but the dealer, the kitty,
   respecting shown voids, cards known from bids and failed throws, and pairs a seat
   showed it lacks; the hidden kitty is drawn like a dealer buries, rarely trumps,
   points, aces or kings: drawn uniformly it held three times the points of a real
   one, which overstated every last trick's stake);
3. plays every candidate out on each sampled deal (``rollout``: a fast
   perfect-information policy, same deal for every candidate, so the comparison
   is paired; ``LEADS_EARLY`` and ``LEADS_LATE`` make the next leads the heuristic's
   own, from the leader's view of the sampled deal: ``_play_on``), scoring the hand's
   end for its side: points plus ``LEVEL_WEIGHT`` per level gained or conceded
   (the staircase, not only the 80 line);
4. keeps the heuristic's choice unless another candidate's mean beats it by more
   than ``MARGIN`` paired standard errors: with few samples (a short ``think_ms``)
   the expert is the heuristic, with many it overrules it where the play-outs agree.
   The candidates race: from ``RACE_AFTER`` samples on, a challenger trailing the
   heuristic's choice by a standard error is no longer played out, so the time goes
   to those that might still overrule it (measured at 20 ms and 250 ms: the same
   strength or better, and most searches end well before the budget).

It stops sampling at ``think_ms`` (250 ms at a table by default, set per table and
in the arena; checked before each sample and between candidates, a sample cut
short being dropped whole), always answers with a legal play (checked like every
player), and with fewer than ``MIN_WORLDS`` samples in its time plays the first
candidate. Bids and the burial are the heuristic's; the candidates are ranked by
``expert_policy`` (the heuristic's ranking, jokers held back from early leads), so
"the heuristic's choice" above is that ranking's first. It sees only the seat's view:
the sampler is seeded from the view, so with a fixed number of samples (``worlds``) a
decision is a pure function of the view, whatever the hidden cards are.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from bot.game import Action, Play, SeatView, TrickRecord
from bot.rules import (
    DEALER,
    TRUMP,
    Card,
    format_cards,
    kitty_multiplier,
    level_outcome,
    points,
    resolve_throw,
    trick_winner,
)
from bot.rules.units import decompose_in

from . import endgame, rollout
from .evaluate import Context, lead_score
from .expert_policy import ranked_candidates
from .heuristic import HeuristicPlayer, lead_candidates, play_for

# the heuristic's best candidates that are played out: 6 over 4 and 8 on four seeds at 20 ms
# (README, search notes of 1 Dec, the afternoon); more costs samples per candidate, fewer
# misses the move
CANDIDATES = 6
FOLLOW_CARDS = 999  # follows are searched from this many cards in hand: every one (leads always)
LEVEL_WEIGHT = 5.0  # points a level is worth in the expert's objective
MIN_WORLDS = 8  # fewer samples than this: the heuristic's choice stands
# a challenger must beat the heuristic's choice by this many standard errors, on either
# side: the dealer's side's overrules gain most on the ground truth, yet a margin of 1 or
# 0.5 for it gained in the arena on one seed of two (README, search notes of 1 Dec 03:45)
MARGIN = 2.0
# the heuristic's leads in play-outs (``heuristic_leads``), off: the real-deal screen's best,
# two from more than 12 cards, cost four times a play-out (too few samples at 20 ms), and one
# from 7 down measured -0.1 points a hand at 20 samples (README, search notes of 1 Dec 06:15)
LEADS_EARLY, LEADS_LATE, LATE_CARDS = 0, 0, 7
# a leader holds more than ``endgame.ENDGAME_CARDS`` for the heuristic to lead (below, the
# heuristic searches; its ranking alone screened worse)
LEAD_MIN = endgame.ENDGAME_CARDS + 1
RACE_AFTER = 4  # samples before a trailing challenger is dropped from the expert's search
THINK_MS = 250
KITTY_WEIGHTS = True  # draw the hidden kitty like a dealer buries (``_bury_weight``)
KITTY_TRUMP, KITTY_POINTS, KITTY_HIGH = 0.02, 0.2, 0.15
PAIR_TRIES = 6  # deals drawn again when they give a seat a pair it showed it lacks
DEAL_TRIES = 4  # quick deals tried (two with the kitty drawn by weight) before a checked one


class ExpertPlayer(HeuristicPlayer):
    """Searches its plays (``expert``); ``think_ms`` bounds each decision.

    ``worlds`` caps the samples per decision (tests and reviews use it to make a
    decision reproducible whatever the machine's speed); ``follow_cards`` and
    ``seed`` as in ``FOLLOW_CARDS`` and ``search``.
    """

    name = "expert"

    def __init__(
        self,
        think_ms: float = THINK_MS,
        *,
        worlds: int | None = None,
        follow_cards: int = FOLLOW_CARDS,
        seed: str = "",
        strict: bool = False,
    ) -> None:
        super().__init__(strict=strict)
        self.think_ms = think_ms
        self.worlds = worlds
        self.follow_cards = follow_cards  # follows are searched from this many cards
        self.seed = seed  # varies the samples (the view seeds them too)
        # when a list, each search's ``Trace`` is added to it (``bench.ai_bench``)
        self.traces: list[Trace] | None = None

    def act(self, view: SeatView) -> Action | None:
        if view.expecting != "play" or view.seat is None or view.to_act != view.seat:
            return super().act(view)
        if view.match_winner is not None:
            return None
        deadline = time.perf_counter() + self.think_ms / 1000.0
        # the card memory kept from this seat's last decision, as the heuristic keeps it
        ctx = Context(view, self.memory)
        self.memory = ctx.mem
        return self._checked(view, Play(tuple(self.choose(ctx, deadline))))

    def choose(self, ctx: Context, deadline: float) -> tuple[Card, ...]:
        """The expert's play for the seat to act (the context's seat)."""
        ranked = ranked_candidates(ctx)
        if len(ranked) == 1:
            return ranked[0]
        if ctx.view.trick and ctx.left > self.follow_cards:
            return ranked[0]
        trace = None
        if self.traces is not None:
            trace = Trace(deadline - self.think_ms / 1000.0)
            self.traces.append(trace)
        values = search(
            ctx, ranked[:CANDIDATES], deadline, self.worlds, self.seed, race=True, trace=trace
        )
        if values is None:
            return tuple(play_for(ctx)) if ctx.left <= endgame.ENDGAME_CARDS else ranked[0]
        return ranked[pick(values)]


def search(
    ctx: Context,
    candidates: Sequence[tuple[Card, ...]],
    deadline: float,
    worlds: int | None = None,
    seed: str = "",
    race: bool = False,
    trace: Trace | None = None,
) -> list[list[float]] | None:
    """Each candidate's value on each sampled deal, or None without enough samples.

    Sampling stops at ``deadline`` (a ``perf_counter`` time) or after ``worlds``
    samples; a sample is only started when the last one says it fits in the time left.
    With ``race`` (the expert's own decisions), from ``RACE_AFTER`` samples on a
    challenger that trails the heuristic's choice by a standard error is no longer
    played out (its list stops growing), so the time goes to the ones that might
    overrule it; when none is left the search ends. ``trace`` is told how it went.
    """
    view = ctx.view
    rng = random.Random(
        f"{seed}|{ctx.seat}|{format_cards(view.hand)}|{len(view.tricks)}|"
        f"{[format_cards(c) for _, c in view.trick]}"
    )
    sampler = Sampler(ctx)
    values: list[list[float]] = [[] for _ in candidates]
    alive = list(range(len(candidates)))
    sums = [0.0] * len(candidates)
    squares = [0.0] * len(candidates)
    limit = worlds if worlds is not None else 10_000
    start = time.perf_counter()
    done = 0
    ended = "samples"
    while done < limit:
        now = time.perf_counter()
        if (done and now + (now - start) / done > deadline) or (not done and now >= deadline):
            ended = "time"
            break
        world = sampler.sample(rng)
        if world is None:
            ended = "no deal"
            break
        hands, kitty = world
        ready = deal(ctx, hands)
        late = False
        for k, i in enumerate(alive):
            # past the deadline inside a sample (a slow one, a busy machine): the
            # sample is dropped whole, so the candidates stay paired
            if k and time.perf_counter() > deadline:
                for j in alive[:k]:
                    values[j].pop()
                late = True
                break
            values[i].append(outcome(ctx, hands, kitty, candidates[i], ready))
        if late:
            ended = "cut"
            break
        done += 1
        if race:
            # each challenger's paired differences summed as they come: the race asks after
            # every sample, and ``_gain`` reads them all (quadratic in the samples)
            for i in alive[1:]:
                d = values[i][-1] - values[0][-1]
                sums[i] += d
                squares[i] += d * d
            if done >= RACE_AFTER:
                alive = [0, *(i for i in alive[1:] if _keeps(sums[i], squares[i]))]
                if len(alive) == 1:
                    ended = "race"
                    break
    few = done < min(MIN_WORLDS, limit) and len(alive) > 1
    if trace is not None:
        trace.setup_ms = (start - trace.started) * 1000
        trace.samples, trace.ended, trace.too_few = done, ended, few
    return None if few else values


#: what may end a search (``Trace.ended``)
ENDINGS = ("race", "time", "cut", "samples", "no deal")


@dataclass(slots=True)
class Trace:
    """How one decision's search went, for the benchmark (``bench.ai_bench``)."""

    started: float  # the decision's start (``perf_counter``)
    setup_ms: float = 0.0  # from there to the first sample: memory, candidates, sampler
    samples: int = 0
    # what ended it: "samples" (``worlds``), "time" (the next sample would not fit),
    # "cut" (the deadline fell inside a sample, dropped), "race" (no challenger left),
    # "no deal" (no deal fits the memory)
    ended: str = ""
    too_few: bool = False  # under ``MIN_WORLDS`` samples: the heuristic's choice


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
                endgame._shuffle(rng, group)  # rng.shuffle's draws
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


def pick(values: Sequence[Sequence[float]], margin: float = MARGIN) -> int:
    """The candidate to play: the heuristic's (index 0) unless one is clearly better.

    Candidates dropped by the race (fewer values than the heuristic's) are out.
    """
    base = values[0]
    best, best_gain = 0, 0.0
    for i in range(1, len(values)):
        if len(values[i]) != len(base):
            continue
        gain = _gain(base, values[i], margin)
        if gain is not None and gain > best_gain:
            best, best_gain = i, gain
    return best


def _gain(base: Sequence[float], other: Sequence[float], margin: float) -> float | None:
    """The mean paired gain of ``other`` over ``base`` (the same deals, in order) when it
    is above ``margin`` standard errors, else None; 0 below two samples (no spread to
    judge by: the race keeps the challenger, the pick does not take it)."""
    n = len(other)
    if n < 2:
        return 0.0
    diffs = [a - b for a, b in zip(other, base[:n], strict=True)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean if mean > margin * math.sqrt(var / n) else None


def _keeps(total: float, squares: float) -> bool:
    """Whether a challenger whose paired differences to the heuristic's choice sum to
    ``total`` (their squares to ``squares``) is within one standard error of it: the
    race's ``_gain(base, other, -1.0) is not None``, from the sums. The mean ``T/n`` is
    above minus the standard error ``sqrt((S - T*T/n) / (n - 1) / n)`` exactly when
    ``T > 0`` or ``T*T < S``; exact, where a variance from the sums would round a tie
    (the values are whole points) either way."""
    return total > 0 or total * total < squares


def outcome(
    ctx: Context,
    hands: Sequence[Sequence[Card]],
    kitty: float,
    cand: tuple[Card, ...],
    world: rollout.World | None = None,
) -> float:
    """My side's value of playing ``cand`` now on one sampled deal: points and levels.

    ``world``, the same deal ready for ``rollout`` (``deal``), saves building it again
    for each candidate.
    """
    gained = play_candidate(ctx, hands, kitty, cand, world)
    total = ctx.view.attackers_points + gained
    winner, levels = level_outcome(round(total), ctx.rules)
    level_value = -levels if winner == DEALER else levels
    value = total + LEVEL_WEIGHT * level_value
    return value if ctx.attacking else -value


def deal(ctx: Context, hands: Sequence[Sequence[Card]]) -> rollout.World:
    """A sampled deal as ``rollout`` plays it out."""
    return rollout.World(ctx.order, hands, ctx.attackers)


def play_candidate(
    ctx: Context,
    hands: Sequence[Sequence[Card]],
    kitty: float,
    cand: tuple[Card, ...],
    world: rollout.World | None = None,
) -> float:
    """The attackers' points from now to the end of the hand if I play ``cand``.

    ``hands`` is left as it is (every candidate is played on the same deal, a copy of
    ``world``): a single or a pair goes to ``rollout``, a tractor or a throw's trick is
    finished through the rules library (``_general_trick``).
    """
    view = ctx.view
    trump, rules = ctx.trump, ctx.rules
    attackers = ctx.attackers
    me = ctx.seat
    total = 0.0
    play = cand
    if not view.trick and len(cand) > 1 and len(decompose_in(ctx.order, cand)) > 1:
        others = [hands[s] for s in range(4) if s != me]
        forced = tuple(resolve_throw(cand, others, trump, rules))
        if len(forced) != len(cand):
            penalty = rules.throw_penalty * (len(cand) - len(forced))
            total += -penalty if attackers[me] else penalty
            play = forced
    trick: list[tuple[int, tuple[Card, ...]]] = [(s, tuple(c)) for s, c in view.trick]
    trick.append((me, play))
    world = rollout.World(ctx.order, hands, attackers) if world is None else world.copy()
    world.take_cards(me, play)
    turns = heuristic_leads(ctx.left)
    if not turns and rollout.simple(trick[0][1]):
        return total + rollout.play_out(world, trick, trump, rules, kitty)
    # the heuristic leading next, or a tractor or throw under way (the general policy)
    return total + _play_on(ctx, world, trick, kitty, turns)


def heuristic_leads(left: int) -> int:
    """How many leads after a decision with ``left`` cards in hand the heuristic makes in
    each play-out (``_play_on``): ``LEADS_EARLY`` from more than 12 cards, ``LEADS_LATE``
    from ``LATE_CARDS`` down, none between (README, search notes of 1 Dec 06:15)."""
    if left > 12:
        return LEADS_EARLY
    return LEADS_LATE if left <= LATE_CARDS else 0


def _play_on(
    ctx: Context,
    world: rollout.World,
    trick: list[tuple[int, tuple[Card, ...]]],
    kitty: float,
    turns: int,
) -> float:
    """The attackers' points from ``trick`` (under way, any lead) to the hand's end, the
    heuristic making the next ``turns`` leads from the leader's view of the sampled deal
    (``_lead_for``) and the fast policy the rest: the heuristic's leads are what the fast
    policy imitates worst (the real-deal screen)."""
    view = ctx.view
    trump, rules = ctx.trump, ctx.rules
    att = world.att
    records = list(view.tricks)
    taken = view.attackers_points
    total = 0.0
    while True:
        if rollout.simple(trick[0][1]):
            winner, pts = rollout.play_trick(world, trick)
        else:
            winner, pts = _general_trick(ctx, world, trick)
        if att[winner]:
            total += pts
            taken += pts
        if world.empty(winner):
            if att[winner]:
                total += kitty * kitty_multiplier(trick[0][1], trump, rules)
            return total
        hand = world.cards(winner)
        if not turns or len(hand) < LEAD_MIN:
            return total + rollout.play_from(world, winner, trump, rules, kitty)
        turns -= 1
        records.append(TrickRecord(trick[0][0], tuple(trick), winner, pts))
        first = _lead_for(ctx, world, winner, hand, tuple(records), taken)
        world.take_cards(winner, first)
        trick = [(winner, first)]


def _general_trick(
    ctx: Context, world: rollout.World, trick: list[tuple[int, tuple[Card, ...]]]
) -> tuple[int, int]:
    """Finish a trick the fast policy does not play (a tractor or throw led): its winner
    and points, by ``endgame``'s general policy."""
    hands = [world.cards(s) for s in range(4)]
    attacker_set = {s for s in range(4) if world.att[s]}
    leader = trick[0][0]
    while len(trick) < 4:
        seat = (leader + len(trick)) % 4
        chosen = endgame._policy(ctx, hands, trick, seat, attacker_set)
        for card in chosen:
            hands[seat].remove(card)
        world.take_cards(seat, chosen)
        trick.append((seat, chosen))
    plays = [c for _, c in trick]
    winner = trick[trick_winner(plays, ctx.trump, ctx.rules)][0]
    return winner, sum(points(c) for c in plays)


def _lead_for(
    ctx: Context,
    world: rollout.World,
    seat: int,
    hand: list[Card],
    records: tuple[TrickRecord, ...],
    taken: int,
) -> tuple[Card, ...]:
    """The heuristic's lead for ``seat`` holding ``hand`` on the sampled deal, from what
    that seat would see (the dealer's kitty only when the searching seat is the dealer)."""
    view = ctx.view
    sizes = world.sizes
    seen = view._replace(
        seat=seat,
        hand=tuple(hand),
        hand_sizes=(sizes[0], sizes[1], sizes[2], sizes[3]),
        to_act=seat,
        leader=seat,
        trick=(),
        tricks=records,
        attackers_points=taken,
        kitty=view.kitty if seat == view.dealer else None,
    )
    lead_ctx = Context(seen)
    return max(lead_candidates(lead_ctx), key=lambda cand: lead_score(lead_ctx, cand))
