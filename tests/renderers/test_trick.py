"""The trick image: seats around the table, only the plays made, winner, failed throws."""

from __future__ import annotations

import pytest

from bot.rules import Trump, parse_cards
from renderers import TrickScene, render_trick
from renderers.cards import CARD_H, CARD_W
from renderers.theme import DARK, LIGHT
from renderers.trick import PLATE_H, layout, plate_badges

from .util import count, decode, near, only

NAMES = ("Alice", "王小明", "Carol", "Dmitri")
TRUMP = Trump("4", "S")


def card_area(seat) -> tuple[int, int, int, int]:
    """Where a seat's cards go (the whole block width, at least one card tall)."""
    return (seat.x, seat.fan_y, seat.x + seat.box_w, seat.fan_y + seat.cards_h + 4)


@pytest.mark.parametrize("theme", [DARK, LIGHT])
def test_only_the_seats_that_played_show_cards(theme):
    """Privacy: two seats have played, so exactly two plays are drawn."""
    scene = TrickScene(
        NAMES,
        leader=1,
        plays={1: parse_cards("AH AH"), 2: parse_cards("3H 7H")},
        trump=TRUMP,
        dealer=0,
        winner=1,
        trick_points=0,
        viewer=0,
    )
    image = decode(render_trick(scene, theme=theme.name))
    _, seats, _ = layout(scene, "en")
    by_seat = {s.seat: s for s in seats}
    for seat in (0, 3):
        assert only(image, card_area(by_seat[seat]), theme.felt), seat
    face = {seat: count(image, card_area(by_seat[seat]), theme.card_face, 0) for seat in (1, 2)}
    # two overlapped cards: the covered one shows its strip, the top one its face
    for seat in (1, 2):
        assert face[seat] > CARD_W * CARD_H * 0.8, seat
    # no card face anywhere else (white badge text on the name plates aside)
    total = count(image, (0, 0, *image.size), theme.card_face, 0)
    plates = sum(
        count(image, (s.x, s.plate_y, s.x + s.box_w, s.plate_y + PLATE_H), theme.card_face, 0)
        for s in seats
    )
    assert total - plates == face[1] + face[2]


def test_viewer_sits_at_the_bottom_and_the_next_seat_on_the_right():
    scene = TrickScene(NAMES, leader=2, plays={2: parse_cards("5C")}, trump=TRUMP, dealer=2,
                       viewer=2)  # fmt: skip
    _, seats, _ = layout(scene, "en")
    assert [(s.where, s.seat) for s in seats] == [
        ("bottom", 2), ("right", 3), ("top", 0), ("left", 1),
    ]  # fmt: skip
    image = decode(render_trick(scene))
    assert count(image, card_area(seats[0]), DARK.card_face, 0) > 0
    no_viewer = TrickScene(NAMES, leader=2, plays={}, trump=TRUMP, dealer=2)
    assert layout(no_viewer, "en")[1][0].seat == 0


def test_winning_play_is_ringed_in_the_win_colour():
    scene = TrickScene(
        NAMES,
        leader=0,
        plays={0: parse_cards("KD"), 1: parse_cards("AD"), 2: parse_cards("3D")},
        trump=TRUMP,
        dealer=0,
        winner=1,
        trick_points=10,
    )
    image = decode(render_trick(scene))
    _, seats, _ = layout(scene, "en")
    for seat in seats:
        if seat.seat == 3:
            continue
        fx, fy = seat.fan_origin()
        left_of_card = (fx - 6, fy + 20, fx - 3, fy + CARD_H - 20)
        ringed = count(image, left_of_card, DARK.win) > 0
        assert ringed == (seat.seat == 1), seat.seat


def test_failed_throw_shows_the_cards_taken_back_greyed():
    attempted = parse_cards("AC KC KC 9C")
    scene = TrickScene(
        NAMES,
        leader=3,
        plays={3: parse_cards("9C")},
        trump=TRUMP,
        dealer=1,
        winner=3,
        failed_throw=(3, attempted, parse_cards("AC KC KC")),
        throw_penalty=30,
    )
    image = decode(render_trick(scene, theme="light"))
    _, seats, _ = layout(scene, "en")
    (seat,) = [s for s in seats if s.seat == 3]
    assert seat.caption is not None
    variants = [v for _, v in seat.fan.items]
    assert variants == ["plain", "ghost", "ghost", "ghost"]
    fx, fy = seat.fan_origin()
    for (card, variant), (dx, dy) in zip(seat.fan.items, seat.fan.positions, strict=True):
        face = image.getpixel((fx + dx + 30, fy + dy + CARD_H - 12))
        expected = LIGHT.ghost_face if variant == "ghost" else LIGHT.card_face
        assert near(face, expected), card
    # struck through and captioned in the danger colour
    assert count(image, card_area(seat), LIGHT.danger) > 100


def test_failed_throw_before_the_seat_played_shows_nothing():
    scene = TrickScene(
        NAMES,
        leader=3,
        plays={},
        trump=TRUMP,
        dealer=1,
        failed_throw=(3, parse_cards("AC KC"), parse_cards("AC")),
    )
    image = decode(render_trick(scene))
    for seat in layout(scene, "en")[1]:
        assert only(image, card_area(seat), DARK.felt)


@pytest.mark.parametrize(
    "name",
    [
        "",
        "🔥🔥🔥",
        "Zoë ‍👩‍💻 𠜎",
        "שלום",
        "x" * 200,
        "龘靐齉",
        "名字很长的一位玩家" * 5,
        "a\u0301\ufe0f\u200b",
    ],
)
def test_any_player_name_renders(name):
    """Characters no shipped font has become boxes; long names are cut to their plate."""
    names = (name, name, name, name)
    scene = TrickScene(names, leader=0, plays={0: parse_cards("2S")}, trump=TRUMP, dealer=0,
                       winner=0, viewer=0)  # fmt: skip
    image = decode(render_trick(scene, lang="zh"))
    assert image.size[0] == 800


def test_a_long_throw_wraps_into_rows_and_grows_the_table():
    throw = parse_cards("AS KS KS QS JS JS 9S 9S 8S 7S 7S 5S 5S 3S 3S 2S 2S 6S 6S TS")
    follow = parse_cards("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH 2C 3C 4C 5C 6C 7C 8C")
    plays = {0: throw, 1: follow, 2: follow, 3: follow}
    scene = TrickScene(NAMES, leader=0, plays=plays, trump=Trump("4", "D"), dealer=0, winner=0)
    height, seats, _ = layout(scene, "en")
    image = decode(render_trick(scene))
    assert image.size == (800, height)
    for seat in seats:
        fx, fy = seat.fan_origin()
        assert seat.x <= fx and fx + seat.fan.width <= seat.x + seat.box_w
        assert fy + seat.fan.height <= height
        assert len(seat.fan.items) == 20


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
