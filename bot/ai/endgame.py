"""The last few cards: sample the hidden hands, play the candidates out, pick the best.

With few cards left the heuristic's guesses matter less than exact consequences:
who keeps the lead for the last trick, whether the kitty goes to the attackers and
at what multiplier. From ``ENDGAME_CARDS`` cards in hand, the heuristic's best few
candidates are each played out on ``WORLDS`` sampled deals of the unseen cards
(consistent with known voids, no-pair inferences and known cards; for everyone
but the dealer, the kitty is sampled too). In each world every seat plays a
simple perfect-information policy (cash what nobody can beat, feed a partner who
wins for sure, win cheaply when possible, else shed the cheapest card), and the
candidate with the best mean for my side (the attackers' points still to come,
kitty bonus included, signed by side) is played.

The sampler's random numbers are seeded from the view itself, so a decision is a
pure function of the view (duplicate deals stay exact, hints are stable).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.rules import (
    ALL_CARDS,
    POINTS_OF,
    TRUMP,
    Card,
    Order,
    follow_candidates,
    format_cards,
    points,
    resolve_throw,
    trick_winner,
)
from bot.rules.units import decompose_in

from .context import Context
from .deals import Deck, sample

ENDGAME_CARDS = 3  # start sampling when my hand is this small
WORLDS = 20  # sampled deals per decision
CANDIDATES = 4  # the heuristic's best candidates that are played out

Plays = list[tuple[int, tuple[Card, ...]]]


def choose(ctx: Context, ranked: Sequence[tuple[Card, ...]]) -> tuple[Card, ...]:
    """The best of the heuristic's ``ranked`` candidates (best first) by playing them out."""
    candidates = list(ranked[:CANDIDATES])
    if len(candidates) < 2:
        return candidates[0]
    view = ctx.view
    rng = random.Random(
        f"{ctx.seat}|{format_cards(view.hand)}|{len(view.tricks)}|"
        f"{[format_cards(c) for _, c in view.trick]}"
    )
    totals = [0.0] * len(candidates)
    worlds = 0
    attackers = {s for s in range(4) if view.is_attacker(s)}
    deck = Deck(ctx)
    # a lead of more than one unit is a throw: the other hands may force part back
    throws = [not view.trick and len(decompose_in(ctx.order, c)) > 1 for c in candidates]
    # a world without a point in any hand, on the table or in the kitty, where no throw
    # can fail, is worth nothing to every candidate: it counts, without play-outs
    # (adding their zeros would leave every total as it is)
    may_be_pointless = not any(throws) and not any(points(c) for _, c in view.trick)
    for _ in range(WORLDS):
        world = sample(ctx, rng, deck)
        if world is None:
            continue
        hands, kitty = world
        worlds += 1
        if may_be_pointless and not kitty and not any(map(points, hands)):
            continue
        for i, cand in enumerate(candidates):
            copy = [list(h) for h in hands]
            totals[i] += _rollout(ctx, copy, kitty, cand, attackers, throws[i])
    if not worlds:
        return candidates[0]
    # the heuristic's order breaks ties (and small noise) in its favour
    best = max(range(len(candidates)), key=lambda i: totals[i] / worlds - 0.01 * i)
    return candidates[best]


# --- playing a world out ------------------------------------------------------------------
#
# Tricks led by a single card (nearly all of the last three) take a short path: such a
# trick is won by the first of its highest ``single_power`` values (what ``trick_winner``
# finds), so "can this seat beat the winner" is one comparison with the seat's best card
# and the candidate follows are compared by per-card keys made once per order. The
# decisions are the general path's to the card (``tests/ai/test_heuristic_same.py``).


class _Keys:
    """Per card of one order: the shedding key (``_cheap`` of the single card), the
    feeding key (``_policy``'s) and the leading key (``_lead``'s), for a single card."""

    __slots__ = ("cheap", "feed", "lead")

    def __init__(self, order: Order) -> None:
        suit_of, tier = order.suit_of, order.tier
        self.cheap: dict[Card, tuple[int, int, int]] = {}
        self.feed: dict[Card, tuple[int, int, int, int]] = {}
        self.lead: dict[Card, tuple[int, int, int]] = {}
        for card in ALL_CARDS:
            trump, pts, t = int(suit_of[card] == TRUMP), POINTS_OF[card], tier[card]
            self.cheap[card] = (trump, pts, t)
            self.feed[card] = (pts, -trump, -pts, -t)
            self.lead[card] = (1, pts, t)


_KEYS: dict[Order, _Keys] = {}


def _keys(order: Order) -> _Keys:
    keys = _KEYS.get(order)
    if keys is None:
        keys = _KEYS[order] = _Keys(order)
    return keys


