"""Playing: the hand panel, its picker and buttons, bids, /play, hints and 托管.

Requests per play (issue 14, load), decided: a click on the DM panel (Play, Bury,
a menu) is acknowledged as a deferred update before the store is written and then
answered by editing that same panel through the interaction
(``edit_original_response``): two requests, and the presenter does not edit the
panel again for that play (``acting_from_panel``). ``/shengji play`` is a slash
command, which Discord lets a bot acknowledge only with a message: it is deferred
before the write (ephemeral, "thinking") and answered by the follow-up ("You
played ♠A"), which is what ends the "thinking" — the one request that resolves the
deferral, so it stays; the player's DM panel is edited once for the play (their
hand shrank). The "your turn" DM is posted only when a turn waits
(``cogs.seatpanels``).
"""

from __future__ import annotations

import contextlib
from collections import Counter
from typing import Any

import discord
from discord import app_commands

from bot.ai import suggest_cards
from bot.game import Bury, Declare, Pass, Play, SeatView, play_options
from bot.i18n.rules import card_text
from bot.rules import (
    Card,
    RulesError,
    format_cards,
    order_for,
    parse_cards,
)
from bot.service import Table, UserError

from .common import BAD_VALUE, deps, ephemeral, place_of, reply, shengji
from .ids import PASS_CODE, BidButton, PanelButton, PickerMenu
from .lang import error_text, refusal, reply_locale, say
from .panels import cards_for, menu_choice, menus_for, option_values, selection_problem
from .respond import suggestions
from .tableview import as_view


@shengji.command(name="hand", description="Open your private hand panel")
async def hand(interaction: discord.Interaction) -> None:
    await open_panel(interaction, place_of(interaction))


@shengji.command(name="play", description="Play cards by notation, e.g. AH AH KH")
@app_commands.describe(cards="Cards to play, e.g. AH AH KH or 10h")
async def play(interaction: discord.Interaction, cards: app_commands.Range[str, 1, 200]) -> None:
    try:
        parsed = parse_cards(cards)
    except RulesError as err:
        raise UserError(str(err), reason=err) from None
    if not parsed:
        raise refusal("reply-name-cards")
    service = deps(interaction).service
    table, seat, view = service.view_for(place_of(interaction), interaction.user.id)
    action = (
        Bury(tuple(parsed))
        if view.expecting == "bury" and view.to_act == seat
        else Play(tuple(parsed))
    )
    await service.act(table.channel_id, interaction.user.id, action, seq=view.seq)
    key = "reply-buried" if isinstance(action, Bury) else "reply-played"
    await reply(interaction, await say(interaction, key, cards=tuple(parsed)))


@play.autocomplete("cards")
@suggestions
async def play_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    try:
        _, _, view = deps(interaction).service.view_for(place_of(interaction), interaction.user.id)
    except UserError:
        return []
    if view.rules.assistance == "none":  # seed 000 不许提示: echo what was typed, no list
        echo = current.strip()[:100]
        return [app_commands.Choice(name=echo, value=echo)] if echo else []
    options = play_options(view, limit=30)  # empty unless it is this seat's turn to play
    if not options or view.trump is None:
        return []
    order = order_for(view.trump, view.rules)
    hint = suggest_cards(view)
    options = [tuple(sorted(hint, key=order.sort_key, reverse=True)), *options]
    typed = _typed_cards(current)
    loc = await reply_locale(interaction)
    choices: list[app_commands.Choice[str]] = []
    seen: set[str] = set()
    for cards in options:
        value = format_cards(cards)
        if value in seen or not typed <= Counter(cards):
            continue
        seen.add(value)
        shown = card_text(loc, cards)
        label = shown if shown == value else f"{shown}  ({value})"
        choices.append(app_commands.Choice(name=label[:100], value=value[:100]))
        if len(choices) == 25:
            break
    return choices


def _typed_cards(text: str) -> Counter[Card]:
    """The cards named so far in a play being typed, in any notation ``/play`` takes
    (``AH``, ``A♥``, ``♥A``, 红桃A): the plays offered hold them all. A word still being
    typed (``A``, 红桃) narrows nothing yet."""
    named: Counter[Card] = Counter()
    for word in text.replace(",", " ").split():
        with contextlib.suppress(RulesError):
            named.update(parse_cards(word))
    return named


@shengji.command(name="hint", description="Suggest a play for your turn")
async def hint(interaction: discord.Interaction) -> None:
    cards = await deps(interaction).service.hint(place_of(interaction), interaction.user.id)
    text = await say(interaction, "reply-hint", cards=tuple(cards), code=format_cards(cards))
    await interaction.response.send_message(**ephemeral(text))


@shengji.command(name="auto", description="Let the computer play for you (toggle)")
async def auto(interaction: discord.Interaction) -> None:
    on = await deps(interaction).service.set_auto(place_of(interaction), interaction.user.id)
    await reply(interaction, await say(interaction, "reply-auto-on" if on else "reply-auto-off"))


# --- components --------------------------------------------------------------------


async def open_panel(interaction: discord.Interaction, channel_id: int) -> None:
    """The caller's hand panel, ephemerally (My hand, /shengji hand)."""
    service, presenter = deps(interaction).service, deps(interaction).presenter
    table, seat, view = service.view_for(channel_id, interaction.user.id)
    await interaction.response.defer(ephemeral=True, thinking=True)
    panel = await presenter.panel_for(table, seat, view)
    await interaction.followup.send(
        content=panel.content, file=panel.file(), view=as_view(panel.view), ephemeral=True
    )
    presenter.opened_ephemeral(table, seat, interaction)


