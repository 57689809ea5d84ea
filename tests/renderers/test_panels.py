"""Kitty and summary images."""

from __future__ import annotations

import itertools

import pytest

from bot.rules import Trump, parse_cards
from renderers import (
    KittyScene,
    SummaryScene,
    render_kitty,
    render_summary,
)
from renderers.cards import CARD_H
from renderers.kitty import MARGIN as KITTY_MARGIN
from renderers.kitty import PAD as KITTY_PAD
from renderers.kitty import STEP
from renderers.kitty import layout as kitty_layout
from renderers.kitty import sizes as kitty_sizes
from renderers.theme import DARK, THEMES, palette_colours

from . import reference
from .util import at_phone_width, count, decode, ink_height

NAMES = ("Alice", "王小明", "Carol", "Dmitri")
TRUMP = Trump("9", "C")


def test_kitty_shows_each_buried_card():
    cards = parse_cards("5S KS 2D 3D 4H 6H 7H 8H")
    scene = KittyScene(cards, TRUMP, "Alice", multiplier=4)
    image = decode(render_kitty(scene))
    width, _, x0 = kitty_layout(scene)
    top = KITTY_MARGIN + 2 * kitty_sizes(width)[1] + KITTY_PAD
    for i in range(len(cards)):
        strip = (x0 + i * STEP + 4, top + 60, x0 + i * STEP + STEP - 4, top + CARD_H - 4)
        assert count(image, strip, DARK.card_face, 0) > 200, i
    # nothing right of the last card but felt
    last_right = x0 + 7 * STEP + 88 + 4
    assert count(image, (last_right, top, last_right + 10, top + CARD_H), DARK.card_face, 0) == 0


def test_kitty_footer_differs_when_the_dealer_keeps_it():
    cards = parse_cards("5S KS 2D 3D 4H 6H 7H 8H")
    bonus = decode(render_kitty(KittyScene(cards, TRUMP, "Alice", multiplier=4)))
    kept = decode(render_kitty(KittyScene(cards, TRUMP, "Alice", multiplier=None)))
    w, h = bonus.size
    footer = (0, h - 70, w, h)
    assert count(bonus, footer, DARK.win) > 50  # "× 4 = 60 to the attackers"
    assert count(kept, footer, DARK.win) == 0


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_kitty_words_are_12_px_high_on_a_400_px_phone_and_the_callers(lang):
    cards = parse_cards("5S KS 2D 3D 4H 6H 7H 8H")
    scene = KittyScene(cards, TRUMP, "Alice", multiplier=4)
    width = kitty_layout(scene)[0]
    _, line = kitty_sizes(width)
    phone, scale = at_phone_width(render_kitty(scene, lang=lang))
    felt_bottom = KITTY_MARGIN + 2 * line + KITTY_PAD + CARD_H + line + KITTY_PAD
    rows = [KITTY_MARGIN, KITTY_MARGIN + line, felt_bottom - KITTY_PAD - line]
    rows += [felt_bottom, felt_bottom + line]  # title, buried by, codes, points, bonus
    for y in rows:
        box = (0, int(y * scale) + 1, phone.width, int((y + line) * scale))
        assert ink_height(phone, box) >= 12, y
    words = {"kitty": "底牌!", "buried_by": "X", "kitty_points": "P", "kitty_to_attackers": "B"}
    theirs = decode(render_kitty(KittyScene(cards, TRUMP, "Alice", 4, words=words)))
    assert theirs.tobytes() != decode(render_kitty(scene)).tobytes()


def test_summary_total_turns_to_the_win_colour_when_the_attackers_take_the_deal():
    def scene(trick_points: int) -> SummaryScene:
        return SummaryScene(
            NAMES,
            dealer=0,
            trick_points=trick_points,
            kitty_points=10,
            multiplier=None,
            levels_before=("5", "5"),
            levels_after=("5", "6") if trick_points >= 80 else ("6", "5"),
            next_dealer=1 if trick_points >= 80 else 2,
            result="x",
            penalty=-10,
        )

    low = decode(render_summary(scene(45)))
    high = decode(render_summary(scene(125)))
    assert low.size == high.size
    assert count(high, (0, 0, *high.size), DARK.win) > count(low, (0, 0, *low.size), DARK.win)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_summary_words_are_12_px_high_on_a_400_px_phone_and_the_callers(lang):
    from renderers.summary import LINE
    from renderers.summary import MARGIN as S_MARGIN

    scene = SummaryScene(
        NAMES, 0, 75, 10, 4, ("T", "7"), ("T", "8"), 1, "Attackers take the deal", hand_no=4
    )
    data = render_summary(scene, lang=lang)
    phone, scale = at_phone_width(data)
    image = decode(data)
    # every line of words: scan the image in lines of text from the top
    tops = [S_MARGIN, S_MARGIN + LINE]  # the hand, the result
    for y in tops:
        box = (0, int(y * scale) + 1, phone.width, int((y + LINE) * scale))
        assert ink_height(phone, box) >= 12, y
    last = (0, int((image.height - S_MARGIN - LINE) * scale), phone.width, phone.height - 2)
    assert ink_height(phone, last) >= 12  # the next dealer
    words = {"from_tricks": "抓分!!", "total": "T", "next_dealer": "N", "level": "L"}
    theirs = render_summary(SummaryScene(*scene_args(scene), words=words), lang=lang)
    assert decode(theirs).tobytes() != image.tobytes()