def _rollout(
    ctx: Context,
    hands: list[list[Card]],
    kitty: float,
    cand: tuple[Card, ...],
    attackers: set[int],
    throw: bool,
) -> float:
    """My side's value of playing ``cand`` now in this world (signed attackers' points);
    ``throw``: ``cand`` is a lead of more than one unit."""
    view = ctx.view
    trump, rules = ctx.trump, ctx.rules
    me = ctx.seat
    leader = view.leader if view.trick else me
    assert leader is not None
    trick: Plays = [(s, tuple(c)) for s, c in view.trick]
    total = 0.0
    play = tuple(cand)
    if throw:
        others = [hands[s] for s in range(4) if s != me]
        forced = tuple(resolve_throw(play, others, trump, rules))
        if len(forced) != len(play):
            penalty = rules.throw_penalty * (len(play) - len(forced))
            total += -penalty if me in attackers else penalty
            play = forced
    _take(hands[me], play)
    trick.append((me, play))
    keys = _keys(ctx.order)
    while True:
        if len(trick[0][1]) == 1:
            winner = _finish_single(ctx, hands, trick, attackers, keys)
        else:
            while len(trick) < 4:
                seat = (leader + len(trick)) % 4
                chosen = _policy(ctx, hands, trick, seat, attackers)
                _take(hands[seat], chosen)
                trick.append((seat, chosen))
            winner = trick[trick_winner([c for _, c in trick], trump, rules)][0]
        plays = [c for _, c in trick]
        if winner in attackers:
            total += sum([POINTS_OF[c] for play in plays for c in play])
        if not hands[winner]:
            if winner in attackers:
                total += kitty * ctx.multiplier(plays[0])
            break
        if len(hands[winner]) == 1:  # the last trick: every hand plays its one card
            return _last_trick(ctx, hands, winner, kitty, attackers, total, me in attackers)
        leader = winner
        lead = _lead(ctx, hands, winner, attackers)
        _take(hands[winner], lead)
        trick = [(winner, lead)]
    return total if me in attackers else -total


def _last_trick(
    ctx: Context,
    hands: list[list[Card]],
    leader: int,
    kitty: float,
    attackers: set[int],
    total: float,
    mine: bool,
) -> float:
    """``_rollout``'s end when every hand holds one card: nobody has a choice, so the
    trick is won by the first of its highest single powers; the points are whole
    numbers, so adding them at once sums to the same figure."""
    lead = hands[leader][0]
    power = ctx.order.single_power[ctx.order.suit_of[lead]]
    best, winner, won = -2, leader, 0
    for i in range(4):
        seat = (leader + i) % 4
        card = hands[seat][0]
        won += POINTS_OF[card]
        value = power[card]
        if value > best:
            best, winner = value, seat
    if winner in attackers:
        total += won + kitty * ctx.multiplier((lead,))
    return total if mine else -total


def _finish_single(
    ctx: Context, hands: list[list[Card]], trick: Plays, attackers: set[int], keys: _Keys
) -> int:
    """Plays a trick led by a single card to its end as ``_policy`` would, by powers and
    per-card keys, the winner and its power carried along; the winner's seat."""
    suit_of = ctx.order.suit_of
    led = suit_of[trick[0][1][0]]
    power = ctx.order.single_power[led]
    cheap, feed = keys.cheap.__getitem__, keys.feed.__getitem__
    leader = trick[0][0]
    # the winner so far: the first of the highest powers (as ``trick_winner`` finds)
    best, winner = -2, leader
    for seat, cards in trick:
        value = power[cards[0]]
        if value > best:
            best, winner = value, seat
    while len(trick) < 4:
        played = len(trick)
        seat = (leader + played) % 4
        hand = hands[seat]
        pool = [c for c in hand if suit_of[c] == led] or hand
        options = pool if len(pool) == 1 else sorted(dict.fromkeys(pool), key=cheap)
        card = options[0]
        if len(options) > 1:
            side = seat in attackers
            if (winner in attackers) == side and not _single_beaten(
                ctx, hands, leader, played, led, best, side, attackers
            ):
                card = max(options, key=feed)
            else:
                for option in options:  # cheapest first: win for sure if it can be done
                    value = power[option]
                    if value > best and not _single_beaten(
                        ctx, hands, leader, played + 1, led, value, side, attackers
                    ):
                        card = option
                        break
        hand.remove(card)
        trick.append((seat, (card,)))
        value = power[card]
        if value > best:
            best, winner = value, seat
    return winner


def _take(hand: list[Card], cards: Sequence[Card]) -> None:
    for card in cards:
        hand.remove(card)


def _cheap(ctx: Context, cards: Sequence[Card]) -> tuple[int, int, int]:
    suit_of, tier = ctx.order.suit_of, ctx.order.tier
    return (
        sum(suit_of[c] == TRUMP for c in cards),
        points(cards),
        sum(tier[c] for c in cards),
    )


