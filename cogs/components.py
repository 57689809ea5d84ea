"""The router for every button and menu: one listener, ids decoded by ``cogs.ids``.

Components carry their meaning in their custom id, so they keep working across
restarts without stored views. Discord sends a bot only the components of its own
messages, so an id this version cannot read was forged (or is from a version long
gone): it gets a short "that didn't work", like a click on a closed table.
"""

from __future__ import annotations

import logging

import discord
from discord.ext import commands

from bot.i18n import guide
from bot.service import Table, UserError

from .common import BAD_VALUE, deps, handler_failed, reply
from .ids import (
    CUP_PREFIX,
    BidButton,
    LobbyButton,
    PanelButton,
    PickerMenu,
    ReviewButton,
    TableButton,
    TopicMenu,
    parse_id,
)
from .lang import error_text, locale_for, refusal, reply_locale, reply_prefs
from .lobby import lobby_button
from .play import bid_button, open_panel, panel_component
from .review import review_button
from .tableview import as_view, png, rules_embed, topic_menu

log = logging.getLogger(__name__)


class Router(commands.Cog):
    """Routes component interactions to the module that owns them."""

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type != discord.InteractionType.component:
            return
        custom_id = str(interaction.data.get("custom_id", "")) if interaction.data else ""
        cid = parse_id(custom_id)
        if cid is None:  # only our messages' components reach us: a junk id was forged
            if not custom_id.startswith(CUP_PREFIX):  # the tournament router's own
                junk = UserError(BAD_VALUE, key="reply-bad-value")
                await reply(interaction, await error_text(interaction, junk))
            return
        try:
            if isinstance(cid, ReviewButton):  # outlives its table: the service checks the place
                await review_button(interaction, cid)
                return
            service = deps(interaction).service
            # a DM counts only for a hand panel, of the clicking player's own seat
            seat = cid.seat if isinstance(cid, BidButton | PickerMenu | PanelButton) else None
            table = service.component_table(  # bound to its place: checked first
                cid.table_id,
                interaction.guild_id,
                interaction.channel_id,
                interaction.user.id,
                panel_seat=seat,
            )
            match cid:
                case LobbyButton():
                    await lobby_button(interaction, cid, table.channel_id)
                case TableButton():
                    await table_button(interaction, table, cid)
                case BidButton():
                    await bid_button(interaction, table, cid)
                case PickerMenu() | PanelButton():
                    await panel_component(interaction, table, cid)
                case TopicMenu():
                    await topic_chosen(interaction, table)
        except UserError as err:
            await reply(interaction, await error_text(interaction, err))
        except discord.HTTPException as err:  # Discord refused: a forged or stale message
            log.warning("component %s: Discord refused the answer: %s", custom_id, err)
            stale = UserError("That didn't work; open your hand panel again.", key="reply-stale")
            await reply(interaction, await error_text(interaction, stale))
        except Exception as err:
            await handler_failed(interaction, f"component {custom_id}", err)


async def table_button(interaction: discord.Interaction, table: Table, cid: TableButton) -> None:
    """My hand, Previous trick and Rules under the table messages."""
    if cid.what == "rules":
        loc = await reply_locale(interaction)
        await interaction.response.send_message(
            embed=rules_embed(loc, "overview", table.rules),
            view=as_view(topic_menu(table.id, "overview", loc)),
            ephemeral=True,
        )
        return
    if cid.what == "last":
        if table.rules.assistance == "none":  # seed 000: no looking back at tricks
            raise refusal("reply-no-last-trick")
        # the table as the click found it: the hand may end and the next one deal while
        # this answer waits (the defer, the preferences), and the trick is the one asked for
        view = None if table.match is None else table.match.view(None)
        if view is None or not view.tricks or view.trump is None or view.dealer is None:
            raise refusal("reply-no-trick-yet")
        await interaction.response.defer(ephemeral=True, thinking=True)
        prefs = await reply_prefs(interaction)
        loc = locale_for(interaction, prefs)
        image = await deps(interaction).presenter.last_trick_image(table, view, loc, prefs)
        if image is None:  # no trick to draw in ``view`` (the check above should have said)
            raise refusal("reply-no-trick-yet")
        await interaction.followup.send(file=png(image, "trick.png"), ephemeral=True)
        return
    await open_panel(interaction, table.channel_id)


async def topic_chosen(interaction: discord.Interaction, table: Table) -> None:
    """A topic chosen under the Rules answer: that answer shows it (nothing else changes).

    The value comes from the client, so it is checked: a forged one gets the usual short
    answer and leaves the message as it was."""
    values = interaction.data.get("values") if interaction.data else None
    topic = values[0] if isinstance(values, list) and len(values) == 1 else None
    if not isinstance(topic, str) or topic not in guide.TOPICS:
        raise UserError(BAD_VALUE, key="reply-bad-value")
    loc = await reply_locale(interaction)
    await interaction.response.edit_message(
        embed=rules_embed(loc, topic, table.rules), view=as_view(topic_menu(table.id, topic, loc))
    )
