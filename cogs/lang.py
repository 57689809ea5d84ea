"""Which language a reply is in, and refusals said in it.

What only one player reads (ephemeral replies, DMs): their ``/shengji prefs``
language, else their Discord client's (``interaction.locale``), else the server's
preferred locale, else English. What the whole channel reads (a table's messages,
the leaderboard, a tournament's messages): the server's ``/shengji settings
language``, else its preferred locale, else English. The server's preferred locale
is the one each interaction carries (``guild_locale``, what Discord holds now), the
cached guild's only without it.
"""

from __future__ import annotations

import asyncio
import logging

import discord

from bot.i18n import DEFAULT, Arg, pick, t
from bot.i18n.rules import card_text, explain, join
from bot.rules import Card, RulesError
from bot.service import UserError
from bot.store import UserPrefs

log = logging.getLogger(__name__)

#: a player with no stored preferences; made once, since a ``UserPrefs`` checks every
#: field when it is made and a reply or a panel would otherwise make one each time
DEFAULT_PREFS = UserPrefs()
#: seconds a reply waits for the player's stored preferences before it goes out in the
#: language of their Discord client instead. Several replies are the interaction's first
#: response (the Rules button, ``/shengji hint``, refusals), which Discord wants within
#: 3 s: a locked database must not make them miss it, and a reply in the client's
#: language beats "This interaction failed" in the chosen one
PREFS_WAIT = 0.5


def locale_for(interaction: discord.Interaction, prefs: UserPrefs) -> str:
    return pick(prefs.locale, interaction.locale, _guild_locale(interaction))


def _guild_locale(interaction: discord.Interaction) -> discord.Locale | None:
    guild = interaction.guild
    return interaction.guild_locale or (guild.preferred_locale if guild else None)


async def reply_prefs(interaction: discord.Interaction) -> UserPrefs:
    """The player's preferences; the defaults when the store fails (an apology for a
    failure must not fail too) or is slow to tell them (``PREFS_WAIT``)."""
    presenter = getattr(interaction.client, "presenter", None)
    if presenter is not None:
        user_id = interaction.user.id
        cached: UserPrefs | None = presenter.cached_prefs(user_id)
        try:
            if cached is not None:
                return cached
            found: UserPrefs = await asyncio.wait_for(presenter.prefs_of(user_id), PREFS_WAIT)
            return found
        except TimeoutError:  # the read goes on (``PlayerPrefs.prefs_of``) and is kept once done
            log.info("preferences of %s not read in time; replying without them", user_id)
        except Exception:
            log.warning("preferences of %s unreadable; replying without them", user_id)
    return DEFAULT_PREFS


async def reply_locale(interaction: discord.Interaction) -> str:
    """The player's language (see ``reply_prefs``)."""
    return locale_for(interaction, await reply_prefs(interaction))


async def server_locale(interaction: discord.Interaction) -> str:
    """For what the whole channel reads: the server's ``language`` setting, else its
    preferred locale (as a table's messages)."""
    service = getattr(interaction.client, "service", None)
    setting = None
    if service is not None and interaction.guild_id is not None:
        try:
            settings = await service.guild_settings(interaction.guild_id)
            setting = settings.timers.get("language")
        except Exception:
            log.warning("settings of guild %s unreadable", interaction.guild_id)
    return pick(setting, _guild_locale(interaction))


def refusal(key: str, **params: Arg) -> UserError:
    """A refusal of the Discord layer, said in each player's language by ``error_text``."""
    error = UserError(t(DEFAULT, key, **params), key=key)
    error.params = dict(params)
    return error


async def say(interaction: discord.Interaction, key: str, **args: Arg | tuple[Card, ...]) -> str:
    """``key`` in the language of the player who sent ``interaction``; cards (a tuple)
    as players of that language write them."""
    loc = await reply_locale(interaction)
    said = {k: card_text(loc, v) if isinstance(v, tuple) else v for k, v in args.items()}
    return t(loc, key, **said)


def _param(loc: str, value: object) -> Arg:
    """A refusal's parameter as words: a tuple is a list in the reader's language."""
    if isinstance(value, tuple):
        return join(loc, [str(item) for item in value])
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return str(value)
    return value


async def error_text(interaction: discord.Interaction, err: UserError) -> str:
    """A refusal in the player's language (English for one without a key)."""
    loc = await reply_locale(interaction)
    if isinstance(err.reason, RulesError):
        return explain(loc, err.reason)
    if err.key:
        return t(loc, err.key, **{k: _param(loc, v) for k, v in err.params.items()})
    return str(err)
