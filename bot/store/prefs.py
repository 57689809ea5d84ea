"""Each player's display preferences: language, four-colour suits, theme, card size, DMs.

Per Discord user, not per server: a player who reads Chinese or needs large cards
on a phone wants that at every table. A user without a row has the defaults.
``UserPrefs`` refuses values outside its fields' sets, and the table's CHECK
constraints refuse them again, so a bad value can never be stored.
"""

from __future__ import annotations

import time
import typing
from dataclasses import dataclass, fields, replace
from typing import Any, Literal

from .base import StoreBase

Theme = Literal["dark", "light"]
CardSize = Literal["normal", "large"]
Locale = Literal["en-US", "zh-CN"]


@dataclass(frozen=True, slots=True)
class UserPrefs:
    locale: Locale | None = None  # None: the language of the player's Discord client
    four_color: bool = False
    theme: Theme = "dark"
    card_size: CardSize = "normal"
    turn_dm: bool = True  # the short "your turn" DM

    def __post_init__(self) -> None:
        for name, allowed in CHOICES.items():
            value = getattr(self, name)
            if not any(value == a and type(value) is type(a) for a in allowed):
                raise ValueError(f"{name} must be one of {allowed}, not {value!r}")

    def replace(self, **changes: Any) -> UserPrefs:
        """A copy with ``changes``: fields named at run time (a player's command), their
        values checked by ``__post_init__``, not by the type checker."""
        return replace(self, **changes)


def _allowed(hint: object) -> tuple[object, ...]:
    if hint is bool:
        return (False, True)
    if typing.get_origin(hint) is Literal:
        return typing.get_args(hint)
    return tuple(v for arg in typing.get_args(hint) for v in (_allowed(arg) or (None,)))


_HINTS = typing.get_type_hints(UserPrefs)
#: the allowed values of every preference (None for locale: follow Discord)
CHOICES: dict[str, tuple[object, ...]] = {
    f.name: _allowed(_HINTS[f.name]) for f in fields(UserPrefs)
}


class UserPrefsStore(StoreBase):
    async def user_prefs(self, user_id: int) -> UserPrefs:
        """The player's preferences, or the defaults for someone who never set any."""
        async with self._read() as db:
            row = await db.one(
                "SELECT locale, four_color, theme, card_size, turn_dm FROM user_prefs"
                " WHERE user_id = ?",
                (user_id,),
            )
        if row is None:
            return UserPrefs()
        return UserPrefs(
            locale=row["locale"],
            four_color=bool(row["four_color"]),
            theme=row["theme"],
            card_size=row["card_size"],
            turn_dm=bool(row["turn_dm"]),
        )

    async def save_user_prefs(self, user_id: int, prefs: UserPrefs) -> None:
        async with self._write() as db:
            await db.execute(
                "INSERT INTO user_prefs"
                " (user_id, locale, four_color, theme, card_size, turn_dm, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET"
                " locale = excluded.locale, four_color = excluded.four_color,"
                " theme = excluded.theme, card_size = excluded.card_size,"
                " turn_dm = excluded.turn_dm, updated_at = excluded.updated_at",
                (
                    user_id,
                    prefs.locale,
                    int(prefs.four_color),
                    prefs.theme,
                    prefs.card_size,
                    int(prefs.turn_dm),
                    time.time(),
                ),
            )
