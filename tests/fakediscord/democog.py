"""A small cog used only by the fake's own tests.

It exercises the paths the Shengji cogs will use — slash command → reply with a
PNG and a button → click → select → DM, plus modals, deferrals and followups,
ephemeral messages, threads and autocomplete — so the fake is proven against
the real client before any game code depends on it. Knobs on the cog
(``autocomplete_count``, ``modal_title``, ``select_max_values``, ``sleep``) let a
test make the bot send an over-limit payload or answer late on purpose.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands
from PIL import Image

CARDS = [("A♥", "AH"), ("K♥", "KH"), ("Q♥", "QH")]


def table_png(width: int = 64, height: int = 48) -> bytes:
    """A small PNG like the table images the real renderer will produce."""
    buf = io.BytesIO()
    Image.new("RGB", (width, height), (0, 96, 48)).save(buf, format="PNG")
    return buf.getvalue()


class DealView(discord.ui.View):
    """One button; clicking it turns the message into a card picker (response type 7)."""

    def __init__(self, cog: DemoCog) -> None:
        super().__init__(timeout=None)
        self.cog = cog

    @discord.ui.button(label="Deal", custom_id="demo:deal", style=discord.ButtonStyle.primary)
    async def deal(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.edit_message(
            content="Pick your cards", attachments=[], view=PickView(self.cog)
        )

    async def on_error(
        self, interaction: discord.Interaction, error: Exception, item: discord.ui.Item[Any]
    ) -> None:
        self.cog.errors.append(error)


class PickView(discord.ui.View):
    """A select; choosing DMs the player their cards and answers ephemerally."""

    def __init__(self, cog: DemoCog) -> None:
        super().__init__(timeout=None)
        self.cog = cog
        select = discord.ui.Select(
            custom_id="demo:pick",
            placeholder="Choose cards",
            max_values=cog.select_max_values,
            options=[discord.SelectOption(label=label, value=value) for label, value in CARDS],
        )
        select.callback = self.picked  # type: ignore[method-assign]
        self.add_item(select)
        self.select = select

    async def picked(self, interaction: discord.Interaction) -> None:
        values = self.select.values
        try:
            await interaction.user.send(f"You picked {' '.join(values)}", view=ThanksView(self.cog))
        except discord.Forbidden as exc:
            self.cog.errors.append(exc)
            await interaction.response.send_message("I cannot DM you", ephemeral=True)
            return
        await interaction.response.send_message("Check your DMs", ephemeral=True)

    async def on_error(
        self, interaction: discord.Interaction, error: Exception, item: discord.ui.Item[Any]
    ) -> None:
        self.cog.errors.append(error)


class ThanksView(discord.ui.View):
    """A button on a DM message (component interactions in DMs)."""

    def __init__(self, cog: DemoCog) -> None:
        super().__init__(timeout=None)
        self.cog = cog

    @discord.ui.button(label="Thanks", custom_id="demo:thanks")
    async def thanks(
        self, interaction: discord.Interaction, button: discord.ui.Button[Any]
    ) -> None:
        await interaction.response.send_message("You're welcome")


class SecretView(discord.ui.View):
    """A button on an ephemeral message."""

    @discord.ui.button(label="Reveal", custom_id="demo:reveal")
    async def reveal(
        self, interaction: discord.Interaction, button: discord.ui.Button[Any]
    ) -> None:
        await interaction.response.edit_message(content="Revealed: 2♠", view=None)


class NameModal(discord.ui.Modal):
    name: discord.ui.TextInput[Any] = discord.ui.TextInput(
        label="Table name", custom_id="demo:name", max_length=20
    )

    def __init__(self, cog: DemoCog) -> None:
        super().__init__(title=cog.modal_title, custom_id="demo:modal")
        self.cog = cog

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"Named {self.name.value}")

    async def on_error(self, interaction: discord.Interaction, error: Exception) -> None:
        self.cog.errors.append(error)


class DemoCog(commands.Cog):
    """``/demo …`` commands (a group with a nested ``admin`` group)."""

    demo = app_commands.Group(name="demo", description="Fake Discord demo commands")
    admin = app_commands.Group(name="admin", description="Admin tools", parent=demo)

    def __init__(
        self, bot: commands.Bot, *, sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
    ) -> None:
        self.bot = bot
        self.sleep = sleep
        self.autocomplete_count = 3
        self.modal_title = "Name your table"
        self.select_max_values = 2
        self.errors: list[BaseException] = []
        self.last_interaction: discord.Interaction | None = None

    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        self.errors.append(getattr(error, "original", error))

    @demo.command(name="start", description="Open a demo table")
    @app_commands.describe(players="How many players", mode="Rule set")
    @app_commands.choices(
        players=[
            app_commands.Choice(name="two", value=2),
            app_commands.Choice(name="four", value=4),
        ]
    )
    async def start(
        self, interaction: discord.Interaction, players: int, mode: str = "classic"
    ) -> None:
        self.last_interaction = interaction
        await interaction.response.send_message(
            f"Table for {players} ({mode})",
            file=discord.File(io.BytesIO(table_png()), "table.png"),
            view=DealView(self),
        )

    @start.autocomplete("mode")
    async def mode_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [
            app_commands.Choice(name=f"{current}{i}", value=f"{current}{i}")
            for i in range(self.autocomplete_count)
        ]

    @demo.command(name="secret", description="An ephemeral message with a button")
    async def secret(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            "Your hand is hidden", ephemeral=True, view=SecretView(timeout=None)
        )

    @demo.command(name="modal", description="Open a modal")
    async def modal(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NameModal(self))

    @demo.command(name="defer", description="Think, then follow up")
    async def defer(self, interaction: discord.Interaction) -> None:
        self.last_interaction = interaction
        await interaction.response.defer(ephemeral=True, thinking=True)
        await interaction.followup.send("first")
        await interaction.followup.send("second", ephemeral=True)
        await interaction.edit_original_response(content="first (edited)")

    @demo.command(name="slow", description="Answers after sleeping")
    async def slow(self, interaction: discord.Interaction, seconds: float = 4.0) -> None:
        await self.sleep(seconds)
        await interaction.response.send_message("finally")

    @demo.command(name="dm", description="DM a user")
    async def dm(self, interaction: discord.Interaction, user: discord.User) -> None:
        try:
            await user.send(f"{interaction.user.name} says hi")
        except discord.Forbidden as exc:
            self.errors.append(exc)
            await interaction.response.send_message("Their DMs are closed", ephemeral=True)
            return
        await interaction.response.send_message("Sent", ephemeral=True)

    @demo.command(name="thread", description="Open a thread for the table")
    async def thread(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Table 1")
        message = await interaction.original_response()
        thread = await message.create_thread(name="table-1")
        await thread.send("Welcome to table 1")

    @demo.command(name="inspect", description="Describe the options given")
    async def inspect(
        self,
        interaction: discord.Interaction,
        channel: discord.TextChannel | None = None,
        role: discord.Role | None = None,
        file: discord.Attachment | None = None,
        ratio: app_commands.Range[float, 0.0, 1.0] | None = None,
        member: discord.Member | None = None,
    ) -> None:
        parts = []
        if channel is not None:
            parts.append(f"channel={channel.name}")
        if role is not None:
            parts.append(f"role={role.name}")
        if file is not None:
            parts.append(f"file={file.filename}:{file.size}:{len(await file.read())}")
        if ratio is not None:
            parts.append(f"ratio={ratio}")
        if member is not None:
            parts.append(f"member={member.display_name}")
        await interaction.response.send_message(" ".join(parts) or "nothing")

    @admin.command(name="reset", description="Reset everything")
    async def reset(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("reset done")
