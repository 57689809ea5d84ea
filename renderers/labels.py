"""Every fixed word the images show, in English and Chinese.

The bot passes its own words (from its catalogs, in the reader's language) in
each scene's ``words``; these tables are the fallback for what a scene does not
carry, and for the renderers' demo and benchmarks. Kept in one table so that
``build_fonts.py`` can put each Chinese character used here into the shipped
font subset, and a test can check that none is missing.
Templates use ``str.format`` fields (``{n}``, ``{name}``). The Chinese words are
the catalog's (``img.ftl``), written as it writes them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

Lang = Literal["en", "zh"]

LABELS: dict[str, dict[str, str]] = {
    "en": {
        "trump": "Trump",
        "no_trump": "No trump",
        "trump_unset": "Trump not set",
        "level": "Level",
        "kitty": "Kitty",
        "cards_n": "{n} cards",
        "selected_n": "{n} selected",
        "hand_n": "Hand {n}",
        "attackers": "Attackers",
        "defenders": "Dealer's team",
        "buried_by": "Buried by {name}",
        "kitty_points": "Points in the kitty",
        "kitty_to_attackers": "× {m} = {bonus} to the attackers",
        "kitty_kept": "Kept by the dealer's team",
        "from_tricks": "From tricks",
        "penalty": "Throw penalties",
        "kitty_bonus": "Kitty bonus",
        "total": "Attackers' points",
        "next_dealer": "Next dealer",
        "your_hand": "Your hand",
        "and": " & ",  # between partners' names, spaces and all (Chinese: 和, none)
        "big_joker": "BIG",
        "small_joker": "SMALL",
    },
    "zh": {
        "trump": "主",
        "no_trump": "无主",
        "trump_unset": "未定主",
        "level": "级别",
        "kitty": "底牌",
        "cards_n": "{n}张",
        "selected_n": "已选{n}张",
        "hand_n": "第{n}局",
        "attackers": "闲家",
        "defenders": "庄家",
        "buried_by": "{name}扣底",
        "kitty_points": "底牌分",
        "kitty_to_attackers": "× {m} = {bonus}归闲家",
        "kitty_kept": "庄家保底",
        "from_tricks": "抓分",
        "penalty": "甩牌罚分",
        "kitty_bonus": "抠底",
        "total": "闲家得分",
        "next_dealer": "下局庄家",
        "your_hand": "我的手牌",
        "and": "和",
        "big_joker": "大王",
        "small_joker": "小王",
    },
}


def word(words: Mapping[str, str], lang: Lang, key: str, **fields: object) -> str:
    """The caller's word for ``key`` (already in its reader's language, from the bot's
    catalogs), else the built-in one (the renderers' own demo and benchmarks).

    The caller's text may keep a ``{field}`` for the image to fill in (a name it
    shortens to fit); other fields are already written in.
    """
    found = words.get(key)
    if found is None:
        return label(lang, key, **fields)
    return found.format(**fields) if fields and "{" in found else found


def label(lang: Lang, key: str, **fields: object) -> str:
    """The label ``key`` in ``lang``, with ``fields`` filled in."""
    text = LABELS[lang][key]
    return text.format(**fields) if fields else text


def all_label_text() -> str:
    """Every character any label can show (for the font subset and its test)."""
    return "".join(
        sorted({ch for table in LABELS.values() for text in table.values() for ch in text})
    )
