"""``/shengji tournament ...``: the commands and the tournament's buttons.

The commands call ``bot.tournament.service.TournamentService``; its messages in
the channel are ``cogs.cupview``'s. Component ids: ``sj:c:{tournament}:{what}``
(``reg``, ``wd``, ``ok``, ``partner`` (user menu), ``here`` (check-in in a match
thread)), routed by ``TournamentRouter``. Replies to one person are in their
language (``cogs.lang``), like every ephemeral reply.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.ai import LEVELS
from bot.i18n import Arg
from bot.i18n.rules import join
from bot.presets import presets
from bot.service import UserError
from bot.tournament.cup import Cup
from bot.tournament.service import TournamentService
from renderers.tournament import render_standings

from .common import BAD_VALUE, CheckedGroup, deps, handler_failed, name_of, reply, shengji
from .cupview import standings_message, standings_scene
from .ids import CUP_PREFIX, CupComponent, format_id, parse_cup_id
from .lang import error_text, locale_for, refusal, reply_locale, reply_prefs, say

log = logging.getLogger(__name__)

# checked like /shengji itself (its parent's check does not run for a nested group):
# the rate limit, forged option values, and the deferral of every subcommand (each
# writes, or renders, before it answers)
tournament = CheckedGroup(
    name="tournament", description="Run a 双升 tournament in this channel", parent=shengji
)


def cups(interaction: discord.Interaction) -> TournamentService:
    return deps(interaction).tournaments


def is_manager(interaction: discord.Interaction) -> bool:
    """Manage Server or Manage Events (or administrator) in this server."""
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and (perms.administrator or perms.manage_guild or perms.manage_events))


def here(interaction: discord.Interaction) -> Cup:
    return cups(interaction).cup_in(interaction.channel_id or 0)


async def ok(interaction: discord.Interaction, key: str, **args: Arg) -> None:
    """An ephemeral answer in the player's language (through the follow-up once deferred)."""
    await reply(interaction, await say(interaction, key, **args))


# --- commands ------------------------------------------------------------------------------


@tournament.command(name="create", description="Open a tournament here (Manage Server/Events)")
@app_commands.describe(
    name="The tournament's name",
    preset="Rules for every match (default: tournament)",
    round_minutes="Minutes per round (default 90)",
    advance="Match winners going on each round (default 8)",
    podium="Places on the podium (default 3)",
    grace_minutes=(
        "Minutes before a computer player takes an absent or departed player's seat (default 5)"
    ),
)
@app_commands.choices(preset=[app_commands.Choice(name=n, value=n) for n in presets()])
async def create(
    interaction: discord.Interaction,
    name: app_commands.Range[str, 1, 60],
    preset: str = "tournament",
    round_minutes: app_commands.Range[int, 1, 600] = 90,
    advance: app_commands.Range[int, 2, 32] = 8,
    podium: app_commands.Range[int, 1, 8] = 3,
    grace_minutes: app_commands.Range[int, 1, 60] = 5,
) -> None:
    if not is_manager(interaction):
        raise refusal("tournament-create-who")
    cup = await cups(interaction).create(
        interaction.guild_id or 0,
        interaction.channel_id or 0,
        interaction.user.id,
        name,
        preset=preset,
        round_minutes=round_minutes,
        advance=advance,
        podium=podium,
        grace_seconds=grace_minutes * 60.0,
    )
    await ok(interaction, "tournament-created", name=cup.name)
    await deps(interaction).tournament_presenter.changed(cup)


@tournament.command(name="register", description="Register your team: you and a partner")
@app_commands.describe(partner="Your partner (they confirm with a button)", team="Team name")
async def register(
    interaction: discord.Interaction,
    partner: discord.Member,
    team: app_commands.Range[str, 1, 40] | None = None,
) -> None:
    await _register(interaction, partner, team)


