"""Bidding during the deal (亮主): bid on the projected trump length, not today's.

The player is asked after every card it is dealt. For each suit it could bid it
projects its final trump count: the trumps it holds plus, for each card still to
come, the share of trumps among the cards it has not seen (36 of 108 with a
trump suit and two decks, 12 in no trump). It bids when that projection (plus a
little for jokers and trump pairs) clears a bar set above a fair share, and the
bar drops as the deal goes on: waiting costs the chance to bid at all.

Overcalls need a clear improvement; a partner's bid is overcalled only with a much
better hand; the player reinforces its own bid (自保) when it can.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

from bot.game import Declare, SeatView
from bot.rules import (
    ALL_CARDS,
    BIG_JOKER,
    SMALL_JOKER,
    TRUMP,
    Auction,
    Bid,
    Card,
    RuleSet,
    Trump,
    order_for,
    partner_of,
    team_of,
)
from bot.rules.units import counts_of

# the bar: fair share × factor + offset − drop × progress of the deal
BAR_FACTOR, BAR_OFFSET, BAR_DROP = 1.15, 0.6, 1.8
_INDEX = {card: i for i, card in enumerate(ALL_CARDS)}
OVERCALL_MARGIN = 1.5  # beat the opponents' suit by this much to take it away
PARTNER_MARGIN = 3.0  # and a partner's by this much over the bar


@lru_cache(maxsize=256)
def _trumps(level: str, suit: str | None, rules: RuleSet) -> frozenset[Card]:
    """The cards that would be trumps at ``level`` with ``suit`` (None: no trump)."""
    order = order_for(Trump(level, suit), rules)
    return frozenset(c for c in ALL_CARDS if order.suit_of[c] == TRUMP)


def _trump_total(level: str, suit: str | None, rules: RuleSet) -> int:
    return rules.decks * len(_trumps(level, suit, rules))


def suit_score(view: SeatView, suit: str | None) -> float:
    """Projected final trump length if ``suit`` were trump, plus a bonus for quality."""
    rules = view.rules
    trumps = _trumps(view.level, suit, rules)
    hand = view.hand
    counts = counts_of([c for c in hand if c in trumps])
    held = sum(counts.values())
    total = _trump_total(view.level, suit, rules)
    deck_size = rules.decks * len(ALL_CARDS)
    unknown = deck_size - len(hand)
    to_come = max(rules.hand_size - len(hand), 0)
    projected = held + (to_come * (total - held) / unknown if unknown else 0.0)
    pairs = sum(1 for k in counts.values() if k >= 2)
    bonus = 0.5 * counts.get(BIG_JOKER, 0) + 0.3 * counts.get(SMALL_JOKER, 0) + 0.5 * pairs
    return projected + bonus


@lru_cache(maxsize=64)
def _shown_by(levels: tuple[str, str]) -> frozenset[Card]:
    """The cards a bid may show: jokers and both teams' level cards."""
    return frozenset(c for c in ALL_CARDS if c.is_joker or c.rank in levels)


def _showable(hand: Sequence[Card], levels: tuple[str, str]) -> tuple[Card, ...]:
    """The cards of ``hand`` a bid could show, in one order: the bids a hand allows
    depend on these alone, and they change at only a few of the cards dealt."""
    shown = _shown_by(levels)
    return tuple(sorted([c for c in hand if c in shown], key=_INDEX.__getitem__))


# ``_options``' answers by what ``SeatView.auction`` is made of, the seat and its showable
# cards (a bounded dict, not an ``lru_cache``: the key is made without an ``Auction``)
_OPTIONS: dict[tuple[object, ...], tuple[Bid, ...]] = {}
_OPTIONS_MAX = 4096


def _options(view: SeatView, seat: int) -> tuple[Bid, ...]:
    """``view.auction.options`` for ``seat``'s hand: asked after every card dealt, it was
    a tenth of the heuristic's time, mostly for the same answer as the card before. The
    key holds every field of the view the auction is made of."""
    showable = _showable(view.hand, view.levels)
    key = (view.rules, view.levels, view.dealer, view.bids, view.phase, seat, showable)
    found = _OPTIONS.get(key)
    if found is None:
        if len(_OPTIONS) >= _OPTIONS_MAX:
            _OPTIONS.clear()
        found = _OPTIONS[key] = tuple(view.auction.options(showable, seat))
    return found


