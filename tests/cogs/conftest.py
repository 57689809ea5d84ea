"""Fixtures of the cog tests: the fake Discord, its world and simulated players, the bot.

Each test starts a new bot, which syncs its slash commands to a new fake, as at every
start of the real bot; discord.py translates the tree then into each of Discord's 31
languages, asking the translator about every string in every one, a twentieth of these
tests' CPU for the same answer each time. Within a run that answer is kept per command,
keyed by its untranslated payload and the translator's class, so a change to the tree or
to the translator still translates anew. The sync itself (its request, the fake's checks
of the payload, the commands the fake registers) runs in every test as before;
``tests/cogs/test_commands.py`` checks what the translation gives.

The bot's waits in real seconds before it tries a request again (a dropped connection,
a 429 that outlasted discord.py's own retries, an answer whose connection failed) are a
tenth as long here (``_quick_retries``): the tests of those faults waited them out, 15 s
of a run, while what they check (how many tries, in which order, which state goes again)
is the same at any length. A test of a wait's length sets its own.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import orjson
import pytest
from discord import app_commands

from cogs import live, respond
from fakediscord.fixtures import bot_client, driver, fake_discord, world  # noqa: F401

from .helpers import shengji  # noqa: F401

_KINDS = (app_commands.Command, app_commands.Group, app_commands.ContextMenu)


@pytest.fixture(scope="session", autouse=True)
def _translated_once() -> Iterator[None]:
    kept: dict[tuple[type, bytes], dict[str, Any]] = {}
    with pytest.MonkeyPatch.context() as patch:
        for kind in _KINDS:
            patch.setattr(kind, "get_translated_payload", _kept(kind.get_translated_payload, kept))
        yield


def _kept(translate: Any, kept: dict[tuple[type, bytes], dict[str, Any]]) -> Any:
    async def get_translated_payload(
        self: Any, tree: app_commands.CommandTree[Any], translator: app_commands.Translator
    ) -> dict[str, Any]:
        key = (type(translator), orjson.dumps(self.to_dict(tree), option=orjson.OPT_SORT_KEYS))
        if key not in kept:
            kept[key] = await translate(self, tree, translator)
        return orjson.loads(orjson.dumps(kept[key]))  # a copy: callers may change theirs

    return get_translated_payload


@pytest.fixture(autouse=True)
def _quick_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(live, "NETWORK_WAITS", tuple(w / 10 for w in live.NETWORK_WAITS))
    monkeypatch.setattr(live, "RATE_LIMIT_WAITS", tuple(w / 10 for w in live.RATE_LIMIT_WAITS))
    monkeypatch.setattr(respond, "RESEND_AFTER", respond.RESEND_AFTER / 10)
