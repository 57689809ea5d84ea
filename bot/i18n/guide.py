"""The rules explained to players, by topic, with the variants a table plays.

Written for people learning the game, not as a specification (that is
docs/RULES.md). Every number a topic quotes (hand and kitty sizes, points, the
throw penalty, the kitty multipliers, the level thresholds) is computed from the
table's ``RuleSet`` through the rules library, so a variant can never make the
text wrong; ``variants`` describes every ``RuleSet`` field in words.

The bidding topic is put together from one paragraph per rule it depends on (how a
bid is shown, who deals a hand without a dealer, what a bid decides once the dealer
is known, when overcalls are made, what happens when nobody bids), each chosen in
the catalog by the ``RuleSet`` field that decides it, never by a preset's name: a
table's own mix of variants reads true, and no sentence of one variant shows under
another.
"""

from __future__ import annotations

from bot.i18n import t
from bot.rules import (
    ATTACKERS,
    DEALER,
    DRAW,
    MAX_REDEALS,
    RuleSet,
    Trump,
    hand_outcome,
    kitty_multiplier,
    parse_cards,
)

#: topic id -> catalog key, in the order players read them
TOPICS: dict[str, str] = {
    "overview": "guide-overview",
    "cards": "guide-cards",
    "bidding": "guide-bidding",
    "kitty": "guide-kitty",
    "following": "guide-following",
    "throws": "guide-throws",
    "scoring": "guide-scoring",
    "levels": "guide-levels",
    "variants": "guide-variants",
}
TITLES: dict[str, str] = {
    "overview": "guide-title-overview",
    "cards": "guide-title-cards",
    "bidding": "guide-title-bidding",
    "kitty": "guide-title-kitty",
    "following": "guide-title-following",
    "throws": "guide-title-throws",
    "scoring": "guide-title-scoring",
    "levels": "guide-title-levels",
    "variants": "guide-title-variants",
}

_SAMPLE_TRUMP = Trump("2", "S")
#: the last-trick leads whose kitty bonus the guide quotes, by catalog placeholder
_LEADS = {"single": "AH", "pair": "AH AH", "tractor": "AH AH KH KH", "long": "AH AH KH KH QH QH"}
#: with three decks also a triple and a 2-triple tractor (seed 002's linear bonus
#: differs most there: pair ×3, triple ×4, 2-pair tractor ×5, 2-triple tractor ×6)
_TRIPLE_LEADS = {"triple": "AH AH AH", "triples": "AH AH AH KH KH KH"}


def multipliers(rules: RuleSet) -> dict[str, int]:
    """The kitty bonus for each sample lead the table's decks can make."""
    leads = {**_LEADS, **(_TRIPLE_LEADS if rules.max_width >= 3 else {})}
    return {
        name: kitty_multiplier(parse_cards(lead), _SAMPLE_TRUMP, rules)
        for name, lead in leads.items()
    }


def _numbers(rules: RuleSet) -> dict[str, int | str]:
    return {
        "decks": rules.decks,
        "hand": rules.hand_size,
        "kitty": rules.kitty_size,
        "total": rules.total_points,
        "take": 2 * rules.step,
        "scoring": rules.scoring,
        "penalty": rules.throw_penalty,
        "cost": rules.throw_penalty * 3,  # the throws topic's example takes back 3 cards
        "triple": 0,  # 0: no triples at this table, the catalogs leave them out
        "triples": 0,
        **multipliers(rules),
    }


def bidding_text(locale: object, rules: RuleSet) -> str:
    """One paragraph per rule, each picked in the catalog by the field that decides it.

    So any mix of variants reads true; no sentence is tied to a preset.
    """
    fields = {
        "bidding": rules.bidding,
        "decks": rules.decks,
        "first_dealer": rules.first_dealer,
        "overcall": rules.overcall,
        "no_bid": rules.no_bid,
        "scoring": rules.scoring,
        "redeals": MAX_REDEALS,
    }
    keys = (
        "guide-bidding",
        "guide-bidding-open",
        "guide-bidding-dealer",
        "guide-bidding-when",
        "guide-bidding-none",
    )
    return "\n\n".join(t(locale, key, **fields) for key in keys)


def levels_text(locale: object, rules: RuleSet) -> str:
    """One line per result band, found by asking ``hand_outcome`` point by point."""
    points = range(0, rules.total_points + 1, 5)
    if rules.scoring == "race45":
        target = next(p for p in points if hand_outcome(p, False, rules)[0] == ATTACKERS)
        draw = [p for p in points if hand_outcome(p, False, rules)[0] == DRAW]
        return t(locale, "guide-race", target=target, draw=draw[0] if draw else -1)
    bands: list[tuple[int, int, str, int]] = []
    for p in points:
        side, gain = hand_outcome(p, False, rules)
        if bands and bands[-1][2:] == (side, gain):
            bands[-1] = (bands[-1][0], p, side, gain)
        else:
            bands.append((p, p, side, gain))
    lines = [t(locale, "guide-levels", step=rules.step)]
    for low, high, side, gain in bands:
        key = "guide-band-dealer" if side == DEALER else "guide-band-attackers"
        span = str(low) if low == high else f"{low}–{high}"
        lines.append(t(locale, key, points=span, gain=gain))
    return "\n".join(lines)


def variants_text(locale: object, rules: RuleSet) -> str:
    """Every field of the rule set in words, one line each."""
    n = _numbers(rules)
    lines = [
        t(locale, "guide-variant-decks", **n),
        t(locale, "guide-variant-bidding", value=rules.bidding),
        t(locale, "guide-variant-no-bid", value=rules.no_bid),
        t(locale, "guide-variant-first-dealer", value=rules.first_dealer),
        t(locale, "guide-variant-overcall", value=rules.overcall),
        t(locale, "guide-variant-fixed-two", value=str(rules.fixed_two_trump).lower()),
        t(locale, "guide-variant-chain", value=str(rules.trump_chain_tractors).lower()),
        t(locale, "guide-variant-follow", value=rules.follow_shape),
        t(locale, "guide-variant-throw", penalty=n["penalty"]),
        t(locale, "guide-variant-kitty", **n),
        t(locale, "guide-variant-cap", cap=rules.points_cap or 0),
        t(locale, "guide-variant-scoring", value=rules.scoring),
        t(locale, "guide-variant-assistance", value=rules.assistance),
        t(locale, "guide-variant-finish", value=rules.finish),
        t(locale, "guide-variant-timers", play=rules.play_seconds, kitty=rules.kitty_seconds),
    ]
    return "\n".join(f"• {line}" for line in lines)


def topic_text(locale: object, topic: str, rules: RuleSet) -> str:
    """A topic for a player (unknown topics show the overview), then the rules in force."""
    variants = f"{t(locale, 'guide-variants')}\n{variants_text(locale, rules)}"
    if topic == "variants":
        return variants
    if topic == "levels":
        body = levels_text(locale, rules)
    elif topic == "bidding":
        body = bidding_text(locale, rules)
    else:
        body = t(locale, TOPICS.get(topic, "guide-overview"), **_numbers(rules))
    return f"{body}\n\n{variants}"


def title(locale: object, topic: str) -> str:
    return t(locale, TITLES.get(topic, "guide-title-overview"))
