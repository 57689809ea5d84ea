"""Helpers for scripted matches: stacked decks and driving a match to a phase."""

from __future__ import annotations

from collections.abc import Sequence

from bot.game import SYSTEM, Bury, Deal, EndBidding, Match, fallback_action
from bot.rules import Card, RuleSet, deck, parse_cards


def stacked(
    hands: Sequence[str], kitty: str, start: int = 0, rules: RuleSet | None = None
) -> list[Card]:
    """A deck order that deals ``hands`` (by seat) when dealing starts at ``start``.

    Hands may be partial: the rest of the deck fills them in a fixed order.
    """
    rules = rules or RuleSet()
    size = rules.hand_size
    wanted = [parse_cards(h) for h in hands]
    kitty_cards = parse_cards(kitty)
    rest = deck(rules.decks)
    for card in [c for h in wanted for c in h] + kitty_cards:
        rest.remove(card)
    full = [h + [rest.pop() for _ in range(size - len(h))] for h in wanted]
    kitty_cards += [rest.pop() for _ in range(rules.kitty_size - len(kitty_cards))]
    assert not rest
    order: list[Card] = []
    for i in range(4 * size):
        seat = (start + i) % 4
        order.append(full[seat][i // 4])
    return order + kitty_cards


def to_play(match: Match, bids: Sequence[tuple[int, str]] = ()) -> Match:
    """Deal everything, make ``bids`` in order, close the bidding and bury the cheapest."""
    from bot.game import Declare

    match.apply(SYSTEM, Deal(4 * match.rules.hand_size))
    for seat, cards in bids:
        match.apply(seat, Declare(tuple(parse_cards(cards))))
    match.apply(SYSTEM, EndBidding())
    assert match.dealer is not None
    action = fallback_action(match.view(match.dealer))
    assert isinstance(action, Bury)
    match.apply(match.dealer, action)
    return match
