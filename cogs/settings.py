"""The rules in effect, and a server's settings (admins change them)."""

from __future__ import annotations

import asyncio
import logging

import discord
from discord import app_commands

from bot.ai.expert import THINK_MS
from bot.i18n import LOCALES, normalize, t
from bot.i18n.guide import multipliers
from bot.i18n.rules import join
from bot.rules import BIG_LIGHT_LEAGUE, RuleSet
from bot.service import Limits, Timers, UserError
from bot.store import GuildSettings

from .common import deps, is_admin, place_of, shengji
from .lang import refusal, reply_locale
from .respond import suggestions
from .tableview import rules_embed
from .text import RULE_TOPICS

log = logging.getLogger(__name__)

#: seconds the value suggestions wait for the server's settings: Discord waits 3 s for
#: the choices, and the reader's language may take ``cogs.lang.PREFS_WAIT`` too
READ_WAIT = 1.0

TIMER_FIELDS = ("bid_window", "deal_pace", "bot_delay", "next_hand", "warn_before")
PLACES = ("thread", "channel")  # table_place: a thread per table (default), or the channel
RULE_FIELDS = tuple(RuleSet.__dataclass_fields__)
WORD_FIELDS = ("table_place", "language", "big_light_league", "think_ms")
THINK_RANGE = (20, 2000)  # the expert's milliseconds per decision: a human pace at most
#: the settings whose values have names, and the message naming them (a field absent
#: here takes a number, shown as typed)
VALUE_KEYS = {
    "decks": "settings-value-decks",
    "bidding": "settings-value-bidding",
    "no_bid": "settings-value-no_bid",
    "first_dealer": "settings-value-first_dealer",
    "overcall": "settings-value-overcall",
    "fixed_two_trump": "settings-value-yes-no",
    "trump_chain_tractors": "settings-value-yes-no",
    "follow_shape": "settings-value-follow_shape",
    "kitty_multiplier": "settings-value-kitty_multiplier",
    "points_cap": "settings-value-points_cap",
    "scoring": "settings-value-scoring",
    "assistance": "settings-value-assistance",
    "finish": "settings-value-finish",
    "table_place": "settings-value-table_place",
    "language": "settings-value-language",
}
NUMBER_KEYS = {
    "throw_penalty": "settings-bad-throw-penalty",
    "play_seconds": "settings-bad-turn-seconds",
    "kitty_seconds": "settings-bad-turn-seconds",
}


@shengji.command(name="rules", description="Explain the rules in effect")
@app_commands.describe(topic="Which part of the rules")
@app_commands.choices(topic=[app_commands.Choice(name=t, value=t) for t in RULE_TOPICS])
async def rules(interaction: discord.Interaction, topic: str = "overview") -> None:
    here = await deps(interaction).service.rules_here(
        interaction.guild_id or 0, place_of(interaction)
    )
    loc = await reply_locale(interaction)
    await interaction.followup.send(embed=rules_embed(loc, topic, here), ephemeral=True)


@shengji.command(
    name="settings", description="Show or change this server's rules and timers (admins change)"
)
@app_commands.describe(
    field="Setting to change",
    value="New value",
    max_tables="Most tables open at once in this server",
)
@app_commands.choices(
    field=[
        app_commands.Choice(name=f, value=f) for f in (*RULE_FIELDS, *TIMER_FIELDS, *WORD_FIELDS)
    ]
)
async def settings(
    interaction: discord.Interaction,
    field: str | None = None,
    value: app_commands.Range[str, 1, 40] | None = None,
    max_tables: app_commands.Range[int, 1, None] | None = None,
) -> None:
    """``max_tables`` is an option of its own: ``field`` already offers Discord's
    most choices (25), and a number option gets Discord's own number input."""
    service = deps(interaction).service
    guild_id = interaction.guild_id or 0
    current = await service.guild_settings(guild_id)
    most = service.limits.tables_per_guild
    changed = field is not None or max_tables is not None
    loc = await reply_locale(interaction)  # a refusal names a rule's values in it too
    if value is not None and field is None:
        raise refusal("settings-no-field")
    if changed:
        if not is_admin(interaction):
            raise refusal("settings-admins-only")
        if field is not None:
            if value is None:
                raise refusal("settings-no-value", field=field)
            current = _changed(current, field, value, most_tables=most, loc=loc)
        if max_tables is not None:
            current = _changed(current, "max_tables", str(max_tables), most_tables=most)
        await service.save_guild_settings(guild_id, current)
    await interaction.followup.send(  # deferred before the store is touched (common.DEFERRED)
        embed=settings_embed(loc, current, changed=changed, most_tables=most),
        ephemeral=True,
    )


