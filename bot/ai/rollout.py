"""Fast play-outs of one sampled deal: the expert's rollout engine.

A rollout plays the rest of a hand on a sampled deal (every hand known: it is a
sample, not the real deal) with a simple perfect-information policy, and returns
the attackers' points still to come, kitty bonus included. The expert runs
thousands of them per decision, so this module trades generality for speed:

* leads are single cards or pairs (identical cards), except a hand that is one tractor,
  led whole as the last trick (everyone plays out; see ``lead``); the expert's own candidates
  (tractors, throws) and a trick already under way with such a lead are finished
  by ``endgame``'s general policy through the rules library, then play goes on here;
* a seat whose partner holds the trick for sure feeds it points; otherwise it
  takes the trick with the cheapest card that holds it, a point card first, when
  points are at stake, when the card is not a trump or when it carries points
  itself, else it sheds its cheapest card;
* a leader cashes what nobody can beat (pairs first) in a side suit, and trumps
  only once no side suit is left; else leads low into a suit its partner wins, else
  a low side pair without points, else its cheapest card.

The policy imitates the heuristic, whose continuation is what a search should
predict: on 7,548 decisions of heuristic hands (seed 1000, each of the heuristic's
four best candidates continued by four heuristics on the real deal), the gains a
play-out on the real deal shows correlate 0.184 with the real ones, against 0.136
when trumps were cashed first (the play-outs drew trumps every hand, which the
heuristic rarely does), points were not banked by ruffing, and low pairs were split.

The pair rules follow the strict ladder (a pair must be followed with a pair when
held, else two cards of the suit), which is legal under every ``follow_shape``; the
follows a seat weighs are ``world.pair_options``.

Cards are ``world``'s small integer codes inside (``Ids``); they cross at the edges
(``play_out``, ``play_trick``, ``play_from``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bot.rules import (
    Card,
    RuleSet,
    Trump,
    kitty_multiplier,
    partner_of,
    trick_winner,
)
from bot.rules.units import decompose_in

from .world import GROUP, TG, Ids, World, flat, low_pair, pair_options, top_pair

Plays = list[tuple[int, tuple[Card, ...]]]
IdPlays = list[tuple[int, Ids]]
# constants are ``Final``: compiled, a module's other globals are a dictionary's lookups
KEEP_PAIRS: Final = True  # a seat shedding a card keeps its pairs whole (as the heuristic does)
PAIR_COST: Final = 50  # shedding cost of a card with a twin: above any tier, below a point


def _tractor(w: World, cards: list[int]) -> Ids:
    """``cards`` (one suit, sorted) when they are one tractor, else ()."""
    n = len(cards)
    if n < 4 or n % 2 or any(cards[i] != cards[i + 1] for i in range(0, n, 2)):
        return ()
    units = decompose_in(w.order, w.cards_of(cards))
    return tuple(cards) if len(units) == 1 and units[0].length > 1 else ()


# --- the policy -------------------------------------------------------------------------------


def lead(w: World, seat: int) -> Ids:
    """The leader's unit: cash a sure winner, else feed the partner's suit, else shed.

    A hand that is one tractor is led whole, the last trick: led pair by pair, its
    kitty bonus counted 4 times where the tractor's counts up to 64 (a dealer's side
    that let the attackers in with a trump tractor in hand conceded 64 times a 15-point
    kitty, unseen by play-outs that led it as pairs).
    """
    hands = w.hands
    by = hands[seat]
    groups = 0
    for cards in by:
        if cards:
            groups += 1
    if groups == 1:
        for cards in by:
            if cards:
                whole = _tractor(w, cards)
                if whole:
                    return whole
    tier, pts = w.tier, w.points
    left, right = hands[(seat + 1) % 4], hands[(seat + 3) % 4]
    best: Ids = ()
    best_key = 0
    for g in range(5):
        cards = by[g]
        if not cards:
            continue
        is_trump = g == TG
        if is_trump and groups > 1:
            continue  # trumps are held while a side suit is left (see the module's notes)
        top = top_pair(cards) if len(cards) >= 2 else -1
        if top >= 0 and w.safe(seat, seat, 1, g, 2, is_trump, tier[top]):
            key = 2_000_000 + 2 * pts[top] * 1_000 + tier[top]
            if not best or key > best_key:
                best, best_key = (top, top), key
            continue
        # the high card is safe when neither opponent follows higher or ruffs
        # (``World.safe`` for a single lead, inlined: rollouts lead thousands of times)
        high = cards[-1]
        t = tier[high]
        theirs = left[g]
        if (theirs and tier[theirs[-1]] > t) or (not theirs and not is_trump and left[TG]):
            continue
        theirs = right[g]
        if (theirs and tier[theirs[-1]] > t) or (not theirs and not is_trump and right[TG]):
            continue
        key = 1_000_000 + pts[high] * 1_000 + t
        if not best or key > best_key:
            best, best_key = (high,), key
    if best:
        return best
    partner = partner_of(seat)
    pby = hands[partner]
    cheapest: Ids = ()
    cheap_key = 0
    for g in range(5):
        cards = by[g]
        if not cards:
            continue
        low = cards[0]
        unit: Ids = (low,)
        # lexicographic (trump, points, tier) as one number: tiers lie in -1000..31
        cost = (g == TG) * 10_000_000 + pts[low] * 10_000 + tier[low]
        if g != TG:
            pcards = pby[g]
            pair = low_pair(cards)
            if pcards and (
                w.safe(partner, seat, 3, g, 1, False, tier[pcards[-1]])
                and not w.beats_single((seat + 1) % 4, g, False, tier[pcards[-1]])
            ):
                cost = -10_000 + tier[low]
            elif pair >= 0 and not pts[pair]:
                # a low side pair before any single, as the heuristic leads
                unit, cost = (pair, pair), tier[pair] - 1000
        if not cheapest or cost < cheap_key:
            cheapest, cheap_key = unit, cost
    assert cheapest
    return cheapest


def follow(
    w: World, seat: int, trick: IdPlays, table_points: int, win: tuple[int, bool, int]
) -> Ids:
    """A follow to a single or a pair (identical cards) lead; ``win`` is ``_winner``'s.
    To a tractor (the last trick, ``lead``) a seat plays its whole hand."""
    lead_cards = trick[0][1]
    if len(lead_cards) > 2:
        return tuple(flat(w.hands[seat]))
    if len(lead_cards) == 2:
        return _follow_pair(w, seat, trick, table_points, win)
    tier, pts = w.tier, w.points
    led = lead_cards[0] // GROUP
    by = w.hands[seat]
    legal = by[led] or flat(by)
    if len(legal) == 1:
        return (legal[0],)
    leader = trick[0][0]
    n = len(trick)
    win_seat, win_trump, win_tier = win
    if w.att[win_seat] == w.att[seat] and w.safe(
        win_seat, leader, n + 1, led, 1, win_trump, win_tier
    ):
        feed = w.feed
        fed = legal[0]
        fed_key = feed[fed]
        for card in legal:
            if feed[card] > fed_key:
                fed, fed_key = card, feed[card]
        return (fed,)
    best = -1
    best_key = 0
    cheap = w.cheap
    for card in legal:
        g = card // GROUP
        trump = g == TG
        if g != led and not trump:
            continue
        t = tier[card]
        if not ((trump and not win_trump) or (trump == win_trump and t > win_tier)):
            continue
        # the cheapest card that wins for sure, a point card first: it adds to the trick
        key = cheap[card] - 300 * pts[card]
        if best >= 0 and key >= best_key:
            continue
        if w.safe(seat, leader, n + 1, led, 1, trump, t):
            best, best_key = card, key
    if best >= 0 and (table_points > 0 or best // GROUP != TG or pts[best]):
        return (best,)
    if KEEP_PAIRS:
        return (_shed(legal, cheap),)
    return (min(legal, key=cheap.__getitem__),)


def _shed(cards: list[int], cheap: list[int]) -> int:
    """The cheapest card of ``cards`` (sorted, twins side by side) that breaks no pair."""
    best = cards[0]
    best_key = -1
    last = len(cards) - 1
    for i in range(last + 1):
        card = cards[i]
        key = cheap[card]
        if (i and cards[i - 1] == card) or (i < last and cards[i + 1] == card):
            key += PAIR_COST
        if best_key < 0 or key < best_key:
            best, best_key = card, key
    return best


def _follow_pair(
    w: World, seat: int, trick: IdPlays, table_points: int, win: tuple[int, bool, int]
) -> Ids:
    tier = w.tier
    led = trick[0][1][0] // GROUP
    options = pair_options(w, w.hands[seat], led)
    if len(options) == 1:
        return options[0]
    leader = trick[0][0]
    n = len(trick)
    win_seat, win_trump, win_tier = win
    cheap, feed = w.cheap, w.feed
    if w.att[win_seat] == w.att[seat] and w.safe(
        win_seat, leader, n + 1, led, 2, win_trump, win_tier
    ):
        fed = options[0]
        fed_key = feed[fed[0]] + feed[fed[1]]
        for option in options:
            key = feed[option[0]] + feed[option[1]]
            if key > fed_key:
                fed, fed_key = option, key
        return fed
    best: Ids = ()
    best_key = 0
    for option in options:
        card = option[0]
        g = card // GROUP
        if option[1] != card or (g != led and g != TG):
            continue
        trump = g == TG
        t = tier[card]
        if not ((trump and not win_trump) or (trump == win_trump and t > win_tier)):
            continue
        key = cheap[card]
        if best and key >= best_key:
            continue
        if w.safe(seat, leader, n + 1, led, 2, trump, t):
            best, best_key = option, key
    if best and (table_points > 0 or best[0] // GROUP != TG):
        return best
    low = options[0]
    low_key = cheap[low[0]] + cheap[low[1]]
    for option in options:
        key = cheap[option[0]] + cheap[option[1]]
        if key < low_key:
            low, low_key = option, key
    return low


def _winner(w: World, trick: IdPlays, led: int) -> tuple[int, bool, int]:
    """The seat winning a single or pair trick so far, whether by trump, and its tier."""
    seat, first = trick[0]
    win = (seat, led == TG, w.tier[first[0]])
    for seat, cards in trick[1:]:
        win = _after(w, win, seat, cards, led)
    return win


def _after(
    w: World, win: tuple[int, bool, int], seat: int, cards: Ids, led: int
) -> tuple[int, bool, int]:
    """``win`` once ``seat`` has played ``cards``: a higher card (pair) of the led suit
    or a trump above any trump so far takes over."""
    card = cards[0]
    if len(cards) == 2 and cards[1] != card:
        return win
    g = card // GROUP
    t = w.tier[card]
    if g == TG:
        if not win[1] or t > win[2]:
            return (seat, True, t)
    elif g == led and not win[1] and t > win[2]:
        return (seat, False, t)
    return win


def simple(cards: Sequence[Card]) -> bool:
    """Whether a lead is one this engine plays out: a single or a pair."""
    return len(cards) == 1 or (len(cards) == 2 and cards[0] is cards[1])


def _play_trick(w: World, trick: IdPlays) -> tuple[int, int]:
    pts = w.points
    leader = trick[0][0]
    led = trick[0][1][0] // GROUP
    win = _winner(w, trick, led)
    table = 0
    for _, played in trick:
        for card in played:
            table += pts[card]
    while len(trick) < 4:
        seat = (leader + len(trick)) % 4
        cards = follow(w, seat, trick, table, win)
        w.take(seat, cards)
        trick.append((seat, cards))
        for card in cards:
            table += pts[card]
        win = _after(w, win, seat, cards, led)
    return win[0], table


def play_trick(w: World, trick: Plays) -> tuple[int, int]:
    """Finish ``trick`` (a single or pair lead, possibly just led; the plays are added to
    it): its winner and points."""
    ids: IdPlays = [(seat, w.ids(cards)) for seat, cards in trick]
    winner, table = _play_trick(w, ids)
    trick.extend((seat, w.cards_of(cards)) for seat, cards in ids[len(trick) :])
    return winner, table


def play_from(w: World, leader: int, trump: Trump, rules: RuleSet, kitty_points: float) -> float:
    """The attackers' points from ``leader``'s lead, by the fast policy, to the hand's end."""
    first = lead(w, leader)
    w.take(leader, first)
    return _play_out(w, [(leader, first)], trump, rules, kitty_points)


