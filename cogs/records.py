"""Records: the leaderboard, a player's stats, recent matches and one hand's record."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.rules import pretty_cards
from bot.service import UserError
from bot.store import METRICS

from .common import deps, ephemeral, name_of, shengji
from .text import level_name, team_name, trump_text
from .tournament import results_text


@shengji.command(name="leaderboard", description="Show this server's leaderboard")
@app_commands.describe(metric="Rank by")
@app_commands.choices(metric=[app_commands.Choice(name=m, value=m) for m in METRICS])
async def leaderboard(interaction: discord.Interaction, metric: str = "league") -> None:
    rows = await deps(interaction).service.leaderboard(interaction.guild_id or 0, metric)
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


@shengji.command(name="stats", description="Show a player's stats")
@app_commands.describe(user="Whose stats (default: you)")
async def stats(interaction: discord.Interaction, user: discord.User | None = None) -> None:
    who = user or interaction.user
    service, guild = deps(interaction).service, interaction.guild_id or 0
    found = await service.player_stats(guild, who.id)
    entered = await service.player_tournaments(guild, who.id)
    if found is None and not entered:
        raise UserError(f"{name_of(who)} has no recorded hands on this server yet.")
    embed = discord.Embed(title=f"Stats · {name_of(who)}")
    for name, value in _stat_fields(found) if found else ():
        embed.add_field(name=name, value=value, inline=True)
    if entered:
        embed.add_field(name="Tournaments", value=results_text(entered), inline=False)
    await interaction.response.send_message(embed=embed, ephemeral=True)


@shengji.command(
    name="history", description="Recent matches, or the trick-by-trick record of one hand"
)
@app_commands.describe(hand_id="A hand number from the history list")
async def history(
    interaction: discord.Interaction, hand_id: app_commands.Range[int, 1] | None = None
) -> None:
    service = deps(interaction).service
    guild_id = interaction.guild_id or 0
    if hand_id is None:
        matches = await service.recent_matches(guild_id)
        if not matches:
            raise UserError("No matches on this server yet.")
        lines = []
        for m in matches:
            ids = await service.hands_of_table(m.table_id)
            shown = " ".join(f"`{i}`" for i in ids[-12:])
            more = "… " if len(ids) > 12 else ""
            lines.append(_match_line(m) + (f"\nhands: {more}{shown}" if ids else ""))
        embed = discord.Embed(title="Recent matches", description="\n".join(lines)[:4000])
        embed.set_footer(text="See a hand trick by trick: /shengji history hand_id:<number>")
        await interaction.response.send_message(embed=embed, ephemeral=True)
        return
    record = await service.hand_record(guild_id, hand_id)
    if record is None:
        raise UserError(f"There is no hand {hand_id} on this server.")
    pages = _pages(_hand_lines(record))
    await interaction.response.send_message(**ephemeral(pages[0]))
    for page in pages[1:]:
        await interaction.followup.send(**ephemeral(page))


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
        result = f"won by {team_name(summary.winner_team).split(' (')[0]}"
    return f"Table {summary.table_id}: {players} · {summary.hands} hands · {result}"


def _hand_lines(record: Any) -> list[str]:
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
    return lines


def _pages(lines: list[str], size: int = 1900) -> list[str]:
    """Lines gathered into messages under Discord's 2,000 characters, never cut mid-line."""
    pages: list[str] = []
    for line in lines:
        line = line[:size]
        if pages and len(pages[-1]) + 1 + len(line) <= size:
            pages[-1] += "\n" + line
        else:
            pages.append(line)
    if len(pages) > 1:
        pages = [f"{page}\n({i}/{len(pages)})" for i, page in enumerate(pages, 1)]
    return pages or ["—"]