def settings_embed(
    loc: str, current: GuildSettings, *, changed: bool, most_tables: int
) -> discord.Embed:
    """The server's settings; the names and values are what an admin types, so they stay
    as typed (in code format) in both languages, each beside its name in the reader's
    language (几副牌 `decks` = 两副牌 `2`: the field menu's name, and the value's), and
    the words around them are translated; a number stays a plain number."""
    lines = [
        f"{_named(loc, name)} = {_valued(loc, name, value)}"
        for name, value in _values(current, most_tables).items()
    ]
    title = t(loc, "settings-title-changed" if changed else "settings-title")
    embed = discord.Embed(title=title, description="\n".join(lines)[:4000])
    embed.set_footer(text=t(loc, "settings-footer"))
    return embed


def _values(current: GuildSettings, most_tables: int) -> dict[str, str]:
    """Every setting's value as an admin would type it back."""
    timers = Timers.from_dict(current.timers)
    values = {name: _shown(getattr(current.rules, name)) for name in RULE_FIELDS}
    values |= {name: f"{getattr(timers, name):g}" for name in TIMER_FIELDS}
    values["table_place"] = str(current.timers.get("table_place", PLACES[0]))
    values["language"] = str(current.timers.get("language", "auto"))
    values["big_light_league"] = str(int(current.timers.get("big_light_league", BIG_LIGHT_LEAGUE)))
    values["think_ms"] = str(int(current.timers.get("think_ms", THINK_MS)))
    # what applies: the process's limit (SHENGJI_MAX_TABLES) bounds a server's own
    values["max_tables"] = str(min(most_tables, int(current.timers.get("max_tables", most_tables))))
    return values


def _valued(loc: str, field: str, value: str, *, fmt: str = "`{}`") -> str:
    """``value`` as typed (in ``fmt``), after its name in the reader's
    language when it has one; a number as it is."""
    key = VALUE_KEYS.get(field)
    if key is None:
        return value
    # the kitty bonus's numbers from the rules themselves, as the rules topic says them
    kitty = field == "kitty_multiplier"
    times = multipliers(RuleSet().replace(kitty_multiplier=value)) if kitty else {}
    name = t(loc, key, value=int(value) if value.isdigit() else value, **times)
    return f"{name} {fmt.format(value)}"


def _codes(field: str) -> tuple[str, ...]:
    """What ``field`` takes, as typed; empty for a number field."""
    if field == "table_place":
        return PLACES
    if field == "language":
        return ("auto", *LOCALES)
    allowed = RuleSet.choices(field) if field in RULE_FIELDS else None
    return () if allowed is None else tuple(_shown(a) for a in allowed)


@settings.autocomplete("value")
@suggestions
async def value_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The values of the field chosen, each by its name in the reader's language beside
    what it types; a number field offers the number it has now. A suggestion only: what
    is typed is still checked when the command runs."""
    field = getattr(interaction.namespace, "field", None)
    if not isinstance(field, str) or field not in (*RULE_FIELDS, *TIMER_FIELDS, *WORD_FIELDS):
        return []
    service = deps(interaction).service
    try:  # a failing or locked store leaves out the value in force, not the choices
        found = await asyncio.wait_for(service.guild_settings(interaction.guild_id or 0), READ_WAIT)
        now: str | None = _values(found, service.limits.tables_per_guild)[field]
    except Exception:
        log.info(
            "settings of guild %s not read in time; suggesting without them", interaction.guild_id
        )
        now = None
    loc = await reply_locale(interaction)
    typed = current.strip().lower()
    choices = []
    for code in _codes(field) or ((now,) if now is not None else ()):
        name = _valued(loc, field, code, fmt="({})")
        if code == now:
            name = t(loc, "settings-value-now", value=name)
        if typed in name.lower():
            choices.append(app_commands.Choice(name=name[:100], value=code))
    return choices[:25]


def _named(loc: str, field: str) -> str:
    """``field`` as typed, after its name in the field menu when that name differs."""
    key = "cmd-shengji-settings-max_tables" if field == "max_tables" else f"cmd-choice-{field}"
    name = t(loc, key)
    return f"`{field}`" if name == field else f"{name} `{field}`"


def _shown(value: object) -> str:
    """A rule's value as an admin would type it back."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return "none" if value is None else str(value)


