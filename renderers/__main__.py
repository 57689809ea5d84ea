"""``python3 -m renderers demo OUTDIR``: every image from a real deal, to look at.

Shuffles two decks with a fixed seed, deals 25 cards to each seat, gives the
dealer the 8-card kitty (33 cards), picks a trump the dealer could have
declared, plays one legal trick with the rules library and writes hand.png
(the dealer's 33 cards, a few selected), table.png, kitty.png and summary.png,
plus a ``-light``/``-zh`` variant of each with ``--all``.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from pathlib import Path

from bot.rules import (
    Card,
    Trump,
    deck,
    decompose_in,
    follow_candidates,
    kitty_multiplier,
    level_outcome,
    order_for,
    points,
    team_of,
    trick_winner,
)

from . import (
    HandScene,
    KittyScene,
    SummaryScene,
    TableScene,
    TrickScene,
    render_hand,
    render_kitty,
    render_summary,
    render_table,
)
from .canvas import level_text
from .labels import label

NAMES = ("Alice", "王小明", "Carol", "Dmitri")


def demo_scenes(seed: int = 2024, lang: str = "en") -> dict[str, object]:
    """The demo's scenes, built from a real shuffled deal (also used by the bench).

    ``lang`` only changes the summary's verdict, which the caller writes.
    """
    rng = random.Random(seed)
    cards = deck(2)
    rng.shuffle(cards)
    hands = [cards[i * 25 : (i + 1) * 25] for i in range(4)]
    kitty_cards = cards[100:108]
    dealer = 0
    level = "T"
    # the dealer declares the suit of a level card they hold (hearts if none)
    suits = [c.suit for c in hands[dealer] if c.rank == level and not c.is_joker]
    trump = Trump(level, suits[0] if suits else "H")
    order = order_for(trump)
    dealer_hand = hands[dealer] + kitty_cards  # 33 cards before burying

    # a trick: the dealer leads their biggest unit, the others follow legally
    by_suit: dict[str, list[Card]] = {}
    for card in hands[dealer]:
        by_suit.setdefault(order.suit_of[card], []).append(card)
    units = [u for suit in sorted(by_suit) for u in decompose_in(order, by_suit[suit])]
    lead = list(max(units, key=lambda u: (len(u.cards), u.suit != "T", u.high)).cards)
    plays = {dealer: lead}
    for k in (1, 2, 3):
        seat = (dealer + k) % 4
        options = follow_candidates(hands[seat], lead, trump)
        plays[seat] = list(rng.choice(options))
    ordered = [plays[(dealer + k) % 4] for k in range(4)]
    winner = (dealer + trick_winner(ordered, trump)) % 4

    # an end of hand in which the attackers won the last trick with that lead
    multiplier = kitty_multiplier(lead, trump)
    # bury low plain-suit cards and two point cards, as a dealer might
    plain = sorted((c for c in dealer_hand if not order.is_trump(c)), key=lambda c: order.tier[c])
    counters = [c for c in plain if c.points][:2]
    rest = [c for c in plain if not c.points][: 8 - len(counters)]
    buried = sorted(counters + rest, key=order.sort_key)
    attackers_points = 75
    winner_team, gain = level_outcome(attackers_points + points(buried) * multiplier)
    levels_before = ("T", "7")
    if winner_team == "dealer":
        levels_after = (_up(levels_before[0], gain), levels_before[1])
        next_dealer = 2
    else:
        levels_after = (levels_before[0], _up(levels_before[1], gain))
        next_dealer = 1
    verdict = _verdict(winner_team, gain, lang)
    return {
        "hand": HandScene(
            dealer_hand,
            trump,
            selected=dealer_hand[:2],
            title="Alice · 庄家" if lang == "zh" else "Alice · dealer",
        ),
        "table": _table(plays, trump, dealer, winner, levels_before, lang),
        "kitty": KittyScene(buried, trump, NAMES[dealer], multiplier=multiplier),
        "summary": SummaryScene(
            NAMES,
            dealer=dealer,
            trick_points=attackers_points,
            kitty_points=points(buried),
            multiplier=multiplier,
            levels_before=levels_before,
            levels_after=levels_after,
            next_dealer=next_dealer,
            result=verdict,
            hand_no=4,
        ),
    }


def _table(
    plays: dict[int, list[Card]],
    trump: Trump,
    dealer: int,
    winner: int,
    levels: tuple[str, str],
    lang: str,
) -> TableScene:
    """The live table image as the trick's last card is awaited (the words are the
    catalogs' in the bot; written out here)."""
    last = (dealer + 3) % 4
    shown = {seat: cards for seat, cards in plays.items() if seat != last}
    trick = TrickScene(NAMES, dealer, shown, trump, dealer, winner=winner, trick_no=1)
    zh = lang == "zh"
    team, other = (level_text(levels[team_of(dealer + k)]) for k in (0, 1))
    return TableScene(
        trick,
        head="第4局 · 第1轮" if zh else "Hand 4 · Trick 1",
        teams=(f"庄家 · 打{team}", f"闲家 · 打{other}")
        if zh
        else (f"Dealer's team · {team}", f"Attackers · {other}"),
        score="闲家得分0 · 每人剩25张" if zh else "Attackers' points 0 · 25 cards left",
        trump_word="主" if zh else "Trump",
        badges=dict(
            zip(
                ("dealer", "led", "winning", "won", "to_play"),
                ("庄家", "首出", "最大", "赢", "出牌中")
                if zh
                else ("Dealer", "Led", "Winning", "Won", "To play"),
                strict=True,
            )
        ),
        pair_word=label("zh" if zh else "en", "and"),  # partners: 王小明和Dmitri
    )