async def _register(
    interaction: discord.Interaction, partner: discord.abc.User, team: str | None
) -> None:
    if partner.bot:
        raise refusal("tournament-partner-bot")
    service = cups(interaction)
    cup = here(interaction)
    made = await service.register(
        cup, interaction.user.id, name_of(interaction.user), partner.id, name_of(partner), team
    )
    await ok(interaction, "tournament-registered", team=made.name, partner=name_of(partner))
    await _refresh(interaction, cup)


@tournament.command(name="confirm", description="Confirm the team your partner registered")
async def confirm(interaction: discord.Interaction) -> None:
    await _team_change(interaction, here(interaction), withdraw=False)


@tournament.command(name="withdraw", description="Withdraw your team before the start")
async def withdraw(interaction: discord.Interaction) -> None:
    await _team_change(interaction, here(interaction), withdraw=True)


async def _team_change(interaction: discord.Interaction, cup: Cup, *, withdraw: bool) -> None:
    """Confirm (the partner) or withdraw (either member): by command or button."""
    service = cups(interaction)
    if withdraw:
        team = await service.withdraw(cup, interaction.user.id)
        await ok(interaction, "tournament-withdrew", team=team.name)
    else:
        team = await service.confirm(cup, interaction.user.id)
        await ok(interaction, "tournament-confirmed", team=team.name)
    await _refresh(interaction, cup)


@tournament.command(name="addbots", description="Add computer teams to fill the draw")
@app_commands.describe(
    count="How many computer teams", level="Computer player strength (default normal)"
)
@app_commands.choices(level=[app_commands.Choice(name=n, value=n) for n in LEVELS])
async def addbots(
    interaction: discord.Interaction,
    count: app_commands.Range[int, 1, 64] = 1,
    level: str = "normal",
) -> None:
    cup = here(interaction)
    await cups(interaction).add_computer_teams(
        cup, interaction.user.id, is_manager(interaction), count, level
    )
    strength = await say(interaction, "tournament-level", level=level)
    await ok(interaction, "tournament-bots-added", count=count, level=strength)
    await _refresh(interaction, cup)


@tournament.command(name="close", description="Close registration")
async def close(interaction: discord.Interaction) -> None:
    cup = here(interaction)
    await cups(interaction).close_registration(cup, interaction.user.id, is_manager(interaction))
    await ok(interaction, "tournament-closed")
    await _refresh(interaction, cup)


@tournament.command(name="start", description="The draw, and every first-round match at once")
async def start(interaction: discord.Interaction) -> None:
    cup = here(interaction)
    pending = tuple(team.name for team in cup.teams if not team.confirmed)  # not drawn
    bracket = await cups(interaction).start(cup, interaction.user.id, is_manager(interaction))
    count, rounds = len(bracket.entrants), bracket.total_rounds
    text = await say(
        interaction, "tournament-started-reply", count=count, rounds=rounds, seed=cup.seed
    )
    if pending:  # the organiser learns who is left out, not only how many play
        teams = join(await reply_locale(interaction), list(pending))
        text += "\n" + await say(interaction, "tournament-left-out", teams=teams)
    await reply(interaction, text)


@tournament.command(
    name="cancel", description="Cancel the tournament (organiser): its open matches end"
)
async def cancel(interaction: discord.Interaction) -> None:
    cup = here(interaction)
    await cups(interaction).cancel(cup, interaction.user.id, is_manager(interaction))
    await ok(interaction, "tournament-cancelled", name=cup.name)


@tournament.command(name="standings", description="The bracket and each round's table")
async def standings(interaction: discord.Interaction) -> None:
    cup = await cups(interaction).standings_cup(interaction.channel_id or 0)
    prefs = await reply_prefs(interaction)  # for this player's eyes: their theme
    loc = locale_for(interaction, prefs)
    scene = standings_scene(loc, cup, cups(interaction).clock.now())
    png = await deps(interaction).presenter.off_loop(render_standings, scene, prefs.theme)
    await interaction.followup.send(**standings_message(loc, scene, png), ephemeral=True)


