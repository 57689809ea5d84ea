"""The hand panel in the overcall round after burying (000:43): a button for each
legal overcall and Pass for the seat whose turn it is; a wait line for the others."""

from __future__ import annotations

from dataclasses import replace

from bot.game import Match, Phase
from bot.presets import presets
from bot.rules import RuleSet
from cogs.ids import PASS_CODE, BidButton, parse_id
from cogs.panels import build_panel
from tests.game.helpers import stacked, to_play

NAMES = ("Ann", "Bo", "Cy", "Di")


def _in_round() -> Match:
    rules = RuleSet(bidding="joker", overcall="after_bury")
    deck = stacked(["BJ 2H 4C", "BJ 2D 2D", "SJ SJ 3C", "5C"], "8C 8C 9C 9C TC TC JC JC")
    match = to_play(Match.new(3, rules, first_dealer=0, deck_order=deck), [(0, "BJ 2H")])
    assert match.phase is Phase.OVERCALL
    return match


def _ids(panel) -> list[str]:
    return panel.view.custom_ids()


def test_the_seat_to_speak_gets_its_overcalls_and_pass() -> None:
    match = _in_round()
    panel = build_panel(7, match.view(1), [], names=NAMES)
    ids = _ids(panel)
    assert parse_id(ids[-1]) == BidButton(7, 1, PASS_CODE)
    assert [parse_id(i) for i in ids[:-1]] == [BidButton(7, 1, "BJ2D2D")]
    assert "overcall once" in panel.content


def test_the_others_wait() -> None:
    match = _in_round()
    panel = build_panel(7, match.view(2), [], names=NAMES)
    assert not any(i.startswith("sj:d:") for i in _ids(panel))
    assert "Bo" in panel.content


def test_three_decks_show_every_overcall_and_pass() -> None:
    """Ten overcalls with three decks (pairs and triples of three suits' level cards and
    of each joker): all of them, then Pass on a row of its own."""
    rules = replace(presets()["three_decks"][0], overcall="after_bury")
    hand = "2D 2D 2D 2C 2C 2C 2S 2S 2S SJ SJ SJ BJ BJ BJ"
    deck = stacked(["2H 2H", hand, "", ""], "", rules=rules)
    match = to_play(Match.new(3, rules, first_dealer=0, deck_order=deck), [(0, "2H")])
    assert match.phase is Phase.OVERCALL and match.to_act == 1
    panel = build_panel(7, match.view(1), [], names=NAMES)
    bids = [parse_id(i) for i in _ids(panel)]
    assert len(bids) == 11 and bids[-1] == BidButton(7, 1, PASS_CODE)
    assert {b.cards for b in bids[:-1] if isinstance(b, BidButton)} >= {"BJBJBJ", "2S2S"}
    rows = panel.view.to_components()
    assert [len(r["components"]) for r in rows] == [5, 5, 1]