def scene_args(scene: SummaryScene) -> tuple:
    return (
        scene.names,
        scene.dealer,
        scene.trick_points,
        scene.kitty_points,
        scene.multiplier,
        scene.levels_before,
        scene.levels_after,
        scene.next_dealer,
        scene.result,
        scene.penalty,
        scene.hand_no,
    )


def test_the_kitty_shortens_a_long_dealer_name_never_to_a_stump():
    from renderers.labels import word

    words = {"buried_by": "Buried by {name}"}
    assert word(words, "en", "buried_by", name="Chen") == "Buried by Chen"
    cards = parse_cards("5S KS 2D 3D 4H 6H 7H 8H")
    long_name = "WWWWW MMMMM WWWWW MMMMM Tractor"
    full = KittyScene(cards, TRUMP, long_name, words=words)
    short = KittyScene(cards, TRUMP, "Tractor", words=words)
    # the long name gives way to its last word: the same picture as that name
    assert render_kitty(full) == render_kitty(short)


def _kitties() -> list[KittyScene]:
    """Kitties with trumps, jokers, no trump and more cards than the image's minimum width."""
    return [
        KittyScene(parse_cards(cards), trump, "Alice", multiplier=multiplier)
        for cards, trump, multiplier in [
            ("5S KS 2D 3D 4H 6H 7H 8H", TRUMP, 4),
            ("BJ SJ 9C 3D 4H 6H", TRUMP, None),
            ("AS AS KH KH QD QD JC JC TS TS 9H 9H", None, 2),
            ("BJ 2D 3D 4H 6H 7C", Trump("2", None), None),
        ]
    ]


def _summaries() -> list[SummaryScene]:
    """Summaries with and without a hand number, penalties both ways, the kitty's bonus
    or not, points from none to past the total (the bar's fill and its labels)."""
    return [
        SummaryScene(NAMES, dealer, points, 10, multiplier, ("5", "T"), after, 1, "x", *extra)
        for dealer, points, multiplier, after, extra in [
            (0, 0, None, ("5", "T"), ()),
            (1, 45, 4, ("6", "T"), (-10, 3)),
            (2, 80, 2, ("5", "J"), (20, None)),
            (3, 125, None, ("5", "K"), (0, 12)),
            (0, 260, 8, ("5", "A"), (-30, 1)),
        ]
    ]


@pytest.mark.parametrize("kind", ["kitty", "summary"])
def test_the_palette_composition_gives_the_pixels_of_drawing_in_rgb(kind):
    """Composed on the palette from cached pieces (the render thread's reused canvas,
    larger and smaller images in turn), each edge over the surface it lies on, the kitty and
    the summary must come out the very same, pixel for pixel, as the same layout drawn
    on an RGB canvas and mapped onto the palette at the end: both themes, both colour
    schemes, both languages (the jokers' faces, the Chinese words)."""
    render, draw, scenes = {
        "kitty": (render_kitty, reference.draw_kitty, _kitties()),
        "summary": (render_summary, reference.draw_summary, _summaries()),
    }[kind]
    for scene, theme, four_color, lang in itertools.product(
        scenes, THEMES.values(), (False, True), ("en", "zh")
    ):
        image = decode(render(scene, theme=theme.name, four_color=four_color, lang=lang))
        expected = draw(scene, theme, four_color, lang).convert("RGB")
        assert image.size == expected.size
        assert image.tobytes() == expected.tobytes(), (scene, theme.name, four_color, lang)
        colours = {colour for _, colour in image.getcolors(1 << 16) or []}
        assert colours <= set(palette_colours(theme)), theme.name
