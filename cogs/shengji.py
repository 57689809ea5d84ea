"""The ``/shengji`` commands and every button and menu of the bot.

Thin by design: parse the interaction, call the table service, render, reply.
Everything a user can get wrong ends in a short ephemeral reply that says what to
do instead; game state only changes inside the service. Components carry their
meaning in their ``custom_id`` (see ``panels``) and are routed here from
``on_interaction``, so they keep working across restarts without stored views.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.ai import suggest
from bot.game import Bury, Declare, Play
from bot.presets import presets
from bot.rules import (
    RulesError,
    RuleSet,
    decompose_in,
    follow_candidates,
    format_cards,
    order_for,
    parse_cards,
    pretty_cards,
)
from bot.service import TableService, Timers, UserError
from bot.store import METRICS, GuildSettings

from .panels import cards_for, option_values, selection_problem
from .presenter import Presenter, png
from .text import RULE_TOPICS, TEAM_NAMES, level_name, rules_text, trump_text

if TYPE_CHECKING:
    from bot.app import ShengjiBot

log = logging.getLogger(__name__)

PRESETS = presets()
TIMER_FIELDS = ("bid_window", "deal_pace", "bot_delay", "next_hand", "warn_before")
RULE_FIELDS = tuple(RuleSet.__dataclass_fields__)


def _ephemeral(text: str) -> dict[str, Any]:
    return {"content": text[:2000], "ephemeral": True}


class ShengjiCog(commands.Cog):
    """Slash commands, buttons and menus for 双升 tables."""

    group = app_commands.Group(
        name="shengji",
        description="Play 双升 (Shengji / Tractor) at this table",
        guild_only=True,
    )

    def __init__(self, bot: ShengjiBot, service: TableService, presenter: Presenter) -> None:
        self.bot = bot
        self.service = service
        self.presenter = presenter

    # --- error handling ------------------------------------------------------------

    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        original = getattr(error, "original", error)
        if isinstance(original, UserError):
            await self._reply(interaction, str(original))
            return
        if isinstance(error, app_commands.CheckFailure):
            await self._reply(interaction, "You don't have permission to do that here.")
            return
        log.error("command failed", exc_info=original)
        await self._reply(
            interaction, "Something went wrong on my side; the game is safe. Try again."
        )

    async def _reply(self, interaction: discord.Interaction, text: str) -> None:
        try:
            if interaction.response.is_done():
                await interaction.followup.send(**_ephemeral(text))
            else:
                await interaction.response.send_message(**_ephemeral(text))
        except discord.HTTPException:
            log.warning("could not answer interaction %s", interaction.id)

    @staticmethod
    def _is_admin(interaction: discord.Interaction) -> bool:
        perms = getattr(interaction.user, "guild_permissions", None)
        return bool(perms and (perms.administrator or perms.manage_guild))

    @staticmethod
    def _name(user: discord.abc.User) -> str:
        return (getattr(user, "display_name", None) or user.name)[:32]

    # --- lobby ---------------------------------------------------------------------

    @group.command(name="new", description="Open a table in this channel")
    @app_commands.describe(preset="A rule preset")
    @app_commands.choices(preset=[app_commands.Choice(name=n, value=n) for n in PRESETS])
    async def new(self, interaction: discord.Interaction, preset: str | None = None) -> None:
        rules = PRESETS[preset][0] if preset else None
        await self.service.new_table(
            interaction.guild_id or 0,
            interaction.channel_id or 0,
            interaction.user.id,
            self._name(interaction.user),
            rules,
        )
        await interaction.response.send_message(
            **_ephemeral(
                "Table opened: you sit in seat 0. Others join with `/shengji join` "
                "or the Join button; fill seats with `/shengji addbot`."
            )
        )

    @group.command(name="join", description="Take a seat at this channel's table")
    @app_commands.describe(seat="Seat 0-3 (0 & 2 and 1 & 3 are partners)")
    async def join(
        self, interaction: discord.Interaction, seat: app_commands.Range[int, 0, 3] | None = None
    ) -> None:
        taken = await self.service.join(
            interaction.channel_id or 0, interaction.user.id, self._name(interaction.user), seat
        )
        await interaction.response.send_message(**_ephemeral(f"You sit in seat {taken}."))

    @group.command(
        name="leave", description="Leave your seat (a computer player takes over mid-match)"
    )
    async def leave(self, interaction: discord.Interaction) -> None:
        outcome = await self.service.leave(interaction.channel_id or 0, interaction.user.id)
        text = {
            "left": "You left your seat.",
            "replaced": "You left; a computer player plays your seat from now on.",
            "closed": "You were the last player: the table is closed.",
        }[outcome]
        await interaction.response.send_message(**_ephemeral(text))

    @group.command(name="addbot", description="Fill an empty seat with a computer player")
    @app_commands.describe(
        seat="Seat 0-3 (0 & 2 and 1 & 3 are partners)", level="Computer player strength"
    )
    @app_commands.choices(
        level=[app_commands.Choice(name=n, value=n) for n in ("heuristic", "greedy", "random")]
    )
    async def addbot(
        self,
        interaction: discord.Interaction,
        seat: app_commands.Range[int, 0, 3] | None = None,
        level: str = "heuristic",
    ) -> None:
        taken = await self.service.add_bot(interaction.channel_id or 0, seat, level)
        await interaction.response.send_message(
            **_ephemeral(f"A computer player sits in seat {taken}.")
        )

    @group.command(name="kick", description="Remove a player before the start (host or admin)")
    @app_commands.describe(seat="Seat 0-3 (0 & 2 and 1 & 3 are partners)")
    async def kick(
        self, interaction: discord.Interaction, seat: app_commands.Range[int, 0, 3]
    ) -> None:
        info = await self.service.kick(
            interaction.channel_id or 0, interaction.user.id, seat, self._is_admin(interaction)
        )
        await interaction.response.send_message(**_ephemeral(f"{info.name} left seat {seat}."))

    @group.command(name="start", description="Start the match once four seats are filled")
    async def start(self, interaction: discord.Interaction) -> None:
        await self.service.start(
            interaction.channel_id or 0, interaction.user.id, self._is_admin(interaction)
        )
        await interaction.response.send_message(
            **_ephemeral("The match starts: your hand arrives by DM as the cards are dealt.")
        )

    @group.command(
        name="abort", description="End this table (host/admin, or a vote of the players)"
    )
    async def abort(self, interaction: discord.Interaction) -> None:
        outcome = await self.service.abort(
            interaction.channel_id or 0, interaction.user.id, self._is_admin(interaction)
        )
        if outcome == "aborted":
            text = "The table is closed."
        else:
            text = f"Your vote to abort is counted ({outcome.split()[1]} votes needed)."
        await interaction.response.send_message(**_ephemeral(text))

    # --- play ----------------------------------------------------------------------

    @group.command(name="hand", description="Open your private hand panel")
    async def hand(self, interaction: discord.Interaction) -> None:
        await self._open_panel(interaction, interaction.channel_id or 0)

    @group.command(name="play", description="Play cards by notation, e.g. AH AH KH")
    @app_commands.describe(cards="Cards to play, e.g. AH AH KH or 10h")
    async def play(
        self, interaction: discord.Interaction, cards: app_commands.Range[str, 1, 200]
    ) -> None:
        try:
            parsed = parse_cards(cards)
        except RulesError as err:
            raise UserError(str(err)) from None
        if not parsed:
            raise UserError("Name the cards to play, like `AH AH` or `10h`.")
        table, seat, view = self.service.view_for(interaction.channel_id or 0, interaction.user.id)
        action = (
            Bury(tuple(parsed))
            if view.expecting == "bury" and view.to_act == seat
            else Play(tuple(parsed))
        )
        await self.service.act(table.channel_id, interaction.user.id, action)
        verb = "buried" if isinstance(action, Bury) else "played"
        await interaction.response.send_message(**_ephemeral(f"You {verb} {pretty_cards(parsed)}."))

    @play.autocomplete("cards")
    async def play_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        try:
            _, seat, view = self.service.view_for(interaction.channel_id or 0, interaction.user.id)
        except UserError:
            return []
        if view.to_act != seat or view.expecting != "play" or view.trump is None:
            return []
        order = order_for(view.trump, view.rules)
        options: list[list] = [list(suggest(view).cards)]  # type: ignore[union-attr]
        if view.lead is None:
            for suit in sorted({order.suit_of[c] for c in view.hand}):
                cards = [c for c in view.hand if order.suit_of[c] == suit]
                options += [list(u.cards) for u in decompose_in(order, cards)]
        else:
            options += follow_candidates(view.hand, view.lead, view.trump, view.rules, limit=30)
        typed = current.upper().replace(",", " ").split()
        choices: list[app_commands.Choice[str]] = []
        seen: set[str] = set()
        for cards in options:
            value = format_cards(sorted(cards, key=order.sort_key, reverse=True))
            if value in seen or (typed and not all(t in value.split() for t in typed)):
                continue
            seen.add(value)
            label = f"{pretty_cards(sorted(cards, key=order.sort_key, reverse=True))}  ({value})"
            choices.append(app_commands.Choice(name=label[:100], value=value[:100]))
            if len(choices) == 25:
                break
        return choices

    @group.command(name="hint", description="Suggest a play for your turn")
    async def hint(self, interaction: discord.Interaction) -> None:
        action = await self.service.hint(interaction.channel_id or 0, interaction.user.id)
        cards = action.cards  # type: ignore[union-attr]
        await interaction.response.send_message(
            **_ephemeral(f"Suggestion: {pretty_cards(cards)} (`{format_cards(cards)}`).")
        )

    @group.command(name="auto", description="Let the computer play for you (toggle)")
    async def auto(self, interaction: discord.Interaction) -> None:
        on = await self.service.set_auto(interaction.channel_id or 0, interaction.user.id)
        text = (
            "托管 on: the computer plays for you until you run `/shengji auto` again."
            if on
            else "托管 off: you play your own cards again."
        )
        await interaction.response.send_message(**_ephemeral(text))

    # --- rules, settings, records --------------------------------------------------

    @group.command(name="rules", description="Explain the rules in effect")
    @app_commands.describe(topic="Which part of the rules")
    @app_commands.choices(topic=[app_commands.Choice(name=t, value=t) for t in RULE_TOPICS])
    async def rules(self, interaction: discord.Interaction, topic: str = "overview") -> None:
        rules = await self._rules_here(interaction)
        embed = discord.Embed(title=f"Rules: {topic}", description=rules_text(topic, rules)[:4000])
        await interaction.response.send_message(embed=embed, ephemeral=True)

    async def _rules_here(self, interaction: discord.Interaction) -> RuleSet:
        table = self.service.tables.get(interaction.channel_id or 0)
        if table is not None and not table.closed:
            return table.rules
        return (await self.service.store.guild_settings(interaction.guild_id or 0)).rules

    @group.command(
        name="settings", description="Show or change this server's rules and timers (admins change)"
    )
    @app_commands.describe(field="Setting to change", value="New value")
    @app_commands.choices(
        field=[app_commands.Choice(name=f, value=f) for f in RULE_FIELDS + TIMER_FIELDS]
    )
    async def settings(
        self,
        interaction: discord.Interaction,
        field: str | None = None,
        value: app_commands.Range[str, 1, 40] | None = None,
    ) -> None:
        store = self.service.store
        guild_id = interaction.guild_id or 0
        current = await store.guild_settings(guild_id)
        if field is not None:
            if not self._is_admin(interaction):
                raise UserError("Only server admins (Manage Server) can change settings.")
            if value is None:
                raise UserError(f"Give a value for `{field}`.")
            current = _changed(current, field, value)
            await store.save_guild_settings(guild_id, current)
        timers = Timers.from_dict(current.timers)
        lines = [f"`{name}` = {getattr(current.rules, name)!r}" for name in RULE_FIELDS]
        lines += [f"`{name}` = {getattr(timers, name)}" for name in TIMER_FIELDS]
        title = "Settings changed" if field else "Settings of this server"
        embed = discord.Embed(title=title, description="\n".join(lines)[:4000])
        embed.set_footer(text="Tables keep the settings they started with.")
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @group.command(name="leaderboard", description="Show this server's leaderboard")
    @app_commands.describe(metric="Rank by")
    @app_commands.choices(metric=[app_commands.Choice(name=m, value=m) for m in METRICS])
    async def leaderboard(self, interaction: discord.Interaction, metric: str = "league") -> None:
        rows = await self.service.store.leaderboard(interaction.guild_id or 0, metric, limit=10)
        if not rows:
            raise UserError("No finished hands on this server yet.")
        lines = []
        for i, row in enumerate(rows, 1):
            value = f"{row.value:.1f}" if isinstance(row.value, float) else str(row.value)
            lines.append(
                f"**{i}.** {row.name} — {value} · {row.wins}/{row.matches} wins · {row.hands} hands"
            )
        embed = discord.Embed(
            title=f"Leaderboard · {metric}",
            description="\n".join(lines)[:4000],
            colour=discord.Colour.gold(),
        )
        await interaction.response.send_message(embed=embed)

    @group.command(name="stats", description="Show a player's stats")
    @app_commands.describe(user="Whose stats (default: you)")
    async def stats(
        self, interaction: discord.Interaction, user: discord.User | None = None
    ) -> None:
        who = user or interaction.user
        stats = await self.service.store.player_stats(interaction.guild_id or 0, who.id)
        if stats is None:
            raise UserError(f"{self._name(who)} has no recorded hands on this server yet.")
        embed = discord.Embed(title=f"Stats · {self._name(who)}")
        for name, value in _stat_fields(stats):
            embed.add_field(name=name, value=value, inline=True)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @group.command(
        name="history", description="Recent matches, or the trick-by-trick record of one hand"
    )
    @app_commands.describe(hand_id="A hand number from the history list")
    async def history(
        self, interaction: discord.Interaction, hand_id: app_commands.Range[int, 1] | None = None
    ) -> None:
        store = self.service.store
        if hand_id is None:
            matches = await store.recent_matches(interaction.guild_id or 0, limit=10)
            if not matches:
                raise UserError("No matches on this server yet.")
            lines = [_match_line(m) for m in matches]
            embed = discord.Embed(title="Recent matches", description="\n".join(lines)[:4000])
            embed.set_footer(text="See a hand trick by trick: /shengji history hand_id:<number>")
            await interaction.response.send_message(embed=embed, ephemeral=True)
            return
        record = await store.hand_record(hand_id)
        if (
            record is None
            or getattr(record, "guild_id", interaction.guild_id) != interaction.guild_id
        ):
            raise UserError(f"There is no hand {hand_id} on this server.")
        await interaction.response.send_message(**_ephemeral(_hand_text(record)))

    # --- components ------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type != discord.InteractionType.component:
            return
        custom_id = str((interaction.data or {}).get("custom_id", ""))
        if not custom_id.startswith("sj:"):
            return
        try:
            await self._route(interaction, custom_id.split(":"))
        except UserError as err:
            await self._reply(interaction, str(err))
        except Exception:
            log.exception("component %s failed", custom_id)
            await self._reply(interaction, "Something went wrong on my side; the game is safe.")

    async def _route(self, interaction: discord.Interaction, parts: list[str]) -> None:
        kind, table_id = parts[1], int(parts[2])
        table = self._table(table_id)
        if kind == "l":
            await self._lobby_button(interaction, table.channel_id, parts[3])
        elif kind == "t":
            await self._table_button(interaction, table, parts[3])
        elif kind == "d":
            await self._bid_button(interaction, table, int(parts[3]), parts[4])
        elif kind in ("p", "b"):
            await self._panel(interaction, table, int(parts[3]), int(parts[4]), kind, parts[5])

    def _table(self, table_id: int) -> Any:
        for table in self.service.tables.values():
            if table.id == table_id and not table.closed:
                return table
        raise UserError("That table is closed; open a new one with `/shengji new`.")

    async def _lobby_button(
        self, interaction: discord.Interaction, channel_id: int, what: str
    ) -> None:
        user = interaction.user
        if what == "join":
            seat = await self.service.join(channel_id, user.id, self._name(user))
            text = f"You sit in seat {seat}."
        elif what == "bot":
            seat = await self.service.add_bot(channel_id)
            text = f"A computer player sits in seat {seat}."
        elif what == "leave":
            await self.service.leave(channel_id, user.id)
            text = "You left your seat."
        else:
            await self.service.start(channel_id, user.id, self._is_admin(interaction))
            text = "The match starts: your hand arrives by DM as the cards are dealt."
        await interaction.response.send_message(**_ephemeral(text))

    async def _table_button(self, interaction: discord.Interaction, table: Any, what: str) -> None:
        if what == "rules":
            embed = discord.Embed(
                title="Rules of this table", description=rules_text("overview", table.rules)[:4000]
            )
            await interaction.response.send_message(embed=embed, ephemeral=True)
            return
        if what == "last":
            if table.match is None or not table.match.tricks:
                raise UserError("No trick has been played yet.")
            await interaction.response.defer(ephemeral=True, thinking=True)
            image = await self.presenter.last_trick_image(table, table.match.view(None))
            assert image is not None
            await interaction.followup.send(file=png(image, "trick.png"), ephemeral=True)
            return
        await self._open_panel(interaction, table.channel_id)

    async def _open_panel(self, interaction: discord.Interaction, channel_id: int) -> None:
        table, seat, view = self.service.view_for(channel_id, interaction.user.id)
        await interaction.response.defer(ephemeral=True, thinking=True)
        panel = await self.presenter.panel_for(table, seat, view)
        await interaction.followup.send(
            content=panel.content, file=panel.file(), view=panel.view, ephemeral=True
        )

    async def _bid_button(
        self, interaction: discord.Interaction, table: Any, seat: int, code: str
    ) -> None:
        if table.seat_of(interaction.user.id) != seat:
            raise UserError("That panel belongs to another player.")
        cards = tuple(parse_cards(code))
        await interaction.response.defer()
        try:
            await self.service.act(table.channel_id, interaction.user.id, Declare(cards))
        except UserError as err:
            await interaction.followup.send(**_ephemeral(str(err)))
            return
        await interaction.followup.send(**_ephemeral(f"You bid {pretty_cards(cards)}."))

    async def _panel(
        self,
        interaction: discord.Interaction,
        table: Any,
        seat: int,
        seq: int,
        kind: str,
        what: str,
    ) -> None:
        if table.seat_of(interaction.user.id) != seat:
            raise UserError("That panel belongs to another player.")
        _, _, view = self.service.view_for(table.channel_id, interaction.user.id)
        if view.seq != seq or view.to_act != seat:
            await interaction.response.defer()
            panel = await self.presenter.panel_for(
                table, seat, view, note="That panel was out of date; here is your hand now."
            )
            await interaction.edit_original_response(
                content=panel.content, attachments=[panel.file()], view=panel.view
            )
            return
        staged = self.presenter.staged(table, seat, seq)
        ui = self.presenter.ui(table)
        note = ""
        if kind == "p":
            staged[int(what)] = [str(v) for v in (interaction.data or {}).get("values", [])]
            ui.confirming.discard(seat)
        elif what == "clear":
            staged.clear()
            ui.confirming.discard(seat)
        elif what == "suggest":
            action = suggest(view)
            staged.clear()
            values = _values_for(view, list(action.cards))  # type: ignore[union-attr]
            staged[0] = values
            note = f"Suggested: {pretty_cards(action.cards)}"  # type: ignore[union-attr]
        elif what == "back":
            ui.confirming.discard(seat)
        elif what in ("play", "bury", "confirm"):
            cards = cards_for(view, [v for vs in staged.values() for v in vs])
            problem = selection_problem(view, cards)
            if problem:
                raise UserError(problem)
            if what == "bury":
                ui.confirming.add(seat)
            else:
                action = Bury(tuple(cards)) if what == "confirm" else Play(tuple(cards))
                await interaction.response.defer()
                try:
                    await self.service.act(table.channel_id, interaction.user.id, action)
                except UserError as err:
                    await interaction.followup.send(**_ephemeral(str(err)))
                    return
                verb = "buried" if what == "confirm" else "played"
                _, _, after = self.service.view_for(table.channel_id, interaction.user.id)
                panel = await self.presenter.panel_for(
                    table, seat, after, note=f"You {verb} {pretty_cards(cards)}."
                )
                await interaction.edit_original_response(
                    content=panel.content, attachments=[panel.file()], view=panel.view
                )
                return
        await interaction.response.defer()
        panel = await self.presenter.panel_for(table, seat, view, note=note)
        await interaction.edit_original_response(
            content=panel.content, attachments=[panel.file()], view=panel.view
        )


def _values_for(view: Any, cards: list) -> list[str]:
    """The option values that select ``cards`` (first copies first)."""
    left = list(cards)
    values = []
    for value, card in option_values(view.hand):
        if card in left:
            left.remove(card)
            values.append(value)
    return values


def _changed(settings: Any, field: str, value: str) -> Any:
    """Settings with one field changed; ``UserError`` explains a bad value."""
    if field in TIMER_FIELDS:
        try:
            number = float(value)
        except ValueError:
            raise UserError(f"`{field}` takes a number of seconds.") from None
        if not 0 <= number <= 600:
            raise UserError(f"`{field}` must be between 0 and 600 seconds.")
        return GuildSettings(settings.rules, {**settings.timers, field: number})
    try:
        rules = settings.rules.replace(**{field: RuleSet.parse_field(field, value)})
    except ValueError as err:
        raise UserError(f"Can't set `{field}` to {value!r}: {err}.") from None
    return GuildSettings(rules, dict(settings.timers))


def _stat_fields(stats: Any) -> list[tuple[str, str]]:
    return [
        ("Matches", f"{stats.matches} ({stats.wins} won)"),
        ("Hands", str(stats.hands)),
        ("As dealer", str(stats.dealer_hands)),
        ("As partner", str(stats.partner_hands)),
        ("As attacker", str(stats.attacker_hands)),
        ("Levels gained", str(stats.levels_gained)),
        ("Kitty bonuses", f"{stats.kitty_bonuses} ({stats.kitty_bonus_points} pts)"),
        ("Failed throws", str(stats.failed_throws)),
        ("League points", str(stats.league)),
        ("Rating", f"{stats.ordinal:.1f} (μ {stats.mu:.1f}, σ {stats.sigma:.1f})"),
    ]


def _match_line(summary: Any) -> str:
    players = ", ".join(p.name for p in summary.players if p is not None)
    if summary.status == "live":
        result = "in progress"
    elif summary.winner_team is None:
        result = summary.status
    else:
        result = f"won by {TEAM_NAMES[summary.winner_team].split(' (')[0]}"
    return f"Table {summary.table_id}: {players} · {summary.hands} hands · {result}"


def _hand_text(record: Any) -> str:
    result = record.result
    names = {p.seat: p.name for p in record.players}
    trump = trump_text(result.trump)
    lines = [
        f"**Hand {record.hand_id}** · trump {trump} · "
        f"dealer {names.get(result.dealer, result.dealer)} · "
        f"attackers {result.attacker_points} pts",
    ]
    for n, trick in enumerate(record.tricks, 1):
        plays = " | ".join(
            f"{names.get(seat, seat)}: {pretty_cards(cards)}" for seat, cards in trick.plays
        )
        lines.append(f"{n}. {plays} → {names.get(trick.winner, trick.winner)} (+{trick.points})")
    before, after = result.levels_before, result.levels_after
    lines.append(
        f"Kitty: {pretty_cards(result.kitty)} · "
        f"levels {level_name(before[0])}/{level_name(before[1])}"
        f" → {level_name(after[0])}/{level_name(after[1])}"
    )
    text = "\n".join(lines)
    return text if len(text) <= 2000 else text[:1990] + "\n…"
