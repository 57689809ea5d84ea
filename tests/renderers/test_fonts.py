"""Shipped fonts: present, licensed, small, and covering every label."""

from __future__ import annotations

from pathlib import Path

from renderers import fonts
from renderers.build_fonts import gb2312
from renderers.fonts import FONT_DIR, REPLACEMENT, has_glyph, runs, text_mask
from renderers.labels import LABELS, all_label_text

REPO = Path(__file__).resolve().parents[2]


def test_fonts_ship_with_the_repository_and_their_licences():
    assert FONT_DIR == REPO / "data" / "fonts"
    for name in fonts._FILES.values():
        assert (FONT_DIR / name).is_file(), name
    assert "SIL OPEN FONT LICENSE" in (FONT_DIR / "OFL-NotoSansCJK.txt").read_text("utf-8")
    assert "Bitstream" in (FONT_DIR / "LICENSE-DejaVu.txt").read_text("utf-8")
    total = sum(p.stat().st_size for p in FONT_DIR.iterdir())
    assert total < 8 * 1024 * 1024  # the CJK subsets are 3 MB each: player names


def test_every_label_character_is_in_a_shipped_font():
    for bold in (False, True):
        for ch in all_label_text():
            if ch.isspace():
                continue
            assert has_glyph("latin", bold, ch) or has_glyph("cjk", bold, ch), (ch, bold)


def test_both_languages_have_the_same_labels():
    assert LABELS["en"].keys() == LABELS["zh"].keys()


def test_chinese_characters_of_names_render():
    """GB2312 level 1 alone drew 婷, 琪, 睿 and 鑫 as boxes (李婷: 李□); names use
    characters beyond GB2312 too (玥, 祎, 堃), and traditional ones (陳, 張, 華)."""
    common = gb2312()
    assert len(common) == 6763
    for ch in common[::40] + "婷琪昊睿鑫萱璐晗煜" + "玥祎堃彧珺犇垚" + "陳張華黃劉":
        assert has_glyph("cjk", True, ch) and has_glyph("cjk", False, ch), ch


def test_missing_characters_become_boxes_and_invisible_ones_vanish():
    assert runs("Ann🔥", True) == [("latin", "Ann" + REPLACEMENT)]
    assert runs("王\u200dx\ufe0f", False) == [("cjk", "王"), ("latin", "x")]
    assert text_mask("", 16).width == 0
    assert text_mask("王 Ann", 16, True).width > text_mask("Ann", 16, True).width