def _options(ctx: Context, hand: list[Card], lead: tuple[Card, ...]) -> list[tuple[Card, ...]]:
    if len(lead) == 1:
        suit_of = ctx.order.suit_of
        led = suit_of[lead[0]]
        pool = [c for c in hand if suit_of[c] == led] or hand
        return [(c,) for c in dict.fromkeys(pool)]
    # a seat's follows are asked again as it plays after being asked whether it can
    # beat the trick: kept per hand (in its order) and lead for the decision, cheapest
    # first (the order ``_policy`` tries them in; a stable sort of the rules' order)
    key = (tuple(hand), lead)
    found = ctx.follows.get(key)
    if found is None:
        found = ctx.follows[key] = sorted(
            (tuple(o) for o in follow_candidates(hand, lead, ctx.trump, ctx.rules, limit=12)),
            key=lambda o: _cheap(ctx, o),
        )
    return found


def _beaten_later(ctx: Context, hands: list[list[Card]], trick: Plays, attackers: set[int]) -> bool:
    """Whether a seat still to play, against the current winner, can take the trick."""
    plays = [c for _, c in trick]
    win = trick_winner(plays, ctx.trump, ctx.rules)
    w_side = trick[win][0] in attackers
    leader = trick[0][0]
    for i in range(len(trick), 4):
        seat = (leader + i) % 4
        if (seat in attackers) == w_side:
            continue
        for option in _options(ctx, hands[seat], plays[0]):
            if trick_winner([*plays, option], ctx.trump, ctx.rules) == len(plays):
                return True
    return False


def _single_beaten(
    ctx: Context,
    hands: list[list[Card]],
    leader: int,
    played: int,
    led: str,
    best: int,
    side: bool,
    attackers: set[int],
) -> bool:
    """``_beaten_later`` for a trick led by a single card whose winner has ``best`` power:
    a seat of the other side beats it with any card it may play of a higher power."""
    return _top_against(ctx, hands, leader, played, led, side, attackers) > best


def _top_against(
    ctx: Context,
    hands: list[list[Card]],
    leader: int,
    played: int,
    led: str,
    side: bool,
    attackers: set[int],
) -> int:
    """In a trick led by ``leader`` in ``led``, the highest power that a seat of the
    other side to play from the ``played``-th on may play (-2 for none)."""
    suit_of = ctx.order.suit_of
    power = ctx.order.single_power[led]
    top = -2
    for i in range(played, 4):
        seat = (leader + i) % 4
        if (seat in attackers) == side:
            continue
        hand = hands[seat]
        for card in [c for c in hand if suit_of[c] == led] or hand:
            if power[card] > top:
                top = power[card]
    return top


def _policy(
    ctx: Context, hands: list[list[Card]], trick: Plays, seat: int, attackers: set[int]
) -> tuple[Card, ...]:
    """A simple perfect-information player for the rollouts."""
    hand = hands[seat]
    side = seat in attackers
    if not trick:
        return _lead(ctx, hands, seat, attackers)
    plays = [c for _, c in trick]
    options = _options(ctx, hand, plays[0])
    if len(plays[0]) == 1:  # (a single's options are not kept, nor sorted)
        options = sorted(options, key=lambda o: _cheap(ctx, o))
    if len(options) == 1:
        return options[0]
    win = trick_winner(plays, ctx.trump, ctx.rules)
    ours = (trick[win][0] in attackers) == side
    if ours and not _beaten_later(ctx, hands, trick, attackers):
        return max(options, key=lambda o: (points(o), [-x for x in _cheap(ctx, o)]))
    for option in options:  # cheapest first: win for sure if it can be done
        wins = trick_winner([*plays, option], ctx.trump, ctx.rules) == len(plays)
        if wins and not _beaten_later(ctx, hands, [*trick, (seat, option)], attackers):
            return option
    return options[0]


def _lead(
    ctx: Context, hands: list[list[Card]], seat: int, attackers: set[int]
) -> tuple[Card, ...]:
    hand = hands[seat]
    order = ctx.order
    suit_of = order.suit_of
    units: list[tuple[Card, ...]] = []
    by_suit: dict[str, list[Card]] = {}
    for card in hand:
        by_suit.setdefault(suit_of[card], []).append(card)
    for cards in by_suit.values():
        if len(cards) == 1:  # what ``decompose_in`` makes of it
            units.append((cards[0],))
        else:
            units.extend(u.cards for u in decompose_in(order, cards))
    side = seat in attackers
    keys = _keys(order)
    # the biggest sure unit (multiplies the kitty), then the most points: the first
    # of the highest keys
    best: tuple[Card, ...] | None = None
    best_key = (0, 0, 0)
    tops: dict[str, int] = {}  # by led suit, ``_top_against``
    for unit in units:
        if len(unit) == 1:
            card = unit[0]
            led = suit_of[card]
            top = tops.get(led)
            if top is None:
                top = tops[led] = _top_against(ctx, hands, seat, 1, led, side, attackers)
            if top > order.single_power[led][card]:
                continue
            key = keys.lead[card]
        else:
            if _beaten_later(ctx, hands, [(seat, unit)], attackers):
                continue
            key = (len(unit), points(unit), order.tier[unit[-1]])
        if best is None or key > best_key:
            best, best_key = unit, key
    if best is not None:
        return best
    return (min(dict.fromkeys(hand), key=keys.cheap.__getitem__),)