def _changed(
    settings: GuildSettings,
    field: str,
    value: str,
    *,
    most_tables: int | None = None,
    loc: str = "en-US",
) -> GuildSettings:
    """Settings with one field changed; ``UserError`` explains a bad value.

    ``max_tables`` may only lower the process's limit (``most_tables``): that limit is
    the operator's guard for the whole bot, which no one server may raise. ``loc``: the
    reader's language, in which a refusal names the values a rule takes.
    """
    if field == "table_place":
        if value.strip().lower() not in PLACES:
            raise refusal("settings-bad-place")
        return GuildSettings(settings.rules, {**settings.timers, field: value.strip().lower()})
    if field == "language":  # the tables' language; "auto": the server's preferred locale
        typed = value.strip().lower()
        chosen = normalize(typed)
        if chosen is None and typed != "auto":
            raise refusal("settings-bad-language")
        timers = {k: v for k, v in settings.timers.items() if k != "language"}
        return GuildSettings(settings.rules, {**timers, **({field: chosen} if chosen else {})})
    if field == "big_light_league":  # league points of a 大光 (seed 001 特殊房间配置)
        try:
            points = int(value)
        except ValueError:
            raise refusal("settings-bad-big-light") from None
        if not 1 <= points <= 20:
            raise refusal("settings-bad-big-light")
        return GuildSettings(settings.rules, {**settings.timers, field: points})
    if field == "think_ms":  # the expert computer player's time per decision
        low, high = THINK_RANGE
        try:
            ms = int(value)
        except ValueError:
            raise refusal("settings-bad-think", low=low, high=high) from None
        if not low <= ms <= high:
            raise refusal("settings-bad-think", low=low, high=high)
        return GuildSettings(settings.rules, {**settings.timers, field: ms})
    if field == "max_tables":  # live tables at once in this server
        most = Limits().tables_per_guild if most_tables is None else most_tables
        try:
            count = int(value)
        except ValueError:
            raise refusal("settings-bad-max-tables", most=most) from None
        if not 1 <= count <= most:
            raise refusal("settings-bad-max-tables", most=most)
        return GuildSettings(settings.rules, {**settings.timers, field: count})
    if field in TIMER_FIELDS:
        try:
            number = float(value)
        except ValueError:
            raise refusal("settings-bad-seconds", field=field) from None
        if not 0 <= number <= 600:
            raise refusal("settings-bad-seconds", field=field)
        return GuildSettings(settings.rules, {**settings.timers, field: number})
    if field not in RULE_FIELDS:
        raise refusal("settings-bad-field", field=field)
    try:
        rules = settings.rules.replace(**{field: RuleSet.parse_field(field, value)})
    except ValueError:
        raise _bad_rule(loc, field, value) from None
    return GuildSettings(rules, dict(settings.timers))


def _bad_rule(loc: str, field: str, value: str) -> UserError:
    """What a rule field accepts, from the ``RuleSet`` itself (the rules' own sentence is
    English-only), each value named as the settings name it (两副牌 `2`)."""
    codes = _codes(field)
    if not codes:  # the number fields, each with its own range
        key = NUMBER_KEYS.get(field, "settings-bad-rule-number")
        return refusal(key, field=field, value=value)
    words = join(loc, [_valued(loc, field, code) for code in codes], style="or")
    return refusal("settings-bad-rule", field=field, value=value, allowed=words)
