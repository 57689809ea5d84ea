"""Each player's display preferences: language, four-colour suits, theme, card size, DMs.

Per Discord user, not per server: a player who reads Chinese or needs large cards
on a phone wants that at every table. A user without a row has the defaults.
The row also keeps the language of the player's Discord client at their last
interaction (``client_locale``, migration 0007): not a choice of theirs, but what a
message the bot sends them unprompted (a panel after a restart, a DM from another
process) falls back to, so it must outlive the process that saw it.
``UserPrefs`` refuses values outside its fields' sets, and the table's CHECK
constraints refuse them again, so a bad value can never be stored.
"""

from __future__ import annotations

import time
import typing
from dataclasses import dataclass, field, fields, replace
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
    #: the player's Discord client's language at their last interaction (None: not one the
    #: bot speaks, or never seen). Not a preference: two players who chose the same are
    #: equal whatever their clients, so it takes no part in comparisons
    client_locale: Locale | None = field(default=None, compare=False)

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
                "SELECT locale, four_color, theme, card_size, turn_dm, client_locale"
                " FROM user_prefs WHERE user_id = ?",
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
            client_locale=row["client_locale"],
        )

    async def save_user_prefs(self, user_id: int, prefs: UserPrefs) -> None:
        """The player's choices; an existing row keeps its ``client_locale``, which only
        ``save_client_locale`` changes (a choice read before a click must not undo it)."""
        async with self._write() as db:
            await db.execute(
                "INSERT INTO user_prefs (user_id, locale, four_color, theme, card_size,"
                " turn_dm, client_locale, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET"
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
                    prefs.client_locale,
                    time.time(),
                ),
            )

    async def save_client_locale(self, user_id: int, locale: Locale | None) -> None:
        """The language of the player's client; their choices stay (the defaults for a
        player without a row)."""
        if locale not in CHOICES["client_locale"]:
            raise ValueError(f"client_locale must be one of {CHOICES['client_locale']}")
        async with self._write() as db:
            await db.execute(
                "INSERT INTO user_prefs (user_id, client_locale, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET client_locale = excluded.client_locale,"
                " updated_at = excluded.updated_at",
                (user_id, locale, time.time()),
            )
