"""The hand image: order, colours, highlights, trump marks, 33 cards in rows."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from bot.rules import Trump, deck, order_for, parse_cards
from renderers import HandScene, render_hand
from renderers.cards import CARD_H, CARD_W, STRIP, hand_order
from renderers.hand import (
    CODE_GAP,
    MARGIN,
    MAX_PER_ROW,
    MIN_WIDTH,
    compose,
    layout,
    sizes,
    split_rows,
)
from renderers.theme import DARK, LIGHT, THEMES, palette_colours, palette_image

from . import reference
from .util import at_phone_width, count, decode, ink_height, near, only

TRUMP = Trump("T", "H")
LANGS = ("en", "zh")
LARGE = 6  # cards a row with the large card size (``cogs.panels.LARGE_PER_ROW``)
PIP = (52, 79)  # centre of the big pip inside a card sprite


def slots_by_code(scene: HandScene) -> dict[str, list]:
    result: dict[str, list] = {}
    for slot in layout(scene)[2]:
        result.setdefault(str(slot.card), []).append(slot)
    return result


def pip(image, slot) -> tuple[int, int, int]:
    return image.getpixel((slot.x + PIP[0], slot.y + PIP[1]))


@pytest.mark.parametrize("theme", [DARK, LIGHT])
def test_red_suits_are_red_and_black_suits_black(theme):
    # each card alone in its own hand, so the pip is not covered by a neighbour
    for code, colour in [("AH", theme.red), ("AD", theme.red), ("AS", theme.black),
                         ("AC", theme.black), ("BJ", theme.red)]:  # fmt: skip
        scene = HandScene(parse_cards(code), None)
        image = decode(render_hand(scene, theme=theme.name))
        (slot,) = layout(scene)[2]
        star = (slot.x + 54, slot.y + 62) if code == "BJ" else (slot.x + PIP[0], slot.y + PIP[1])
        assert near(image.getpixel(star), colour), code


def test_small_joker_is_black_and_hollow_big_joker_red_and_filled():
    for code, centre in [("SJ", DARK.card_face), ("BJ", DARK.red)]:
        scene = HandScene(parse_cards(code), None)
        image = decode(render_hand(scene))
        (slot,) = layout(scene)[2]
        assert near(image.getpixel((slot.x + 54, slot.y + 62)), centre), code
    # the small joker's star outline is black
    scene = HandScene(parse_cards("SJ"), None)
    image = decode(render_hand(scene))
    (slot,) = layout(scene)[2]
    box = (slot.x + 30, slot.y + 36, slot.x + 80, slot.y + 86)
    assert count(image, box, DARK.black) > 150
    assert count(image, box, DARK.red) == 0


def test_four_colour_diamonds_blue_clubs_green():
    for code, two, four in [("AD", DARK.red, DARK.blue), ("AC", DARK.black, DARK.green)]:
        scene = HandScene(parse_cards(code), None)
        (slot,) = layout(scene)[2]
        assert near(pip(decode(render_hand(scene)), slot), two)
        assert near(pip(decode(render_hand(scene, four_color=True)), slot), four)


def test_selected_cards_are_raised_with_the_accent_edge():
    scene = HandScene(parse_cards("AH AH KH 3S"), None, selected=parse_cards("AH"))
    image = decode(render_hand(scene))
    slots = slots_by_code(scene)
    first, second = slots["AH"]
    assert first.selected and not second.selected  # a multiset: one AH of two
    assert first.y < second.y
    edge = (first.x + 1, first.y + CARD_H // 2)  # the left edge stays visible in a fan
    assert near(image.getpixel(edge), DARK.accent)
    assert not near(image.getpixel((second.x + 1, second.y + CARD_H // 2)), DARK.accent)
    # the top edge of the raised card shows the accent above its neighbours
    assert count(image, (first.x + 10, first.y, first.x + STRIP, first.y + 3), DARK.accent) > 40


def test_selection_is_a_multiset():
    scene = HandScene(parse_cards("AH AH KH"), None, selected=parse_cards("AH AH"))
    assert [s.selected for s in layout(scene)[2]] == [True, True, False]  # A, A, K (high to low)


def test_trumps_get_a_gold_edge_once_the_trump_is_known():
    cards = parse_cards("3S 5H TC BJ")
    known = HandScene(cards, TRUMP)
    image = decode(render_hand(known, theme="light"))
    for slot in layout(known)[2]:
        edge = image.getpixel((slot.x + 1, slot.y + CARD_H // 2))
        assert near(edge, LIGHT.gold) == (str(slot.card) != "3S"), slot.card
    unknown = HandScene(cards, None)
    image = decode(render_hand(unknown, theme="light"))
    for slot in layout(unknown)[2]:
        assert not near(image.getpixel((slot.x + 1, slot.y + CARD_H // 2)), LIGHT.gold)


def test_order_is_how_players_hold_cards():
    """Issue 4: plain suits high to low, then trumps: jokers, trump-suit level,
    off-suit levels, trump suit (high to low)."""
    cards = parse_cards("BJ 2H TS AS 3C TH 5D SJ KD")
    groups = [order_for(TRUMP).sort_key(c)[0] for c in hand_order(cards, TRUMP)]
    assert groups == sorted(groups)  # grouped as the rules library groups them
    assert [str(c) for c in hand_order(cards, TRUMP)] == [
        "AS", "3C", "KD", "5D", "BJ", "SJ", "TH", "TS", "2H",
    ]  # fmt: skip
    # while the trump is not set: by suit (♠ ♥ ♣ ♦), high to low, jokers last
    assert [str(c) for c in hand_order(cards, None)] == [
        "AS", "TS", "TH", "2H", "3C", "KD", "5D", "BJ", "SJ",
    ]  # fmt: skip


def test_thirty_three_cards_wrap_into_rows_and_fit():
    cards = deck(2)[:108:3][:33]
    scene = HandScene(cards, TRUMP, selected=cards[:2])
    width, height, slots = layout(scene)
    image = decode(render_hand(scene))
    assert image.size == (width, height)
    assert len(slots) == 33
    rows = sorted({s.y + (0 if s.selected else -14) for s in slots})
    assert len(rows) == 4  # nine a row at most: the codes stay legible on a phone
    assert width <= 650 and height <= 900
    for slot in slots:
        assert slot.x >= 0 and slot.x + CARD_W <= width
        assert slot.y >= 0 and slot.y + CARD_H <= height
        # the corner index of each card is visible: the card face shows in its strip
        strip = (slot.x + 3, slot.y + 30, slot.x + STRIP - 3, slot.y + 34)
        assert count(image, strip, DARK.card_face) > 0 or slot.trump
    assert Counter(s.card for s in slots) == Counter(cards)


def test_rows_break_at_suit_boundaries_when_near():
    groups = list("SSSSSSHHHHHHCCCCCCDDDDDDD")  # 6, 6, 6, 7 = 25
    assert split_rows(groups, 13) == [(0, 12), (12, 25)]  # balanced would be 12/13 anyway
    groups = ["S"] * 10 + ["H"] * 12 + ["T"] * 11  # 33 cards: breaks move to 10 and 22
    assert split_rows(groups, 13) == [(0, 10), (10, 22), (22, 33)]
    groups = list("SSSSSSSHHHHHHHCCCCCCDDDDD")  # 7, 7, 6, 5: no boundary within reach
    assert all(b - a <= MAX_PER_ROW for a, b in split_rows(groups))
    assert split_rows([]) == []
    assert split_rows(["T"] * 33) == [(0, 8), (8, 16), (16, 25), (25, 33)]


def test_codes_are_printed_under_the_cards():
    scene = HandScene(parse_cards("AS KS"), None)
    image = decode(render_hand(scene))
    for slot in layout(scene)[2]:
        below = (slot.x, slot.y + CARD_H + 6, slot.x + STRIP, slot.y + CARD_H + 30)
        assert count(image, below, DARK.text) > 20


def test_empty_hand_and_long_title():
    image = decode(render_hand(HandScene((), None, title="x" * 300)))
    assert image.size[0] == MIN_WIDTH == 400  # as wide as a phone, no wider


def test_cards_from_the_kitty_carry_a_gold_tag_on_their_last_copies():
    cards = parse_cards("AH AH KS 5D")
    plain = HandScene(cards, TRUMP)
    marked = HandScene(cards, TRUMP, marked=parse_cards("AH 5D"))
    image = decode(render_hand(marked, theme="dark"))
    flags = [(str(s.card), s.marked) for s in layout(marked)[2]]
    assert sorted(flags) == [("5D", True), ("AH", False), ("AH", True), ("KS", False)]
    assert [s.marked for s in layout(plain)[2]] == [False] * 4
    code_h = sizes(layout(marked)[0])[1]
    for slot in layout(marked)[2]:
        top = slot.y + CARD_H + CODE_GAP
        box = (slot.x + 2, top, slot.x + 40, top + code_h)
        gold = count(image, box, DARK.gold, tol=12)
        assert (gold > 100) == slot.marked, (str(slot.card), gold)


def test_two_suits_of_one_colour_side_by_side_show_the_felt_between_them():
    """Hearts trumps: spades then clubs, both black, with felt between; red to trumps, not."""
    scene = HandScene(parse_cards("AS KS 3S AC KC 2C AD 5H"), Trump("5", "H"))
    image = decode(render_hand(scene))
    slots = layout(scene)[2]
    by_card = {str(s.card): s for s in slots}
    last_spade, first_club = by_card["3S"], by_card["AC"]
    assert first_club.y == last_spade.y
    mid = last_spade.y + CARD_H // 2
    gap = (last_spade.x + CARD_W + 3, mid, first_club.x - 3, mid + 20)
    assert gap[2] - gap[0] >= 6
    assert only(image, gap, DARK.felt), "felt shows between two black suits"
    # a red suit next to a black one needs no felt: the cards still overlap there
    assert by_card["AD"].x < by_card["2C"].x + CARD_W or by_card["AD"].y != by_card["2C"].y


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_word_is_at_least_12_px_high_on_a_400_px_phone(lang):
    cards = deck(2)[:108:3][:33]
    scene = HandScene(cards, TRUMP, selected=cards[:2], title="Alice · dealer")
    width, _, slots = layout(scene)
    _, code_h, header_h = sizes(width)
    phone, scale = at_phone_width(render_hand(scene, lang=lang))
    line = header_h / 2
    boxes = [  # the title, the trump and counts line, then every code under a card
        (MARGIN, MARGIN, width - MARGIN, MARGIN + line),
        (MARGIN, MARGIN + line - 4, width - MARGIN, MARGIN + 2 * line - 4),
    ]
    for slot in slots:
        top = slot.y + (0 if slot.selected else -14) + 14 + CARD_H + CODE_GAP
        boxes.append((slot.x + 2, top, slot.x + STRIP - 2, top + code_h))
    for x0, y0, x1, y1 in boxes:
        box = (int(x0 * scale), int(y0 * scale), int(x1 * scale) + 1, int(y1 * scale) + 1)
        assert ink_height(phone, box) >= 12, (x0, y0, x1, y1)


def _scenes() -> list[HandScene]:
    """Hands of every shape: 33 cards (four rows), 25, 12, 1, none; selected (raised)
    cards, trumps, kitty marks, no trump, jokers side by side, large cards (six a row)."""
    rng = random.Random(7)
    full = deck(2)
    scenes = []
    for n in (33, 25, 12, 1, 0):
        cards = rng.sample(full, n)
        selected = rng.sample(cards, min(3, max(0, n - 1)))
        scenes.append(HandScene(cards, TRUMP, selected=selected, marked=cards[:2]))
        scenes.append(HandScene(cards, None, per_row=LARGE))
        scenes.append(HandScene(cards, Trump("2", None), selected=cards[:5], title="Ana · dealer"))
    jokers = parse_cards("BJ SJ BJ SJ AH")
    scenes.append(HandScene(jokers, Trump("5", "S"), selected=jokers[1:2], marked=jokers[:1]))
    return scenes


def test_the_palette_composition_gives_the_pixels_of_drawing_in_rgb():
    """The hand is composed straight on a palette canvas from cached pieces (cards
    covered in a fan pasted in part, corners composed over what lies under them);
    drawn the plain way (every card whole on an RGB canvas, then the whole image
    mapped onto the palette) it must come out the very same, pixel for pixel, in
    both themes, both colour schemes and both languages (the jokers' faces)."""
    for scene in _scenes():
        for theme, four_color, lang in itertools.product(THEMES.values(), (False, True), LANGS):
            expected = reference.draw_hand(scene, theme, four_color, lang)
            image, size = compose(scene, theme, four_color, lang)
            assert image.size == size == expected.size
            label = (len(scene.cards), theme.name, four_color, lang)
            assert image.tobytes() == expected.tobytes(), label
            assert image.getpalette() == palette_image(theme.name).getpalette()


def test_the_png_holds_the_composed_pixels_and_only_palette_colours():
    """Through ``render_hand``: the thread's reused canvas (larger images drawn on
    it before smaller ones, themes in turn) still gives each image's own pixels."""
    scenes = sorted(_scenes(), key=lambda s: -len(s.cards))
    for scene in scenes:
        for theme in THEMES.values():
            data = render_hand(scene, theme=theme.name, four_color=True, lang="zh")
            expected = reference.draw_hand(scene, theme, True, "zh").convert("RGB")
            image = decode(data)
            assert image.size == expected.size
            assert image.tobytes() == expected.tobytes(), (len(scene.cards), theme.name)
            colours = {colour for _, colour in image.getcolors(1 << 16) or []}
            assert colours <= set(palette_colours(theme)), theme.name