def play_out(
    w: World,
    trick: Plays,
    trump: Trump,
    rules: RuleSet,
    kitty_points: float,
) -> float:
    """Play the hand to its end from ``trick`` (a single or pair lead, possibly just led).

    Returns the attackers' points from here on, kitty bonus included.
    """
    return _play_out(w, [(seat, w.ids(cards)) for seat, cards in trick], trump, rules, kitty_points)


def _play_out(w: World, trick: IdPlays, trump: Trump, rules: RuleSet, kitty_points: float) -> float:
    total = 0.0
    pts = w.points
    while True:
        leader = trick[0][0]
        if len(trick[0][1]) > 2:  # a tractor led whole: the last trick
            while len(trick) < 4:
                seat = (leader + len(trick)) % 4
                cards = follow(w, seat, trick, 0, (leader, False, 0))
                w.take(seat, cards)
                trick.append((seat, cards))
            plays = [w.cards_of(cards) for _, cards in trick]
            if w.att[trick[trick_winner(plays, trump, rules)][0]]:
                total += sum(pts[c] for _, cards in trick for c in cards)
                total += kitty_points * kitty_multiplier(plays[0], trump, rules)
            return total
        winner, table = _play_trick(w, trick)
        if w.att[winner]:
            total += table
        if w.empty(winner):
            if w.att[winner] and kitty_points:
                total += kitty_points * kitty_multiplier(w.cards_of(trick[0][1]), trump, rules)
            return total
        cards = lead(w, winner)
        w.take(winner, cards)
        trick = [(winner, cards)]
