"""The trick's pieces the table image draws: a seat's fan of cards, the plate badges,
names that fit."""

from __future__ import annotations

from bot.rules import Trump, parse_cards
from renderers import TrickScene
from renderers.cards import CARD_W, STRIP, VSTRIP
from renderers.trick import SEGMENT_GAP, Fan, plate_badges

NAMES = ("Alice", "王小明", "Carol", "Dmitri")
TRUMP = Trump("4", "S")


def test_a_fan_wraps_into_rows_inside_its_box_and_sets_a_failed_throws_cards_apart():
    stood, back = parse_cards("AS AS"), parse_cards("KS QS JS")
    fan = Fan.build(stood, back, 600)
    assert fan.ghost_start == 2
    assert [v for _, v in fan.items] == ["plain"] * 2 + ["ghost"] * 3
    xs = [x for x, _ in fan.positions]
    assert xs[1] - xs[0] == STRIP and xs[2] - xs[1] == STRIP + SEGMENT_GAP
    long = Fan.build(parse_cards("2H " * 20), [], 300)
    assert long.width <= 300 and long.ghost_start is None
    rows = sorted({y for _, y in long.positions})
    assert len(rows) > 1 and rows[1] - rows[0] == VSTRIP
    assert Fan.build([], [], 300).items == [] and Fan.build(stood, [], 300).width == CARD_W + STRIP


def test_plate_badges():
    open_trick = TrickScene(NAMES, leader=1, plays={1: parse_cards("AS")}, trump=TRUMP,
                            dealer=1, winner=1)  # fmt: skip
    assert plate_badges(open_trick, 1) == ["dealer", "led", "winning"]
    assert plate_badges(open_trick, 2) == ["to_play"]
    assert plate_badges(open_trick, 0) == []
    nothing_yet = TrickScene(NAMES, leader=3, plays={}, trump=TRUMP, dealer=0)
    assert plate_badges(nothing_yet, 3) == ["to_play"]  # not "led" before leading
    done = TrickScene(NAMES, leader=0, plays={s: parse_cards("2C") for s in range(4)},
                      trump=TRUMP, dealer=0, winner=2, final=True)  # fmt: skip
    assert plate_badges(done, 2) == ["won"]
    assert all("to_play" not in plate_badges(done, s) for s in range(4))


def test_names_are_shortened_never_cut_to_a_stump():
    from renderers.fonts import fit_name, text_width

    assert fit_name("Bot Chen", 18, True, 400) == "Bot Chen"
    narrow = text_width("Bot Chen", 18, True) - 1
    assert fit_name("Bot Chen", 18, True, narrow) == "Chen"
    assert fit_name("Bot Chen", 18, True, text_width("Chen", 18, True) - 1) == "BC"
    assert "…" not in fit_name("Alexandria Longname", 18, True, 30)
