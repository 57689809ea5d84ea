"""The table image: laid out for a phone, its words from the caller, the trick and the strip."""

from __future__ import annotations

import dataclasses
import itertools

import pytest

from bot.i18n import CATALOG, t
from bot.rules import Trump, parse_cards
from bot.tournament.cup import Team
from bot.tournament.rounds import Rounds
from renderers import TableScene, TrickScene, render_table
from renderers.canvas import new_paper, png
from renderers.fonts import REPLACEMENT, fit_name, runs, text_width
from renderers.table import WIDTH, Page, draw, height
from renderers.theme import DARK, LIGHT, THEMES, Theme, palette_colours, palette_image

from . import reference
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
LANGS = ("en", "zh")


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


def drawn(table: TableScene, theme: Theme, four_color: bool = False, lang: str = "en") -> Page:
    """The table drawn on a palette canvas of its own (``render_table`` reuses one)."""
    page = Page(new_paper(WIDTH, height(table), theme), theme, four_color, lang)  # type: ignore[arg-type]
    return draw(table, page)


@pytest.mark.parametrize("theme", [DARK, LIGHT])
@pytest.mark.parametrize("words", [BADGES, BADGES_ZH])
def test_every_word_is_at_least_12_px_high_on_a_400_px_phone(theme, words) -> None:
    page = drawn(scene(words=words), theme)
    phone, scale = at_phone_width(png(page.canvas))
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
    wide = text_width("阿娜（托管）", 35, True)  # a full-width note, as the Chinese tables say it
    assert fit_name("阿娜（托管）", 35, True, wide - 1, seat=2) == "阿娜 #2"
    assert fit_name("Bob Li（托管）", 35, True, wide - 1) == "Bob Li"


def test_the_catalogs_image_words_render_in_the_shipped_fonts() -> None:
    """The table image's words come from the catalogs; every character of them is drawable."""
    for locale in ("en-US", "zh-CN"):
        for path in CATALOG.files(locale):
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.startswith(("table-img-", "img-")) and "=" in line:
                    text = line.split("=", 1)[1]
                    for bold in (False, True):
                        assert REPLACEMENT not in "".join(part for _, part in runs(text, bold))


def test_the_names_the_bot_gives_render_in_the_shipped_fonts() -> None:
    """Computer players' and teams' names are drawn in the images: no character of them is
    left to the replacement box (an emoji would be)."""
    for locale in ("en-US", "zh-CN"):
        names = [t(locale, "service-bot-name", n=n) for n in range(1, 9)]
        names.append(t(locale, "service-bot-stands-in", name="Bob"))
        team = t(locale, "tournament-bot-team", n=12)
        names += [team, Rounds._seat(Team(team, [], [], True, True, "normal"), 1).name]
        for name in names:
            assert REPLACEMENT not in "".join(part for _, part in runs(name, True)), name


def _scenes() -> list[TableScene]:
    """Tables of every shape: the trick under way with the previous one (jokers in
    it), a final trick won (its play ringed), a 12-card throw and three 12-card
    follows (fans of two rows), a failed throw (cards taken back, greyed, set apart)."""
    base = scene(last=True)
    throw = parse_cards("AS KS KS QS JS JS 9S 9S 8S 7S 7S 5S")
    follow = parse_cards("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH")
    big = TrickScene(NAMES, 0, {0: throw, 1: follow, 2: follow, 3: follow}, TRUMP, 0, 0, True)
    failed = TrickScene(
        NAMES,
        leader=2,
        plays={2: parse_cards("3C"), 3: parse_cards("BJ")},
        trump=TRUMP,
        dealer=2,
        winner=3,
        failed_throw=(2, parse_cards("AC KC 3C"), parse_cards("AC KC")),
    )
    final = dataclasses.replace(base.trick, final=True, plays={**base.trick.plays, 0: throw[:3]})
    return [
        base,
        dataclasses.replace(base, trick=final, last=None),
        dataclasses.replace(base, trick=big),
        dataclasses.replace(base, trick=failed, badges=BADGES_ZH),
    ]


def test_the_palette_composition_gives_the_pixels_of_drawing_in_rgb() -> None:
    """Drawn on a palette canvas from cached pieces, each edge composed over the
    surface it lies on, the table must come out the very same, pixel for pixel, as
    the same layout drawn on an RGB canvas and mapped onto the palette at the end, in
    both themes, both colour schemes and both languages (the jokers' faces)."""
    for table in _scenes():
        for theme, four_color, lang in itertools.product(THEMES.values(), (False, True), LANGS):
            expected = reference.draw_table(table, theme, four_color, lang)
            image = drawn(table, theme, four_color, lang).canvas
            assert image.size == expected.size
            label = (table.trick.plays.keys(), theme.name, four_color, lang)
            assert image.tobytes() == expected.tobytes(), label
            assert image.getpalette() == palette_image(theme.name).getpalette()


def test_the_png_holds_the_composed_pixels_and_only_palette_colours() -> None:
    """Through ``render_table``: the thread's reused canvas (the taller tables drawn
    first, the themes in turn) still gives each image's own pixels."""
    tables = sorted(_scenes(), key=height, reverse=True)
    for table in tables:
        for theme in THEMES.values():
            image = decode(render_table(table, theme=theme.name, four_color=True, lang="zh"))
            expected = reference.draw_table(table, theme, True, "zh").convert("RGB")
            assert image.size == expected.size
            assert image.tobytes() == expected.tobytes(), theme.name
            colours = {colour for _, colour in image.getcolors(1 << 16) or []}
            assert colours <= set(palette_colours(theme)), theme.name


@pytest.mark.parametrize("lang", LANGS)
def test_partners_names_are_joined_as_the_language_writes_them(
    lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """张伟和Carol in Chinese (no spaces around 和), Alice & Carol in English: the
    catalog's img-and carries its own spaces, the table and the summary add none."""
    from renderers import SummaryScene, render_summary

    locale = "zh-CN" if lang == "zh" else "en-US"
    pair = t(locale, "img-and")
    drawn: list[str] = []
    real = Page.text

    def text(self: Page, x: float, cy: float, words: str, *args: object, **kw: object) -> int:
        drawn.append(words)
        return real(self, x, cy, words, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(Page, "text", text)
    render_table(dataclasses.replace(scene(), pair_word=pair), lang=lang)  # type: ignore[arg-type]
    summary = SummaryScene(
        NAMES, 0, 0, 0, None, ("2", "2"), ("3", "2"), 1, "x", words={"and": pair}
    )
    render_summary(summary, lang=lang)  # type: ignore[arg-type]
    joined = [w for w in drawn if pair.strip() in w]
    assert joined, drawn
    if lang == "zh":
        assert pair == "和" and not any(" 和" in w or "和 " in w for w in drawn), joined
    else:
        assert pair == " & " and all(" & " in w for w in joined), joined
    assert any(w.startswith(pair) for w in joined), "the table: the partner's name after it"
    assert any(w.startswith(f" · Alice{pair}") for w in joined), "the summary"
