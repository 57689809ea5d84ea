"""Records: the leaderboard, a player's stats, recent matches and one hand's record."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.i18n import t
from bot.i18n.rules import card_text, join
from bot.rules import seat_number, trick_side
from bot.store import METRICS
from renderers import HistoryScene, TrickScene, render_history

from .common import deps, ephemeral, name_of, shengji
from .cupview import results_text
from .lang import locale_for, refusal, reply_locale, reply_prefs, server_locale
from .tableview import png
from .text import level_name, trump_text

METRIC_KEYS = {
    "league": "records-metric-league",
    "rating": "records-metric-rating",
    "wins": "records-metric-wins",
    "hands": "records-metric-hands",
}


@shengji.command(name="leaderboard", description="Show this server's leaderboard")
@app_commands.describe(metric="Rank by")
@app_commands.choices(metric=[app_commands.Choice(name=m, value=m) for m in METRICS])
async def leaderboard(interaction: discord.Interaction, metric: str = "league") -> None:
    """Posted for everyone in the channel, so in the server's language (like a table), and
    so is "no finished hands yet": one person's language read by everyone would be odd."""
    service = deps(interaction).service
    loc = await server_locale(interaction)
    if metric not in METRIC_KEYS:
        raise refusal("records-bad-metric", metric=metric[:40])
    rows = await service.leaderboard(interaction.guild_id or 0, metric)
    if not rows:  # the channel reads it (the answer is public): the server's language
        await interaction.followup.send(t(loc, "records-no-hands"))
        return
    lines = []
    for i, row in enumerate(rows, 1):
        value = f"{row.value:.1f}" if isinstance(row.value, float) else str(row.value)
        lines.append(
            t(
                loc,
                "records-leader-line",
                rank=i,
                name=row.name,
                value=value,
                wins=row.wins,
                matches=row.matches,
                hands=row.hands,
            )
        )
    embed = discord.Embed(
        title=t(loc, "records-leaderboard", metric=t(loc, METRIC_KEYS[metric])),
        description="\n".join(lines)[:4000],
        colour=discord.Colour.gold(),
    )
    await interaction.followup.send(embed=embed)


@shengji.command(name="stats", description="Show a player's stats")
@app_commands.describe(user="Whose stats (default: you)")
async def stats(interaction: discord.Interaction, user: discord.User | None = None) -> None:
    who = user or interaction.user
    service, guild = deps(interaction).service, interaction.guild_id or 0
    found = await service.player_stats(guild, who.id)
    entered = await service.player_tournaments(guild, who.id)
    if found is None and not entered:
        raise refusal("records-no-stats", name=name_of(who))
    loc = await reply_locale(interaction)
    embed = discord.Embed(title=t(loc, "records-stats", name=name_of(who)))
    for name, value in _stat_fields(loc, found) if found else ():
        embed.add_field(name=name, value=value, inline=True)
    if entered:
        embed.add_field(
            name=t(loc, "records-tournaments"), value=results_text(loc, entered), inline=False
        )
    await interaction.followup.send(embed=embed, ephemeral=True)


@shengji.command(
    name="history", description="Recent matches, or the trick-by-trick record of one hand"
)
@app_commands.describe(hand_id="A hand number from the history list")
async def history(
    interaction: discord.Interaction, hand_id: app_commands.Range[int, 1] | None = None
) -> None:
    service = deps(interaction).service
    guild_id = interaction.guild_id or 0
    prefs = await reply_prefs(interaction)
    loc = locale_for(interaction, prefs)
    if hand_id is None:
        matches = await service.recent_matches(guild_id)
        if not matches:
            raise refusal("records-no-matches")
        lines = []
        for m in matches:
            ids = await service.hands_of_table(m.table_id)
            line = _match_line(loc, m)
            if ids:
                shown = " ".join(f"`{i}`" for i in ids[-12:])
                more = "… " if len(ids) > 12 else ""
                line += "\n" + t(loc, "records-match-hands", hands=more + shown)
            lines.append(line)
        embed = discord.Embed(title=t(loc, "records-recent"), description="\n".join(lines)[:4000])
        embed.set_footer(text=t(loc, "records-recent-footer"))
        await interaction.followup.send(embed=embed, ephemeral=True)
        return
    record = await service.hand_record(guild_id, hand_id)
    if record is None:
        raise refusal("records-no-hand", hand=hand_id)
    pages = _pages(_hand_lines(loc, record))
    image = await deps(interaction).presenter.off_loop(
        render_history, _hand_scene(loc, record), theme=prefs.theme, four_color=prefs.four_color
    )
    first = ephemeral(pages[0])
    first["file"] = png(image, f"hand-{record.hand_id}.png")
    await interaction.followup.send(**first)
    for page in pages[1:]:
        await interaction.followup.send(**ephemeral(page))


