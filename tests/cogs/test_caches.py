"""The presenter's caches stay bounded: a long-running bot meets many players once."""

from __future__ import annotations

from typing import Any

import pytest

from bot.store import UserPrefs
from cogs import outlet, playerprefs
from cogs.playerprefs import PlayerPrefs


def test_preferences_past_their_time_are_swept_out(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(playerprefs, "PREFS_SWEEP", 8)
    prefs = PlayerPrefs()
    now = [0.0]
    monkeypatch.setattr(prefs, "_now", lambda: now[0])
    for user in range(8):
        prefs.remember_prefs(user, UserPrefs())
    now[0] = playerprefs.PREFS_TTL + 1  # all eight are past their time
    prefs.remember_prefs(100, UserPrefs())
    prefs.remember_prefs(101, UserPrefs())
    assert sorted(prefs._prefs) == [100, 101]
    assert prefs.cached_prefs(100) is not None


async def test_dm_channels_kept_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(outlet, "DM_CHANNELS_KEPT", 3)

    class User:
        def __init__(self, user_id: int) -> None:
            self.dm_channel = f"dm-{user_id}"

    class Client:
        def get_user(self, user_id: int) -> Any:
            return User(user_id)

    place = outlet.Outlet.__new__(outlet.Outlet)
    place.client = Client()  # type: ignore[assignment]
    place._dm_channels = {}
    for user in range(5):
        assert await place.dm(user) == f"dm-{user}"
    assert list(place._dm_channels) == [2, 3, 4], "the longest kept went first"
