"""Card images with Pillow: plain scenes in, PNG bytes out.

Each function is pure and synchronous (a few milliseconds): the bot calls it in
its one render thread (``cogs.renderqueue``); called from several threads at once
(``await asyncio.to_thread(render_table, scene, theme="light")``), the renders take
turns (``turns.RENDER_LOCK``: they share caches, and Pillow releases the GIL).
Options shared by all of them:

* ``theme``: ``"dark"`` or ``"light"`` (image background and panels).
* ``four_color``: print ♦ in blue and ♣ in green instead of red and black.
* ``lang``: ``"en"`` or ``"zh"`` for every fixed label (Trump / 主, Dealer / 庄家...).

Unknown option values raise ``ValueError``. An image shows what its scene holds
and nothing else; the PNG carries no metadata.
"""

from __future__ import annotations

from typing import Literal

from . import hand, history, kitty, summary, table
from .labels import Lang
from .scenes import (
    HandScene,
    HistoryScene,
    KittyScene,
    SummaryScene,
    TableScene,
    TrickScene,
)
from .theme import Theme, ThemeName, theme
from .turns import one_at_a_time

__all__ = [
    "HandScene",
    "HistoryScene",
    "KittyScene",
    "SummaryScene",
    "TableScene",
    "TrickScene",
    "render_hand",
    "render_history",
    "render_kitty",
    "render_summary",
    "render_table",
]


_LANGS: dict[str, Lang] = {"en": "en", "zh": "zh"}


def _options(theme_name: str, lang: str) -> tuple[Theme, Lang]:
    th = theme(theme_name)
    known = _LANGS.get(lang)
    if known is None:
        raise ValueError(f"unknown language {lang!r}: use 'en' or 'zh'")
    return th, known


@one_at_a_time
def render_hand(
    scene: HandScene,
    *,
    theme: ThemeName = "dark",
    four_color: bool = False,
    lang: Literal["en", "zh"] = "en",
) -> bytes:
    """One player's hand, sorted as players hold it (``order_for(trump).sort_key``).

    Cards overlap in rows of at most 9 (33 cards make four rows) with suit
    groups set apart (two suits of one colour by felt); each card's code (``AH``,
    ``TS``, ``BJ``) is printed under it so the player can type it. Trumps get a
    gold edge once the trump is known; ``scene.selected`` cards are raised with an
    accent edge. Width 400-650 px; every word sized to be 12 px high at 400 px.
    """
    th, lg = _options(theme, lang)
    return hand.render(scene, th, four_color, lg)


@one_at_a_time
def render_table(
    scene: TableScene,
    *,
    theme: ThemeName = "dark",
    four_color: bool = False,
    lang: Literal["en", "zh"] = "en",
) -> bytes:
    """The hand's live table message, laid out for a phone: 800 px wide, every word
    at least 35 px (12 px high at the 400 px a phone shows it). The strip (hand and
    trick, trump, both teams, the attackers' points), the trick as one row per
    seat from the leader, and the previous trick's cards in a line. Its words are
    the scene's; ``lang`` only names the jokers on the card faces.
    """
    th, lg = _options(theme, lang)
    return table.render(scene, th, four_color, lg)


@one_at_a_time
def render_history(
    scene: HistoryScene, *, theme: ThemeName = "dark", four_color: bool = False
) -> bytes:
    """A finished hand as a grid: a row per trick (each seat's play, the leader
    shaded, the winner ringed, the points), then the kitty. 800 px wide, words
    sized for a phone; every word is the scene's.
    """
    th, _ = _options(theme, "en")
    return history.render(scene, th, four_color)


@one_at_a_time
def render_kitty(
    scene: KittyScene,
    *,
    theme: ThemeName = "dark",
    four_color: bool = False,
    lang: Literal["en", "zh"] = "en",
) -> bytes:
    """The kitty at the end of a hand: its cards (with codes), who buried them,
    its points and, with ``scene.multiplier``, the bonus the attackers earn
    (points × multiplier). At least 600 px wide.
    """
    th, lg = _options(theme, lang)
    return kitty.render(scene, th, four_color, lg)


@one_at_a_time
def render_summary(
    scene: SummaryScene,
    *,
    theme: ThemeName = "dark",
    four_color: bool = False,
    lang: Literal["en", "zh"] = "en",
) -> bytes:
    """A hand's result: ``scene.result`` as the headline, the attackers' points
    (tricks, penalties, kitty bonus, total on a bar ticked every score step),
    both teams' level changes and the next dealer. 640 px wide.
    """
    th, lg = _options(theme, lang)
    return summary.render(scene, th, four_color, lg)