def _stat_fields(loc: str, stats: Any) -> list[tuple[str, str]]:
    return [
        (
            t(loc, "records-stat-matches"),
            t(loc, "records-matches-won", matches=stats.matches, wins=stats.wins),
        ),
        (t(loc, "records-stat-hands"), str(stats.hands)),
        (t(loc, "records-stat-dealer"), str(stats.dealer_hands)),
        (t(loc, "records-stat-partner"), str(stats.partner_hands)),
        (t(loc, "records-stat-attacker"), str(stats.attacker_hands)),
        (t(loc, "records-stat-levels"), str(stats.levels_gained)),
        (
            t(loc, "records-stat-kitty"),
            t(
                loc,
                "records-kitty-bonuses",
                count=stats.kitty_bonuses,
                points=stats.kitty_bonus_points,
            ),
        ),
        (t(loc, "records-stat-failed-throws"), str(stats.failed_throws)),
        (t(loc, "records-stat-league"), str(stats.league)),
        (
            t(loc, "records-stat-rating"),
            t(loc, "records-rating", rating=stats.ordinal, mu=stats.mu, sigma=stats.sigma),
        ),
    ]


def _match_line(loc: str, summary: Any) -> str:
    players = join(loc, [p.name for p in summary.players if p is not None])
    if summary.status == "live":
        result = t(loc, "records-in-progress")
    elif summary.winner_team is None:
        result = t(loc, "records-aborted")
    else:
        result = t(loc, "records-won-by", team=summary.winner_team)
    return t(
        loc,
        "records-match-line",
        table=summary.table_id,
        players=players,
        count=summary.hands,
        result=result,
    )


def _hand_lines(loc: str, record: Any) -> list[str]:
    result = record.result
    names = {p.seat: p.name for p in record.players}
    lines = [
        t(
            loc,
            "records-hand-head",
            hand=record.hand_id,
            trump=trump_text(result.trump, loc),
            dealer=str(names.get(result.dealer, result.dealer)),
            points=result.attacker_points,
        )
    ]
    for n, trick in enumerate(record.tricks, 1):
        plays = " | ".join(
            f"{names.get(seat, seat)}: {card_text(loc, cards)}" for seat, cards in trick.plays
        )
        winner = str(names.get(trick.winner, trick.winner))
        side = trick_side(trick.winner, result.dealer)
        line = t(
            loc,
            "records-trick-line",
            n=n,
            plays=plays,
            winner=winner,
            points=trick.points,
            side=side,
        )
        lines.append(line)
    before, after = result.levels_before, result.levels_after
    lines.append(
        t(
            loc,
            "records-hand-end",
            kitty=card_text(loc, result.kitty),
            before_a=level_name(before[0]),
            before_b=level_name(before[1]),
            after_a=level_name(after[0]),
            after_b=level_name(after[1]),
        )
    )
    return lines


def _hand_scene(loc: str, record: Any) -> HistoryScene:
    """The hand as a grid image: every trick and the kitty (public once the hand is scored)."""
    result = record.result
    by_seat = {p.seat: p.name for p in record.players}
    a, b, c, d = (str(by_seat.get(seat, seat_number(seat))) for seat in range(4))
    names = (a, b, c, d)
    tricks = [
        TrickScene(
            names,
            leader=trick.leader,
            plays=dict(trick.plays),
            trump=result.trump,
            dealer=result.dealer,
            winner=trick.winner,
            final=True,
            trick_points=trick.points,
        )
        for trick in record.tricks
    ]
    title = t(
        loc,
        "records-image-title",
        hand=record.hand_id,
        trump=trump_text(result.trump, loc),
        points=result.attacker_points,
    )
    kitty = t(loc, "records-image-kitty", points=result.kitty_points)
    return HistoryScene(names, result.dealer, tricks, result.kitty, title, kitty)


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
