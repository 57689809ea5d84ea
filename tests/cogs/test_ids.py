"""The custom-id codec: every id round-trips, and junk is refused without an error."""

from __future__ import annotations

import pytest

from cogs.ids import (
    BidButton,
    ComponentId,
    CupComponent,
    CupWhat,
    LobbyButton,
    PanelButton,
    PickerMenu,
    ReviewButton,
    TableButton,
    TopicMenu,
    format_id,
    parse_cup_id,
    parse_id,
)

IDS = [
    LobbyButton(12, "join"),
    LobbyButton(1, "start"),
    TableButton(3, "last"),
    BidButton(7, 2, "AHAH"),
    PickerMenu(9, 3, 41, 2),
    PanelButton(9, 0, 41, "confirm"),
    ReviewButton(5, 3),
    TopicMenu(4),
]


@pytest.mark.parametrize("cid", IDS, ids=str)
def test_round_trip(cid: ComponentId) -> None:
    text = format_id(cid)
    assert text.startswith("sj:") and len(text) <= 100
    assert parse_id(text) == cid


@pytest.mark.parametrize("what", ["reg", "wd", "ok", "partner", "here"])
def test_tournament_ids_round_trip_apart_from_the_tables(what: CupWhat) -> None:
    text = format_id(CupComponent(12, what))
    assert text == f"sj:c:12:{what}" and parse_cup_id(text) == CupComponent(12, what)
    assert parse_id(text) is None  # the tables' router leaves it to the tournaments'


@pytest.mark.parametrize(
    "junk",
    ["sj:c:12", "sj:c:12:dance", "sj:c:x:reg", "sj:c:12:reg:1", "sj:l:12:join", f"sj:c:{2**53}:ok"],
)
def test_tournament_junk_is_not_ours(junk: str) -> None:
    assert parse_cup_id(junk) is None


@pytest.mark.parametrize(
    "junk",
    [
        "",
        "sj",
        "sj:l",
        "other:l:1:join",
        "sj:r:5",
        "sj:r:5:x",
        "sj:r:5:3:1",
        "sj:g:4:throws",  # the topic is the menu's value, never in the id
        "sj:g:x",
        "sj:t:4",
        "sj:l:x:join",
        "sj:l:1:dance",
        "sj:t:1:hand:extra",
        "sj:d:1:4:AH",  # seat 4 does not exist
        "sj:d:1:0:A H",
        "sj:p:1:0:x:0",
        "sj:b:1:0:3:launch",
        "sj:z:1:0",
        "sj:l:-1:join",
        "sj:p:1:0:3:" + "9" * 40,
        "sj:r:1:9999999999999999999",  # past the store's 64-bit integers
        "sj:r:9999999999999999999:1",
        f"sj:r:1:{2**53}",
        f"sj:l:{2**53}:join",
    ],
)
def test_junk_is_not_ours(junk: str) -> None:
    assert parse_id(junk) is None