@tournament.command(name="pause", description="Pause or resume the round's clock")
@app_commands.describe(on="True to pause, False to resume")
async def pause(interaction: discord.Interaction, on: bool = True) -> None:
    cup = here(interaction)
    await cups(interaction).pause(cup, interaction.user.id, is_manager(interaction), on)
    await ok(interaction, "tournament-paused" if on else "tournament-resumed")


@tournament.command(name="extend", description="Give the round more minutes")
@app_commands.describe(minutes="Minutes to add")
async def extend(
    interaction: discord.Interaction, minutes: app_commands.Range[int, 1, 600]
) -> None:
    cup = here(interaction)
    await cups(interaction).extend(cup, interaction.user.id, is_manager(interaction), minutes)
    await ok(interaction, "tournament-extended", minutes=minutes)


_ID = re.compile(r"[0-9]{1,20}")


def _parse(custom_id: str) -> CupComponent:
    """``sj:c:{tournament}:{what}`` read; anything else is refused as forged."""
    cid = parse_cup_id(custom_id)
    if cid is None:
        raise UserError(BAD_VALUE, key="reply-bad-value")
    return cid


async def _refresh(interaction: discord.Interaction, cup: Cup) -> None:
    await deps(interaction).tournament_presenter.changed(cup)


class TournamentRouter(commands.Cog):
    """Registration buttons, the partner menu and check-in.

    An id of ours (``sj:c:``) that does not read as one of these, names a tournament of
    another server or channel, or carries a menu value no menu sends, was forged: it
    gets the short "that didn't work" and changes nothing. A click that writes (the
    partner chosen, confirm, withdraw, check-in) is acknowledged before the write.
    """

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type != discord.InteractionType.component:
            return
        data: Any = interaction.data or {}
        custom_id = str(data.get("custom_id", ""))
        if not custom_id.startswith(CUP_PREFIX):
            return
        try:
            cid = _parse(custom_id)
            cup_id, what = cid.cup_id, cid.what
            service = cups(interaction)
            if what == "here":
                await interaction.response.defer(ephemeral=True, thinking=True)
                key = await service.check_in(interaction.channel_id or 0, interaction.user.id)
                await ok(interaction, key)
                return
            cup = service.cup_by_id(cup_id)
            if (cup.guild_id, cup.channel_id) != (interaction.guild_id, interaction.channel_id):
                raise UserError(BAD_VALUE, key="reply-bad-value")
            if what == "reg":
                view = discord.ui.View(timeout=None)
                view.add_item(
                    discord.ui.UserSelect(
                        custom_id=format_id(CupComponent(cup.id, "partner")),
                        placeholder=await say(interaction, "tournament-partner-placeholder"),
                    )
                )
                await interaction.response.send_message(
                    await say(interaction, "tournament-partner-question"), view=view, ephemeral=True
                )
                return
            partner = self._partner(interaction, data) if what == "partner" else None
            await interaction.response.defer(ephemeral=True, thinking=True)
            if partner is not None:
                await _register(interaction, partner, None)
            else:
                await _team_change(interaction, cup, withdraw=what == "wd")
        except UserError as err:
            await reply(interaction, await error_text(interaction, err))
        except Exception as err:
            await handler_failed(interaction, f"tournament component {custom_id}", err)

    def _partner(self, interaction: discord.Interaction, data: dict[str, Any]) -> Any:
        """The user picked in the partner menu; a forged value is refused."""
        values = data.get("values")
        users = (data.get("resolved") or {}).get("users") or {}
        picked = str(values[0]) if isinstance(values, list) and len(values) == 1 else ""
        if not (_ID.fullmatch(picked) and picked in users):
            raise UserError(BAD_VALUE, key="reply-bad-value")  # Discord resolves what it sends
        return self._user(interaction, int(picked), users[picked])

    @staticmethod
    def _user(interaction: discord.Interaction, user_id: int, data: dict[str, Any]) -> Any:
        guild = interaction.guild
        member = guild.get_member(user_id) if guild else None
        if member is not None:
            return member

        class _Partner:
            id = user_id
            bot = bool(data.get("bot", False))
            name = str(data.get("global_name") or data.get("username") or user_id)
            display_name = name

        return _Partner()
