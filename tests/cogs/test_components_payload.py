"""``Components`` writes the payload a ``discord.ui.View`` of the same items writes: the
panels and buttons are built as payload (issue 14, load) without changing a request."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord.components import _component_factory

from bot.game import Match, Phase
from bot.rules import RuleSet
from cogs.panels import build_panel
from cogs.tableview import Components, lobby_buttons, table_buttons, topic_menu
from tests.game.helpers import to_play

NAMES = ("Ann", "Bo", "Cy", "Di")


def test_the_payload_is_the_one_a_view_writes() -> None:
    view = discord.ui.View(timeout=None)
    ours = Components()
    options = [("A♥ (AH)", "AH.0", True), ("K♥ (KH)", "KH.0", False)]
    select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
        custom_id="m",
        placeholder="Hearts (2)",
        min_values=0,
        max_values=2,
        options=[discord.SelectOption(label=lb, value=v, default=d) for lb, v, d in options],
        row=1,
    )
    view.add_item(select)
    ours.add(
        {
            "type": 3,
            "custom_id": "m",
            "min_values": 0,
            "max_values": 2,
            "disabled": False,
            "required": True,
            "placeholder": "Hearts (2)",
            "options": [{"label": lb, "value": v, "default": d} for lb, v, d in options],
        },
        1,
        width=5,
    )
    buttons: list[dict[str, Any]] = [
        {"label": "Play", "custom_id": "p", "style": discord.ButtonStyle.success, "row": 4},
        {"label": "Hand", "custom_id": "h", "style": discord.ButtonStyle.primary, "emoji": "🂠"},
        {"label": "Off", "custom_id": "o", "disabled": True, "row": 4},
        {"label": "Rules", "custom_id": "r"},
    ]
    for b in buttons:
        view.add_item(discord.ui.Button(**b))
        ours.button(
            b["label"],
            b["custom_id"],
            b.get("style", discord.ButtonStyle.secondary),
            disabled=b.get("disabled", False),
            row=b.get("row"),
            emoji=b.get("emoji"),
        )
    ours.add_item(discord.ui.Button(label="Item", custom_id="i"))
    view.add_item(discord.ui.Button(label="Item", custom_id="i"))
    assert ours.to_components() == view.to_components()
    assert ours.custom_ids() == ["h", "r", "i", "m", "p", "o"]


def _round_trips(components: Components) -> None:
    """discord.py reads the payload back to the same payload (every field it knows)."""
    for row in components.to_components():
        assert _component_factory(row).to_dict() == row  # type: ignore[union-attr]


def test_panels_and_buttons_are_well_formed() -> None:
    match = to_play(Match.new(3, RuleSet(), first_dealer=0))
    assert match.phase is Phase.PLAY
    seat = match.to_act
    assert seat is not None
    view = match.view(seat)
    staged = [f"{view.hand[0]}.0"]
    panel = build_panel(7, view, staged, names=NAMES)
    rows = panel.view.to_components()
    menus = [c for row in rows for c in row["components"] if c["type"] == 3]
    assert sum(len(m["options"]) for m in menus) == len(view.hand)
    assert [o["value"] for m in menus for o in m["options"] if o["default"]] == staged
    # each menu says what it holds and how many, as the language writes it
    counts = [len(m["options"]) for m in menus]
    assert [m["placeholder"].rsplit(" ", 1)[1] for m in menus] == [f"({n})" for n in counts]
    chinese = build_panel(7, view, staged, names=NAMES, locale="zh-CN").view.to_components()
    placeholders = [
        c["placeholder"] for row in chinese for c in row["components"] if c["type"] == 3
    ]
    assert [p[p.index("（") :] for p in placeholders] == [f"（{n}张）" for n in counts]
    for components in (
        panel.view,
        table_buttons(7),
        lobby_buttons(7),
        topic_menu(7, "kitty", "zh-CN"),
    ):
        _round_trips(components)


def test_a_full_row_is_refused() -> None:
    ours = Components()
    ours.add({"type": 3, "custom_id": "m", "options": []}, 0, width=5)
    with pytest.raises(ValueError):
        ours.button("x", "x", row=0)