def bar(view: SeatView) -> float:
    """The projected score a bid needs: a fair share plus a margin that shrinks."""
    rules = view.rules
    fair = _trump_total(view.level, "S", rules) * rules.hand_size / (rules.decks * len(ALL_CARDS))
    progress = view.dealt / view.deal_total if view.deal_total else 1.0
    if view.expecting == "end_bidding":
        progress = 1.0
    return fair * BAR_FACTOR + BAR_OFFSET - BAR_DROP * progress


def choose_bid(view: SeatView) -> Declare | None:
    """The bid to make now, or None to wait."""
    assert view.seat is not None
    seat = view.seat
    current = view.current_bid
    options = _options(view, seat)
    if not options:
        return None
    need = bar(view)
    scores: dict[str | None, float] = {}

    def score(suit: str | None) -> float:
        if suit not in scores:
            scores[suit] = suit_score(view, suit)
        return scores[suit]

    best: Bid | None = None
    best_key: tuple[float, int] | None = None
    for bid in options:
        suit = bid.suit
        if suit is None:
            if not _notrump_ok(view, current, score):
                continue
            value = need  # just good enough: no trump is a defensive choice
        else:
            value = score(suit)
            if current is None:
                if value < need:
                    continue
            elif current.seat == seat:
                if suit != current.suit or value < need - 1.0:
                    continue
            elif current.seat == partner_of(seat):
                if value < need + PARTNER_MARGIN or (
                    current.suit is not None and score(current.suit) >= need
                ):
                    continue
            else:
                theirs = score(current.suit) if current.suit is not None else 0.0
                if value < need - 0.5 or value < theirs + OVERCALL_MARGIN:
                    continue
        # prefer the better suit, then the stronger showing (harder to overcall)
        key = (value, bid.strength)
        if best_key is None or key > best_key:
            best, best_key = bid, key
    return None if best is None else Declare(best.cards)


def _notrump_ok(view: SeatView, current: Bid | None, score: Callable[[str | None], float]) -> bool:
    """No trump only late, against an opponent's suit we are short in."""
    assert view.seat is not None
    if current is None or team_of(current.seat) == team_of(view.seat) or current.suit is None:
        return False
    progress = view.dealt / view.deal_total if view.deal_total else 1.0
    fair = bar(view) - 0.6
    return progress >= 0.8 and score(current.suit) < fair - 2.0


ROUND_MARGIN_ATTACK = 1  # attackers: any longer trump also spoils the dealer's bury
ROUND_MARGIN_DEFEND = 4  # the dealer's side buried for this trump: change it only for much more


def choose_overcall(view: SeatView) -> Declare | None:
    """Overcall or pass in the round after burying (``overcall="after_bury"``, seed 000).

    The hand is complete and the trump is known, so compare trump lengths directly:
    the number of cards that would be trump under each overcall this seat can make
    against the number under today's trump. The attackers overcall for any gain (a
    new trump also wastes the dealer's bury); the dealer's side only for a large one.
    None means pass.
    """
    assert view.seat is not None and view.trump is not None
    auction = Auction(view.levels, view.dealer, view.bids, view.rules, round=True)
    options = auction.options(view.hand, view.seat)
    if not options:
        return None

    def length(suit: str | None) -> int:
        trumps = _trumps(view.level, suit, view.rules)
        return sum(1 for c in view.hand if c in trumps)

    now = length(view.trump.suit)
    margin = ROUND_MARGIN_ATTACK if view.is_attacker(view.seat) else ROUND_MARGIN_DEFEND
    best: tuple[int, int, Bid] | None = None
    for bid in options:
        gain = length(bid.suit) - now
        if gain >= margin and (best is None or (gain, bid.strength) > best[:2]):
            best = (gain, bid.strength, bid)
    return None if best is None else Declare(best[2].cards)
