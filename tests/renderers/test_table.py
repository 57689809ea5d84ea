"""The table image: laid out for a phone, its words from the caller, the trick and the strip."""

from __future__ import annotations

import pytest

from bot.i18n import CATALOG
from bot.rules import Trump, parse_cards
from renderers import TableScene, TrickScene, render_table
from renderers.canvas import encode
from renderers.fonts import REPLACEMENT, fit_name, runs, text_width
from renderers.table import draw
from renderers.theme import DARK, LIGHT

from .util import at_phone_width, count, decode, ink_height

NAMES = ("Alice", "Computer 2 (easy)", "Carol Zhang", "张伟")
TRUMP = Trump("5", "H")
BADGES = {
    "dealer": "Dealer",
    "led": "Led",
    "winning": "Winning",
    "won": "Won",
    "to_play": "To play",
}
BADGES_ZH = {"dealer": "庄家", "led": "首出", "winning": "最大", "won": "赢", "to_play": "出牌中"}


def scene(last: bool = True, words: dict[str, str] = BADGES) -> TableScene:
    trick = TrickScene(
        NAMES,
        leader=1,
        plays={1: parse_cards("AS AS KS"), 2: parse_cards("3S 4S 5S"), 3: parse_cards("BJ SJ 2H")},
        trump=TRUMP,
        dealer=0,
        winner=3,
        trick_points=15,
    )
    previous = TrickScene(
        NAMES,
        leader=0,
        plays={k: parse_cards(c) for k, c in enumerate(("TD TD", "3D 4D", "KD QD", "5H 5H"))},
        trump=TRUMP,
        dealer=0,
        winner=3,
        final=True,
        trick_points=30,
    )
    return TableScene(
        trick,
        head="Hand 3 · Trick 6",
        teams=("Dealer's team · 5", "Attackers · 3"),
        score="Attackers' points 45 · 7 cards left",
        trump_word="Trump",
        badges=words,
        last=previous if last else None,
        last_title="Previous trick · 张伟 +30",
    )


@pytest.mark.parametrize("theme", [DARK, LIGHT])
@pytest.mark.parametrize("words", [BADGES, BADGES_ZH])
def test_every_word_is_at_least_12_px_high_on_a_400_px_phone(theme, words) -> None:
    page = draw(scene(words=words), theme, False, "en")
    phone, scale = at_phone_width(encode(page.canvas, theme))
    assert page.canvas.width == 800 and len(page.words) >= 20
    for x0, y0, x1, y1 in page.words:
        box = (int(x0 * scale), int(y0 * scale) - 1, int(x1 * scale) + 1, int(y1 * scale) + 2)
        assert ink_height(phone, box) >= 12, (x0, y0, x1, y1)


def test_the_words_are_the_scenes() -> None:
    """Nothing English is drawn that the caller did not give: a Chinese scene's words differ."""
    en = decode(render_table(scene()))
    zh_scene = scene(words=BADGES_ZH)
    zh = decode(render_table(zh_scene))
    assert en.size == zh.size
    assert en.tobytes() != zh.tobytes()


def test_the_winning_play_is_ringed_and_the_seat_to_play_marked() -> None:
    th = DARK
    image = decode(render_table(scene(last=False), theme="dark"))
    assert count(image, (0, 0, image.width, image.height), th.win) > 400
    assert count(image, (0, 0, image.width, image.height), th.accent, tol=2) > 300  # To play


def test_the_previous_trick_is_drawn_only_when_given() -> None:
    with_last = decode(render_table(scene(last=True)))
    without = decode(render_table(scene(last=False)))
    assert with_last.height > without.height + 100
    assert with_last.width == without.width == 800


def test_a_long_throw_wraps_and_grows_the_image() -> None:
    base = scene(last=False)
    throw = parse_cards("AS KS KS QS JS JS 9S 9S 8S 7S 7S 5S")
    big = TrickScene(NAMES, 0, {0: throw}, TRUMP, dealer=0, winner=0)
    grown = TableScene(big, base.head, base.teams, base.score, base.trump_word, base.badges)
    assert decode(render_table(grown)).height > decode(render_table(base)).height


def test_missing_badge_words_are_refused() -> None:
    with pytest.raises(ValueError, match="badges"):
        TableScene(scene().trick, "h", ("a", "b"), "s", "Trump", {"dealer": "D"})


def test_shortened_names_keep_their_seat_and_drop_notes() -> None:
    wide = text_width("Ana (bot)", 35, True)
    assert fit_name("Ana (bot)", 35, True, wide) == "Ana (bot)"
    assert fit_name("Ana (bot)", 35, True, wide - 1, seat=2) == "Ana #2"
    narrow = text_width("Chen #3", 35, True)
    assert fit_name("Bot Chen", 35, True, narrow, seat=3) == "Chen #3"
    assert fit_name("Bot Chen", 35, True, narrow - 1, seat=3) == "BC #3"
    assert not fit_name("Bot Chen", 35, True, 60, seat=3).startswith("Bot")


def test_the_catalogs_image_words_render_in_the_shipped_fonts() -> None:
    """The table image's words come from the catalogs; every character of them is drawable."""
    for locale in ("en-US", "zh-CN"):
        for path in CATALOG.files(locale):
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.startswith(("table-img-", "img-")) and "=" in line:
                    text = line.split("=", 1)[1]
                    for bold in (False, True):
                        assert REPLACEMENT not in "".join(part for _, part in runs(text, bold))
