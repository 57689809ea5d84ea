"""``/shengji tournament ...``: tournaments on Discord, and their live messages.

The commands call ``bot.tournament.service.TournamentService``; ``TournamentPresenter``
is its sink: a thread per match, the registration message (Register / Withdraw /
Confirm buttons, the match-winner rule spelled out), the standings (an image from
``renderers.tournament``, edited as hands end) and announcements. Component ids:
``sj:c:{tournament}:{what}`` (``reg``, ``wd``, ``ok``, ``partner`` (user menu),
``here`` (check-in in a match thread)), routed by ``TournamentRouter``.
"""

from __future__ import annotations

import functools
import io
import logging
from collections.abc import Callable, Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.presets import presets
from bot.service import UserError
from bot.store.tournaments import TournamentResult
from bot.tournament.bracket import Game
from bot.tournament.service import Cup, TournamentService
from renderers.tournament import (
    MatchScene,
    RankRow,
    RoundScene,
    StandingsScene,
    render_standings,
)

from .common import deps, ephemeral, name_of, reply, shengji
from .live import LiveMessage

log = logging.getLogger(__name__)

PLACES = {1: "🥇 1st", 2: "🥈 2nd", 3: "🥉 3rd"}
WINNER_RULE = (
    "A match is won outright by defending A; when the round's time is up (no new hand "
    "starts, hands in progress finish) the team at the higher level wins, and at equal "
    "levels the team holding the deal. Winners are ranked by level reached, then levels "
    "gained, then attacking points per hand, then the draw."
)

tournament = app_commands.Group(
    name="tournament", description="Run a 双升 tournament in this channel", parent=shengji
)


def place_text(place: int) -> str:
    if place in PLACES:
        return PLACES[place]
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def results_text(results: Sequence[TournamentResult]) -> str:
    """One line per tournament, newest first: where the player's team finished."""
    lines = []
    for r in results:
        if r.place is not None:
            how = place_text(r.place)
        elif r.eliminated_round is not None:
            how = f"out in round {r.eliminated_round}"
        elif r.status == "running":
            how = f"playing (round {r.rounds_played})"
        else:
            how = r.status
        lines.append(f"**{r.name}** · {r.team}: {how}")
    return "\n".join(lines)[:1024]


def cups(interaction: discord.Interaction) -> TournamentService:
    return deps(interaction).tournaments  # type: ignore[attr-defined, no-any-return]


def is_manager(interaction: discord.Interaction) -> bool:
    """Manage Server or Manage Events (or administrator) in this server."""
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and (perms.administrator or perms.manage_guild or perms.manage_events))


def here(interaction: discord.Interaction) -> Cup:
    return cups(interaction).cup_in(interaction.channel_id or 0)


async def ok(interaction: discord.Interaction, text: str) -> None:
    await interaction.response.send_message(**ephemeral(text))


# --- commands ------------------------------------------------------------------------------


