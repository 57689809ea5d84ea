"""Opening a table, taking seats and starting or ending the match."""

from __future__ import annotations

import math

import discord
from discord import app_commands

from bot.ai import LEVELS
from bot.i18n import t
from bot.presets import presets
from bot.rules import seat_index, seat_number
from bot.service import LeaveOutcome

from .common import deps, is_admin, name_of, place_of, reply, shengji
from .ids import LobbyButton
from .lang import reply_locale

PRESETS = presets()


async def say(interaction: discord.Interaction, key: str, **args: str | int) -> None:
    """An ephemeral reply in the player's language."""
    await reply(interaction, t(await reply_locale(interaction), key, **args))


@shengji.command(name="new", description="Open a table in this channel")
@app_commands.describe(preset="A rule preset")
@app_commands.choices(preset=[app_commands.Choice(name=n, value=n) for n in PRESETS])
async def new(interaction: discord.Interaction, preset: str | None = None) -> None:
    rules = PRESETS[preset][0] if preset else None
    await deps(interaction).service.new_table(
        interaction.guild_id or 0,
        interaction.channel_id or 0,
        interaction.user.id,
        name_of(interaction.user),
        rules,
        locale=interaction.guild_locale.value if interaction.guild_locale else None,
    )
    await say(interaction, "reply-table-opened")


SEAT = "Seat 1-4 (1 & 3 and 2 & 4 are partners)"


def _index(number: int | None) -> int | None:
    """The seat a typed seat number means (people count seats from 1)."""
    return None if number is None else seat_index(number)


@shengji.command(name="join", description="Take a seat at this channel's table")
@app_commands.describe(seat=SEAT)
async def join(
    interaction: discord.Interaction, seat: app_commands.Range[int, 1, 4] | None = None
) -> None:
    taken = await deps(interaction).service.join(
        place_of(interaction), interaction.user.id, name_of(interaction.user), _index(seat)
    )
    await say(interaction, "reply-seated", seat=seat_number(taken))


LEFT = {
    LeaveOutcome.LEFT: "reply-left",
    LeaveOutcome.REPLACED: "reply-left-replaced",
    LeaveOutcome.CLOSED: "reply-left-closed",
    LeaveOutcome.AWAY: "reply-left-away",
}


async def _leave(interaction: discord.Interaction, channel_id: int) -> None:
    service = deps(interaction).service
    outcome = await service.leave(channel_id, interaction.user.id)
    if outcome is LeaveOutcome.AWAY:  # how long the seat is kept for them
        grace = service.table_in(channel_id).meta.get("leave_grace", 0)
        await say(interaction, LEFT[outcome], minutes=math.ceil(grace / 60))
    else:
        await say(interaction, LEFT[outcome])


@shengji.command(
    name="leave", description="Leave your seat (a computer player takes over mid-match)"
)
async def leave(interaction: discord.Interaction) -> None:
    await _leave(interaction, place_of(interaction))


@shengji.command(name="addbot", description="Fill an empty seat with a computer player")
@app_commands.describe(seat=SEAT, level="Computer player strength")
@app_commands.choices(level=[app_commands.Choice(name=n, value=n) for n in LEVELS])
async def addbot(
    interaction: discord.Interaction,
    seat: app_commands.Range[int, 1, 4] | None = None,
    level: str = "normal",
) -> None:
    taken = await deps(interaction).service.add_bot(place_of(interaction), _index(seat), level)
    await say(interaction, "reply-bot-seated", seat=seat_number(taken))


@shengji.command(name="kick", description="Remove a player before the start (host or admin)")
@app_commands.describe(seat=SEAT)
async def kick(interaction: discord.Interaction, seat: app_commands.Range[int, 1, 4]) -> None:
    info = await deps(interaction).service.kick(
        place_of(interaction), interaction.user.id, seat_index(seat), is_admin(interaction)
    )
    await say(interaction, "reply-kicked", name=info.name, seat=seat)


@shengji.command(name="start", description="Start the match once four seats are filled")
async def start(interaction: discord.Interaction) -> None:
    await deps(interaction).service.start(
        place_of(interaction), interaction.user.id, is_admin(interaction)
    )
    await say(interaction, "reply-started")


@shengji.command(name="abort", description="End this table (host/admin, or a vote of the players)")
async def abort(interaction: discord.Interaction) -> None:
    outcome = await deps(interaction).service.abort(
        place_of(interaction), interaction.user.id, is_admin(interaction)
    )
    if outcome.aborted:
        await say(interaction, "reply-aborted")
    else:
        await say(interaction, "reply-abort-vote", votes=outcome.votes, needed=outcome.needed)


async def lobby_button(interaction: discord.Interaction, cid: LobbyButton, channel_id: int) -> None:
    """Join, Add computer, Leave and Start on the lobby message.

    Each writes to the store, so the click is acknowledged first (a slow write must
    not make Discord say "This interaction failed" for a seat that was taken) and
    answered through the follow-up, like the slash commands in ``common.DEFERRED``.
    """
    await interaction.response.defer(ephemeral=True, thinking=True)
    service = deps(interaction).service
    user = interaction.user
    if cid.what == "join":
        await say(
            interaction,
            "reply-seated",
            seat=seat_number(await service.join(channel_id, user.id, name_of(user))),
        )
    elif cid.what == "bot":
        taken = await service.add_bot(channel_id)
        await say(interaction, "reply-bot-seated", seat=seat_number(taken))
    elif cid.what == "leave":
        await _leave(interaction, channel_id)
    else:
        await service.start(channel_id, user.id, is_admin(interaction))
        await say(interaction, "reply-started")
