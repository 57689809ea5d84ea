"""``/shengji prefs``: each player's language, four-colour suits, theme, card size, turn DM.

Decisions: preferences belong to the player, not the server, and apply at every
table; a change redraws the player's live panels at once (in this process; another
process's tables read it within ``cogs.playerprefs.PREFS_TTL``). Replies to the player
(this command's too) use the player's language: their own setting, else their
Discord client's (``interaction.locale``; for DMs the one of their last interaction,
stored when it changes, so it holds after a restart), else the server's, else English.
Values are typed in either language (``zh``/``中文``, ``on``/``开``...); a bad one gets
an error in the player's language and changes nothing. The command is acknowledged
(deferred, ephemeral) before the store is read or written, and answered through the
follow-up.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import t
from bot.store import UserPrefs

from .common import deps, reply, shengji
from .lang import locale_for

log = logging.getLogger(__name__)

FIELDS = ("language", "four_color", "theme", "card_size", "turn_dm")
FIELD_KEYS = {
    "language": "prefs-field-language",
    "four_color": "prefs-field-four-color",
    "theme": "prefs-field-theme",
    "card_size": "prefs-field-card-size",
    "turn_dm": "prefs-field-turn-dm",
}
_ON = ("on", "yes", "true", "1", "开", "是")
_OFF = ("off", "no", "false", "0", "关", "否")
#: what a player may type for each field -> the stored value
WORDS: dict[str, dict[str, object]] = {
    "language": {
        **dict.fromkeys(("zh", "zh-cn", "chinese", "中文", "汉语", "简体中文"), "zh-CN"),
        **dict.fromkeys(("en", "en-us", "english", "英文", "英语"), "en-US"),
        **dict.fromkeys(("auto", "discord", "自动"), None),
    },
    "four_color": {**dict.fromkeys(_ON, True), **dict.fromkeys(_OFF, False)},
    "turn_dm": {**dict.fromkeys(_ON, True), **dict.fromkeys(_OFF, False)},
    "theme": {"dark": "dark", "深色": "dark", "light": "light", "浅色": "light"},
    "card_size": {"normal": "normal", "普通": "normal", "large": "large", "大": "large"},
}
#: the words a bad value's error offers, in the player's language (each one in ``WORDS``)
ALLOWED = {
    "language": "prefs-allowed-language",
    "four_color": "prefs-allowed-switch",
    "turn_dm": "prefs-allowed-switch",
    "theme": "prefs-allowed-theme",
    "card_size": "prefs-allowed-card-size",
}


def shown(loc: str, field: str, prefs: UserPrefs) -> str:
    value = getattr(prefs, "locale" if field == "language" else field)
    if field == "language":
        return t(loc, "prefs-value-language", value=value or "auto")
    if isinstance(value, bool):
        return t(loc, "prefs-value-switch", value="on" if value else "off")
    return t(loc, "prefs-value-choice", value=str(value))


def prefs_embed(loc: str, prefs: UserPrefs) -> discord.Embed:
    lines = [
        t(loc, "prefs-line", name=t(loc, FIELD_KEYS[f]), field=f, value=shown(loc, f, prefs))
        for f in FIELDS
    ]
    embed = discord.Embed(title=t(loc, "prefs-title"), description="\n".join(lines))
    embed.set_footer(text=t(loc, "prefs-footer"))
    return embed


@shengji.command(
    name="prefs", description="Your language, four-colour suits, theme, card size and turn DMs"
)
@app_commands.describe(field="Preference to change", value="New value")
@app_commands.choices(field=[app_commands.Choice(name=f, value=f) for f in FIELDS])
async def prefs(
    interaction: discord.Interaction, field: str | None = None, value: str | None = None
) -> None:
    client = deps(interaction)
    service = client.service
    current = await service.user_prefs(interaction.user.id)
    loc = locale_for(interaction, current)
    if field is None and value is not None:
        await _refuse(interaction, loc, "prefs-no-field")
        return
    if field is None or value is None:
        if field is not None and field not in FIELDS:
            await _refuse(interaction, loc, "prefs-bad-field", field=field[:40])
            return
        await interaction.followup.send(embed=prefs_embed(loc, current), ephemeral=True)
        return
    if field not in FIELDS:
        await _refuse(interaction, loc, "prefs-bad-field", field=field[:40])
        return
    words = WORDS[field]
    typed = value.strip().lower()
    if typed not in words:
        name = t(loc, FIELD_KEYS[field])
        allowed = t(loc, ALLOWED[field])
        await _refuse(interaction, loc, "prefs-bad-value", field=name, allowed=allowed)
        return
    changed = current.replace(**{"locale" if field == "language" else field: words[typed]})
    await service.save_user_prefs(interaction.user.id, changed)
    client.presenter.remember_prefs(interaction.user.id, changed)
    client.presenter.redraw_for(interaction.user.id)
    loc = locale_for(interaction, changed)
    embed = prefs_embed(loc, changed)
    await interaction.followup.send(content=t(loc, "prefs-saved"), embed=embed, ephemeral=True)


async def _refuse(interaction: discord.Interaction, loc: str, key: str, **args: str) -> None:
    await reply(interaction, t(loc, key, **args))


class ClientLocales(commands.Cog):
    """Remembers each player's Discord language for the DMs the bot sends them later,
    stored (when it changes) so that a restarted or another process knows it too."""

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        presenter = getattr(interaction.client, "presenter", None)
        if presenter is None:
            return
        try:
            await presenter.note_client_locale(interaction.user.id, interaction.locale)
        except Exception:  # the language of later DMs only: the interaction goes on
            log.warning("client language of %s not stored", interaction.user.id, exc_info=True)
