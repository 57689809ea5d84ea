"""``/shengji status``: what this bot process runs, for a server's admins (ephemeral).

With several processes (``SHENGJI_SHARDS``) each answers for itself: the admin
sees the process that serves their server, its shards, how many live tables it
drives (and how many of its shards' tables another process still holds) and one
store round trip's latency. Only Manage Server or administrator may ask: the
figures are about the bot as a whole, not about one table.
"""

from __future__ import annotations

import discord

from bot.config import format_shards
from bot.i18n import t

from .common import deps, is_admin, shengji
from .lang import refusal, reply_locale


@shengji.command(name="status", description="This bot process's shards, tables and store latency")
async def status(interaction: discord.Interaction) -> None:
    if not is_admin(interaction):
        raise refusal("status-admins-only")
    info = await deps(interaction).service.status()
    loc = await reply_locale(interaction)
    if info.shards is None or info.shard_count is None:
        lines = [t(loc, "status-unsharded")]
    else:
        lines = [t(loc, "status-shards", shards=format_shards(info.shards), count=info.shard_count)]
        guild = interaction.guild
        if guild is not None and guild.shard_id is not None:
            lines.append(t(loc, "status-this-server", shard=guild.shard_id))
    lines.append(t(loc, "status-tables", tables=info.tables))
    if info.waiting:
        lines.append(t(loc, "status-waiting", tables=info.waiting))
    if info.latency is None:
        lines.append(t(loc, "status-store-down"))
    else:
        lines.append(t(loc, "status-latency", ms=f"{info.latency * 1000:.1f}"))
    embed = discord.Embed(title=t(loc, "status-title"), description="\n".join(lines))
    await interaction.followup.send(embed=embed, ephemeral=True)
