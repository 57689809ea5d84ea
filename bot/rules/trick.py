"""Who wins a trick, including ruffs and over-ruffs of throws.

A play can win only if it is all of the led effective suit or all trumps and its
cards can be laid out in the lead's format. Plays in the format compare by the
strongest unit of the lead's strongest shape (RULES.md "Winning the trick"): the
pair against ``5 44``, the highest card against singles. A ruff beats any play of
the led plain suit; equal never beats, so the first played keeps the trick.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Card, check_copies
from .ruleset import DEFAULT_RULES, RuleSet
from .trump import TRUMP, Order, Trump, order_for
from .units import SINGLE, Format, counts_of, decompose_in, fit, format_of, placements


def play_value(order: Order, cards: Sequence[Card], fmt: Format) -> int | None:
    """The play's strength in the lead's format, or None if it cannot take that form.

    Tries every layout (rbtying #397: a play can split more than one way) and keeps
    the best value of the strongest shape's unit.
    """
    suit = order.suit_of_play(list(cards))
    if suit is None or sum(w * n for w, n in fmt) != len(cards):
        return None
    top = fmt[0]
    if top == SINGLE:
        return max(order.tier[c] for c in cards)
    counts = counts_of(cards)
    others = [s for s in fmt[1:] if s != SINGLE]
    width = top[0]
    for placed in placements(order, suit, counts, top):
        for card in placed:
            counts[card] -= width
        rest = fit(order, suit, counts, others)
        for card in placed:
            counts[card] += width
        if rest is not None:
            return order.tier[placed[-1]]
    return None


def trick_winner(
    plays: Sequence[Sequence[Card]], trump: Trump, rules: RuleSet | None = None
) -> int:
    """Index of the winning play; ``plays[0]`` is the (resolved) lead."""
    rules = rules or DEFAULT_RULES
    order = order_for(trump, rules)
    lead = plays[0]
    if len(lead) > 1:
        check_copies(lead, rules.decks)  # the follows were checked as they were played
    if lead.count(lead[0]) == len(lead):
        return _top_winner(order, plays)
    fmt = format_of(decompose_in(order, lead))
    led = order.suit_of[lead[0]]
    best = 0
    best_trump = led == TRUMP
    best_value = play_value(order, lead, fmt)
    assert best_value is not None
    for i in range(1, len(plays)):
        play = plays[i]
        suit = order.suit_of_play(list(play))
        if suit != led and suit != TRUMP:
            continue
        value = play_value(order, play, fmt)
        if value is None:
            continue
        is_trump = suit == TRUMP
        if (is_trump and not best_trump) or (is_trump == best_trump and value > best_value):
            best, best_trump, best_value = i, is_trump, value
    return best


def _top_winner(order: Order, plays: Sequence[Sequence[Card]]) -> int:
    """A single, pair or triple led (most tricks): the highest card, or as many identical
    cards, of the led suit or trumps. In these formats only identical cards have a
    value, their tier (what ``play_value`` finds, without its search)."""
    suit_of, tier = order.suit_of, order.tier
    lead = plays[0]
    width = len(lead)
    led = suit_of[lead[0]]
    best, best_trump, best_tier = 0, led == TRUMP, tier[lead[0]]
    for i in range(1, len(plays)):
        play = plays[i]
        card = play[0]
        if width > 1 and (len(play) != width or play.count(card) != width):
            continue
        suit = suit_of[card]
        if suit == TRUMP:
            if not best_trump or tier[card] > best_tier:
                best, best_trump, best_tier = i, True, tier[card]
        elif suit == led and not best_trump and tier[card] > best_tier:
            best, best_tier = i, tier[card]
    return best


def single_winner(order: Order, cards: Sequence[Card]) -> int:
    """Index of the winning card of a trick of single cards, ``cards[0]`` led: the first
    of the highest trumps, else of the highest cards of the led suit.

    ``trick_winner`` answers the same with its own loop, cheaper for callers holding
    plays (lists of cards, as the computer players do); this is for the match, which
    has a finished trick's four cards at hand."""
    power = order.single_power[order.suit_of[cards[0]]]
    values = [*map(power.__getitem__, cards)]
    return values.index(max(values))