async def bid_button(interaction: discord.Interaction, table: Table, cid: BidButton) -> None:
    if table.seat_of(interaction.user.id) != cid.seat:
        raise refusal("reply-not-your-panel")
    action: Declare | Pass
    if cid.cards == PASS_CODE:  # the overcall round after burying: no overcall
        action = Pass()
    else:
        try:
            action = Declare(tuple(parse_cards(cid.cards)))
        except RulesError:
            raise refusal("reply-bad-bid-button") from None
    await interaction.response.defer()
    try:
        await deps(interaction).service.act(table.channel_id, interaction.user.id, action)
    except UserError as err:
        await interaction.followup.send(**ephemeral(await error_text(interaction, err)))
        return
    if isinstance(action, Pass):
        said = await say(interaction, "reply-passed")
    else:
        said = await say(interaction, "reply-bid", cards=action.cards)
    await interaction.followup.send(**ephemeral(said))


async def panel_component(
    interaction: discord.Interaction, table: Table, cid: PickerMenu | PanelButton
) -> None:
    """A click or a selection on a hand panel: stage, suggest, confirm, play or bury."""
    service, presenter = deps(interaction).service, deps(interaction).presenter
    seat = cid.seat
    if table.seat_of(interaction.user.id) != seat:
        raise refusal("reply-not-your-panel")
    _, _, view = service.view_for(table.channel_id, interaction.user.id)
    if view.seq != cid.seq or view.to_act != seat:
        await interaction.response.defer()  # acknowledged before anything else is awaited
        await _redraw(interaction, table, seat, view, await say(interaction, "reply-panel-stale"))
        return
    chosen: list[str] = []
    if isinstance(cid, PickerMenu):  # a forged choice is refused before anything is staged
        values = interaction.data.get("values") if interaction.data else None
        picked = menu_choice(view, cid.menu, values)
        if picked is None:
            raise UserError(BAD_VALUE, key="reply-bad-value")
        chosen = picked
    staged = presenter.staged(table, seat, cid.seq)
    confirming = presenter.ui(table).confirming
    note = ""
    if isinstance(cid, PickerMenu):
        staged[cid.menu] = chosen
        confirming.discard(seat)
    elif cid.what == "clear":
        staged.clear()
        confirming.discard(seat)
    elif cid.what == "suggest":
        if view.rules.assistance == "none":  # a stale panel from before: no suggestion
            raise UserError(
                "Hints and suggestions are off at this table (no assistance).",
                key="service-hint-off",
            )
        cards = list(suggest_cards(view))
        staged.clear()
        staged.update(_by_menu(view, _values_for(view, cards)))
        note = await say(interaction, "reply-suggested", cards=tuple(cards))
    elif cid.what == "back":
        confirming.discard(seat)
    else:
        cards = cards_for(view, [v for vs in staged.values() for v in vs])
        problem = selection_problem(view, cards, await reply_locale(interaction))
        if problem:
            await reply(interaction, problem)
            return
        if cid.what == "bury":
            confirming.add(seat)
        else:
            action = Bury(tuple(cards)) if cid.what == "confirm" else Play(tuple(cards))
            await interaction.response.defer()
            presenter.acting_from_panel(table, seat)
            try:
                await service.act(table.channel_id, interaction.user.id, action, seq=view.seq)
            except UserError as err:
                presenter.panel_refused(table, seat)
                await interaction.followup.send(**ephemeral(await error_text(interaction, err)))
                return
            key = "reply-buried" if cid.what == "confirm" else "reply-played"
            _, _, after = service.view_for(table.channel_id, interaction.user.id)
            note = await say(interaction, key, cards=tuple(cards))
            await _redraw(interaction, table, seat, after, note)
            return
    await _redraw(interaction, table, seat, view, note)


async def _redraw(
    interaction: discord.Interaction, table: Table, seat: int, view: SeatView, note: str
) -> None:
    """Edit the panel the click came from (acknowledging first if still needed), unless
    the panel shrank while it was drawn (the hand's end, the table's close): the edit
    landed after the shrinking and armed its picker again. A shrinking that begins while
    the edit is on its way waits for it (``click_edit``)."""
    if not interaction.response.is_done():
        await interaction.response.defer()
    presenter = deps(interaction).presenter
    panel = await presenter.panel_for(table, seat, view, note=note)
    async with presenter.click_edit(table, seat):  # a shrinking goes after it
        if presenter.shrunk(table, seat, view.hand_no):
            return
        await interaction.edit_original_response(
            content=panel.content, attachments=[panel.file()], view=as_view(panel.view)
        )


def _by_menu(view: SeatView, values: list[str]) -> dict[int, list[str]]:
    """Staged values under the menu that offers each: a choice made later in a menu
    replaces that menu's cards, so a card staged under another would stay selected."""
    staged = {}
    for i, options in enumerate(menus_for(view)):
        offered = {value for value, _ in options}
        if chosen := [v for v in values if v in offered]:
            staged[i] = chosen
    return staged


def _values_for(view: Any, cards: list[Card]) -> list[str]:
    """The option values that select ``cards`` (first copies first)."""
    left = list(cards)
    values = []
    for value, card in option_values(view.hand):
        if card in left:
            left.remove(card)
            values.append(value)
    return values
