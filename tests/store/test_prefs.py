"""Player preferences (migration 0004) and their client language (0007): stored per user,
on both backends, checked twice."""

from __future__ import annotations

import pytest

from bot.store import Store, UserPrefs
from bot.store.prefs import CHOICES


async def test_defaults_then_saved_values_survive_a_reopen(store: Store) -> None:
    assert await store.user_prefs(42) == UserPrefs()
    chosen = UserPrefs(locale="zh-CN", four_color=True, theme="light", card_size="large")
    await store.save_user_prefs(42, chosen.replace(turn_dm=False))
    await store.save_user_prefs(43, UserPrefs(theme="light"))
    assert await store.user_prefs(42) == chosen.replace(turn_dm=False)
    await store.save_user_prefs(42, chosen)  # an update, not a second row
    location = store.location
    await store.close()
    again = await Store.open(location)
    try:
        assert await again.user_prefs(42) == chosen
        assert await again.user_prefs(43) == UserPrefs(theme="light")
        assert await again.user_prefs(44) == UserPrefs()
    finally:
        await again.close()


async def test_bad_values_are_refused_before_and_by_the_database(store: Store) -> None:
    with pytest.raises(ValueError):
        UserPrefs(theme="neon")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        UserPrefs(four_color=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        UserPrefs(locale="fr-FR")  # type: ignore[arg-type]
    sneaky = UserPrefs()
    object.__setattr__(sneaky, "card_size", "huge")  # past the dataclass's own check
    with pytest.raises(Exception):  # noqa: B017 - sqlite3 or asyncpg: the CHECK constraint
        await store.save_user_prefs(7, sneaky)
    assert await store.user_prefs(7) == UserPrefs()
    foreign = UserPrefs()
    object.__setattr__(foreign, "client_locale", "fr")  # a language the bot does not speak
    with pytest.raises(Exception):  # noqa: B017 - as above
        await store.save_user_prefs(8, foreign)
    assert CHOICES["card_size"] == ("normal", "large") and None in CHOICES["locale"]


async def test_the_client_language_is_kept_apart_from_the_choices(store: Store) -> None:
    """Stored by the listener of every interaction (when it changes) and by ``/shengji
    prefs`` (the player's choices): neither undoes the other."""
    await store.save_client_locale(50, "zh-CN")  # a player who never chose anything
    assert await store.user_prefs(50) == UserPrefs()
    assert (await store.user_prefs(50)).client_locale == "zh-CN"
    # choices read before a click stored another client language: that language stays
    stale = (await store.user_prefs(50)).replace(four_color=True)
    await store.save_client_locale(50, None)  # a French client now
    await store.save_user_prefs(50, stale)
    await store.save_client_locale(51, "en-US")
    await store.save_client_locale(51, "zh-CN")  # an update, not a second row
    location = store.location
    await store.close()
    again = await Store.open(location)
    try:
        found = await again.user_prefs(50)
        assert found == UserPrefs(four_color=True) and found.client_locale is None
        assert (await again.user_prefs(51)).client_locale == "zh-CN"
        with pytest.raises(ValueError):
            await again.save_client_locale(52, "fr")  # type: ignore[arg-type]
        with pytest.raises(ValueError):
            UserPrefs(client_locale="fr")  # type: ignore[arg-type]
    finally:
        await again.close()
