"""Which language a reply to one player is in, and refusals said in it.

What only one player reads: their ``/shengji prefs`` language, else their Discord
client's (``interaction.locale``), else the server's preferred locale, else English.
"""

from __future__ import annotations

import discord

from bot.i18n import pick, t
from bot.i18n.rules import explain
from bot.rules import RulesError
from bot.service import UserError
from bot.store import UserPrefs


def locale_for(interaction: discord.Interaction, prefs: UserPrefs) -> str:
    guild = interaction.guild
    return pick(prefs.locale, interaction.locale, guild.preferred_locale if guild else None)


async def reply_locale(interaction: discord.Interaction) -> str:
    presenter = getattr(interaction.client, "presenter", None)
    prefs = UserPrefs() if presenter is None else await presenter.prefs_of(interaction.user.id)
    return locale_for(interaction, prefs)


async def error_text(interaction: discord.Interaction, err: UserError) -> str:
    """A refusal in the player's language (English for one without a key)."""
    loc = await reply_locale(interaction)
    if isinstance(err.reason, RulesError):
        return explain(loc, err.reason)
    if err.key:
        params = {k: v if isinstance(v, int | str) else str(v) for k, v in err.params.items()}
        return t(loc, err.key, **params)
    return str(err)