def _verdict(winner_team: str, gain: int, lang: str) -> str:
    if lang == "zh":
        if winner_team == "dealer":
            return f"庄家升{gain}级"
        return "闲家上台" + (f"，升{gain}级" if gain else "")
    if winner_team == "dealer":
        return f"Dealer's team +{gain}"
    return "Attackers take the deal" + (f", +{gain}" if gain else "")


def _up(level: str, gain: int) -> str:
    ranks = "23456789TJQKA"
    return ranks[min(ranks.index(level) + gain, len(ranks) - 1)]


# every renderer takes its scene and the same keyword options (theme, lang, four_color)
RENDERERS: dict[str, Callable[..., bytes]] = {
    "hand": render_hand,
    "table": render_table,
    "kitty": render_kitty,
    "summary": render_summary,
}


def demo(out: Path, seed: int, every_variant: bool) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    scenes = {lang: demo_scenes(seed, lang) for lang in ("en", "zh")}
    variants: list[tuple[str, dict[str, object]]] = [("", {})]
    if every_variant:
        variants += [
            ("-light", {"theme": "light"}),
            ("-zh", {"lang": "zh"}),
            ("-light-zh-4c", {"theme": "light", "lang": "zh", "four_color": True}),
        ]
    written = []
    for kind, render in RENDERERS.items():
        for suffix, options in variants:
            path = out / f"{kind}{suffix}.png"
            scene = scenes[str(options.get("lang", "en"))][kind]
            path.write_bytes(render(scene, **options))
            written.append(path)
    return written


def main() -> None:
    parser = argparse.ArgumentParser(prog="python3 -m renderers", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    d = sub.add_parser("demo", help="write the demo images to OUTDIR")
    d.add_argument("outdir", type=Path)
    d.add_argument("--seed", type=int, default=2024)
    d.add_argument("--all", action="store_true", help="also light, Chinese and four-colour")
    args = parser.parse_args()
    for path in demo(args.outdir, args.seed, args.all):
        print(f"{path}  {path.stat().st_size / 1024:.1f} KB")


if __name__ == "__main__":
    main()