@tournament.command(name="create", description="Open a tournament here (Manage Server/Events)")
@app_commands.describe(
    name="The tournament's name",
    preset="Rules for every match (default: tournament)",
    round_minutes="Minutes per round (default 90)",
    advance="Match winners going on each round (default 8)",
    podium="Places on the podium (default 3)",
    grace_minutes="Minutes before a computer player takes an absent player's seat (default 5)",
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
        raise UserError("Creating a tournament needs Manage Server or Manage Events.")
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
    await ok(interaction, f"Tournament **{cup.name}** created: registration is open.")
    await deps(interaction).tournament_presenter.changed(cup)  # type: ignore[attr-defined]


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
        raise UserError("Your partner must be a person; computer teams are added by the organiser.")
    service = cups(interaction)
    cup = here(interaction)
    made = await service.register(
        cup, interaction.user.id, name_of(interaction.user), partner.id, name_of(partner), team
    )
    await ok(
        interaction,
        f"Team **{made.name}** registered. {name_of(partner)} confirms with the **Confirm** "
        "button on the registration message.",
    )
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
        await ok(interaction, f"Team **{team.name}** withdrew.")
    else:
        team = await service.confirm(cup, interaction.user.id)
        await ok(interaction, f"You're in: team **{team.name}** is confirmed.")
    await _refresh(interaction, cup)


@tournament.command(name="addbots", description="Add computer teams to fill the draw")
@app_commands.describe(count="How many computer teams")
async def addbots(
    interaction: discord.Interaction, count: app_commands.Range[int, 1, 64] = 1
) -> None:
    cup = here(interaction)
    await cups(interaction).add_computer_teams(
        cup, interaction.user.id, is_manager(interaction), count
    )
    await ok(interaction, f"Added {count} computer team(s) (marked 🤖, never ranked).")
    await _refresh(interaction, cup)


@tournament.command(name="close", description="Close registration")
async def close(interaction: discord.Interaction) -> None:
    cup = here(interaction)
    await cups(interaction).close_registration(cup, interaction.user.id, is_manager(interaction))
    await ok(interaction, "Registration is closed.")
    await _refresh(interaction, cup)


@tournament.command(name="start", description="The draw, and every first-round match at once")
async def start(interaction: discord.Interaction) -> None:
    cup = here(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)
    try:
        bracket = await cups(interaction).start(cup, interaction.user.id, is_manager(interaction))
    except UserError as err:
        await interaction.followup.send(str(err), ephemeral=True)
        return
    await interaction.followup.send(
        f"Started: {len(bracket.entrants)} teams, {bracket.total_rounds} round(s), "
        f"draw seed `{cup.seed}`.",
        ephemeral=True,
    )


@tournament.command(
    name="cancel", description="Cancel the tournament (organiser): its open matches end"
)
async def cancel(interaction: discord.Interaction) -> None:
    cup = here(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)
    try:
        await cups(interaction).cancel(cup, interaction.user.id, is_manager(interaction))
    except UserError as err:
        await interaction.followup.send(str(err), ephemeral=True)
        return
    await interaction.followup.send(f"**{cup.name}** is cancelled.", ephemeral=True)


@tournament.command(name="standings", description="The bracket and each round's table")
async def standings(interaction: discord.Interaction) -> None:
    cup = cups(interaction).cup_in(interaction.channel_id or 0, finished=True)
    await interaction.response.defer(ephemeral=True, thinking=True)
    scene = standings_scene(cup, cups(interaction).clock.now())
    png = await deps(interaction).presenter.off_loop(render_standings, scene)
    await interaction.followup.send(**standings_message(scene, png), ephemeral=True)


@tournament.command(name="pause", description="Pause or resume the round's clock")
@app_commands.describe(on="True to pause, False to resume")
async def pause(interaction: discord.Interaction, on: bool = True) -> None:
    cup = here(interaction)
    await cups(interaction).pause(cup, interaction.user.id, is_manager(interaction), on)
    await ok(interaction, "The round's clock is paused." if on else "The round's clock runs again.")


@tournament.command(name="extend", description="Give the round more minutes")
@app_commands.describe(minutes="Minutes to add")
async def extend(
    interaction: discord.Interaction, minutes: app_commands.Range[int, 1, 600]
) -> None:
    cup = here(interaction)
    await cups(interaction).extend(cup, interaction.user.id, is_manager(interaction), minutes)
    await ok(interaction, f"The round has {minutes} more minute(s).")


async def _refresh(interaction: discord.Interaction, cup: Cup) -> None:
    await deps(interaction).tournament_presenter.changed(cup)  # type: ignore[attr-defined]


# --- messages ----------------------------------------------------------------------------


def registration_embed(cup: Cup) -> discord.Embed:
    lines = []
    for team in cup.teams:
        if team.computer:
            lines.append(f"🤖 **{team.name}** (computer)")
        else:
            mark = "✅" if team.confirmed else "⏳ waiting for the partner"
            lines.append(f"**{team.name}**: <@{team.members[0]}> & <@{team.members[1]}> {mark}")
    state = "open" if cup.phase == "registration" else "closed"
    embed = discord.Embed(
        title=f"🏆 {cup.name} — registration {state}",
        description=("\n".join(lines) or "No teams yet.")[:4000],
        colour=discord.Colour.gold(),
    )
    embed.add_field(
        name="Format",
        value=(
            f"Rules: {cup.preset} · rounds of {cup.round_minutes:g} min · top {cup.advance} "
            f"match winners advance · podium of {cup.podium}"
        ),
        inline=False,
    )
    embed.add_field(name="Match winner", value=WINNER_RULE, inline=False)
    embed.set_footer(text="Register with a partner; they confirm. /shengji tournament register")
    return embed


def registration_view(cup: Cup) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    closed = cup.phase != "registration"
    for label, what, style in (
        ("Register", "reg", discord.ButtonStyle.success),
        ("Confirm", "ok", discord.ButtonStyle.primary),
        ("Withdraw", "wd", discord.ButtonStyle.secondary),
    ):
        view.add_item(
            discord.ui.Button(
                label=label, style=style, custom_id=f"sj:c:{cup.id}:{what}", disabled=closed
            )
        )
    return view


def standings_scene(cup: Cup, now: float) -> StandingsScene:
    """What the standings image shows, from the tournament as it is now."""
    bracket = cup.bracket
    if bracket is None:
        return StandingsScene(cup.name, "registration", (), summary=("Not started yet.",))
    name = [e.name + (" 🤖" if e.computer else "") for e in bracket.entrants]
    rounds = []
    for round_ in bracket.rounds:
        matches = []
        for game in round_.games:
            slot = cup.slots.get(f"{game.round_no}.{game.index}")
            if game.outcome is not None:
                levels = tuple(s.level for s in game.outcome.scores)
                hands, flagged = game.outcome.hands, bool(game.outcome.flags)
            elif slot is not None:
                levels, hands = tuple(slot.tally.levels), slot.tally.hands
                flagged = bool(slot.tally.flags)
            else:
                levels, hands, flagged = ("2", "2"), 0, False
            winner = game.teams.index(game.winner) if game.winner is not None else None
            matches.append(
                MatchScene(tuple(name[t] for t in game.teams), levels, winner, hands, flagged)
            )
        ranking: tuple[RankRow, ...] = ()
        if round_.done and (round_.number < len(bracket.rounds) or bracket.finished):
            winners = {g.winner for g in round_.games}
            last = round_.number == bracket.total_rounds
            going = set(bracket.winners(round_)[: bracket.advance]) if not last else set()
            rows = []
            for team in bracket.ranking(round_):
                game = next(g for g in round_.games if team in g.teams)
                score = game.score_of(team)
                assert score is not None
                if last and bracket.podium and team in bracket.podium:
                    result = place_text(bracket.podium.index(team) + 1)
                elif team in going:
                    result = "advances"
                else:
                    result = "won" if team in winners else "lost"
                rows.append(RankRow(name[team], score.level, result))
            ranking = tuple(rows)
        rounds.append(RoundScene(round_.number, tuple(matches), ranking))
    if bracket.finished:
        status = "Finished"
    elif cup.clock is not None and bracket.current is not None:
        left = int(cup.clock.remaining(now) // 60)
        paused = " (paused)" if cup.clock.paused else ""
        status = (
            f"Round {bracket.current.number} of {bracket.total_rounds} · {left} min left{paused}"
        )
        if cup.clock.expired(now):
            status = f"Round {bracket.current.number}: time is up, last hands finishing"
    else:
        status = ""
    podium = tuple(name[t] for t in bracket.podium or ())
    summary = [status]
    if podium:
        summary.append("Podium: " + ", ".join(f"{i}. {n}" for i, n in enumerate(podium, 1)))
    return StandingsScene(cup.name, status, tuple(rounds), podium, tuple(summary))


def standings_message(scene: StandingsScene, png: bytes) -> dict[str, Any]:
    """The standings message's fields around the rendered image."""
    embed = discord.Embed(title=f"🏆 {scene.title} — standings", colour=discord.Colour.gold())
    embed.description = "\n".join(scene.summary)[:4000]
    embed.set_image(url="attachment://standings.png")
    return {"embed": embed, "files": [discord.File(io.BytesIO(png), "standings.png")]}


class TournamentPresenter:
    """The tournament service's sink: threads, the registration and standings messages.

    Both messages are ``LiveMessage``s: edits are coalesced, so when hands end at
    many tables at once only the newest standings are rendered (in the presenter's
    render thread) and sent.
    """

    def __init__(self, client: discord.Client, now: Callable[[], float], tables: Any) -> None:
        self.client = client
        self.now = now  # the table service's clock
        self.tables = tables  # the table presenter: its render thread and edit gap
        self.live: dict[tuple[int, str], LiveMessage] = {}

    async def _channel(self, channel_id: int) -> Any:
        channel = self.client.get_channel(channel_id)
        if channel is None:
            channel = await self.client.fetch_channel(channel_id)
        return channel

    async def open_place(self, cup: Cup, title: str) -> int:
        try:
            channel = await self._channel(cup.channel_id)
            thread = await channel.create_thread(
                name=title[:100], type=discord.ChannelType.public_thread
            )
        except discord.Forbidden:
            raise UserError(
                "I can't open a thread for each match here: give me Create Public Threads "
                "and Send Messages in Threads, then run `/shengji tournament start` again."
            ) from None
        return int(thread.id)

    async def match_opened(self, cup: Cup, game: Game, place_id: int) -> None:
        thread = await self._channel(place_id)
        teams = [cup.teams[t] for t in game.teams]
        humans = [m for t in teams for m in t.members]
        names = " v ".join(f"**{t.name}**" + (" 🤖" if t.computer else "") for t in teams)
        text = f"Round {game.round_no}: {names}. Team {teams[0].name} sits in seats 0 & 2."
        view = None
        if humans:
            minutes = cup.grace_seconds / 60
            text += (
                f"\n{' '.join(f'<@{m}>' for m in humans)}: press **I'm here** within "
                f"{minutes:g} min, or a computer player takes your seat."
            )
            view = discord.ui.View(timeout=None)
            view.add_item(
                discord.ui.Button(
                    label="I'm here",
                    style=discord.ButtonStyle.success,
                    custom_id=f"sj:c:{cup.id}:here",
                )
            )
        try:
            await thread.send(content=text, view=view) if view else await thread.send(text)
        except discord.HTTPException:
            log.warning("could not post in the thread of tournament %s", cup.id)

    def _message(self, cup: Cup, key: str) -> LiveMessage:
        live = self.live.get((cup.id, key))
        if live is None:
            live = self.live[(cup.id, key)] = LiveMessage(
                functools.partial(self._channel, cup.channel_id),
                gap=getattr(self.tables, "edit_gap", 0.0),
                message_id=cup.messages.get(key),
            )
        return live

    async def changed(self, cup: Cup, note: str = "") -> None:
        registering = cup.phase in ("registration", "closed")
        registration = self._message(cup, "registration")
        if registering or (cup.id, "started") not in self.live:
            if not registering:  # once, at the start: its buttons go grey
                self.live[(cup.id, "started")] = registration

            async def build_registration() -> dict[str, Any]:
                return {"embed": registration_embed(cup), "view": registration_view(cup)}

            registration.show(build_registration)
        if not registering:
            standings = self._message(cup, "standings")

            async def build_standings() -> dict[str, Any]:
                scene = standings_scene(cup, self.now())
                png = await self.tables.off_loop(render_standings, scene)
                return standings_message(scene, png)

            standings.show(build_standings)
        if note:
            try:
                channel = await self._channel(cup.channel_id)
                await channel.send(note)
            except discord.HTTPException:
                log.warning("could not post in the channel of tournament %s", cup.id)
        for key in ("registration", "standings"):
            live = self.live.get((cup.id, key))
            if live is not None and live.message_id is not None:
                cup.messages[key] = live.message_id  # saved with the tournament


class TournamentRouter(commands.Cog):
    """Registration buttons, the partner menu and check-in."""

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type != discord.InteractionType.component:
            return
        data: Any = interaction.data or {}
        parts = str(data.get("custom_id", "")).split(":")
        if len(parts) != 4 or parts[:2] != ["sj", "c"] or not parts[2].isdigit():
            return
        try:
            service = cups(interaction)
            what = parts[3]
            if what == "here":
                await ok(
                    interaction,
                    await service.check_in(interaction.channel_id or 0, interaction.user.id),
                )
                return
            cup = service.cup_by_id(int(parts[2]))
            if what == "reg":
                view = discord.ui.View(timeout=None)
                view.add_item(
                    discord.ui.UserSelect(
                        custom_id=f"sj:c:{cup.id}:partner", placeholder="Your partner"
                    )
                )
                await interaction.response.send_message(
                    "Who is your partner?", view=view, ephemeral=True
                )
            elif what == "partner":
                partner_id = int(data["values"][0])
                resolved = data.get("resolved", {}).get("users", {}).get(str(partner_id), {})
                partner = self._user(interaction, partner_id, resolved)
                await _register(interaction, partner, None)
            elif what in ("ok", "wd"):
                await _team_change(interaction, cup, withdraw=what == "wd")
        except UserError as err:
            await reply(interaction, str(err))
        except Exception:
            log.exception("tournament component %s failed", parts)
            await reply(interaction, "Something went wrong on my side; try again.")

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
