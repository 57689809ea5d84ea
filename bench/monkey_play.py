"""The moves that carry a match forward, so that a monkey's run plays whole hands.

A random click seldom makes a legal play, so about half of the steps are a person
doing the next useful thing at the table in #tables: opening it, sitting down or
adding a computer player, starting, bidding from their panel, and when it is their
turn playing a legal play (the suggestion or another) from their panel's menus, by
``/shengji play`` or with the panel's Suggest button; when only a timer can move the
table, time passes. Each goes through the driver as the random moves do.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.presets import presets
from bot.service import Table
from fakediscord.driver import InteractionHandle
from fakediscord.state import Channel, Message, User

from .monkey_moves import JSON, good_cards, slash
from .monkey_rig import Rig

PANEL_WAIT = 3.0  # real seconds a person waits for their panel to show the new turn
CLOSED_WAIT = 0.3  # the same for an ephemeral My hand panel (DMs closed)


async def done(rig: Rig, handle: InteractionHandle) -> InteractionHandle:
    """Wait for the bot's acknowledgement (the driver fails the run without one)."""
    await handle
    if handle.choices is not None:
        rig.auditor.choices(handle.user.id, handle.choices, str(handle.interaction.data))
    return handle


async def seen(rig: Rig, predicate: Callable[[], Any], timeout: float = PANEL_WAIT) -> Any:
    try:
        return await rig.fake.wait_for(predicate, timeout=timeout)
    except TimeoutError:
        return None


def newest_with(rig: Rig, user: User, prefix: str) -> Message | None:
    """The newest message ``user`` sees (DMs, their ephemerals) with a component ``prefix``."""
    mine = [*rig.fake.dms(user), *rig.fake.ephemerals(user)]
    for message in sorted(mine, key=lambda m: m.id, reverse=True):
        if any(cid.startswith(prefix) for cid in message.custom_ids()):
            return message
    return None


async def progress(rig: Rig) -> None:
    table = rig.main_table()
    rng = rig.rng
    if table is None:
        preset = {"preset": rng.choice(sorted(presets()))} if rng.random() < 0.5 else {}
        user = rng.choice(rig.users)
        await done(rig, slash(rig, user, "shengji new", preset, rig.world.tables))
    elif table.match is None:
        await fill_lobby(rig, table)
    else:
        await play_on(rig, table)


async def fill_lobby(rig: Rig, table: Table) -> None:
    rng = rig.rng
    seated = [u for u in rig.users if table.seat_of(u.id) is not None]
    outsiders = [u for u in rig.users if table.seat_of(u.id) is None]
    lobby = newest_lobby(rig, table)
    if None not in table.seats:
        starter = rng.choice(seated or rig.users)
        if lobby is not None and rng.random() < 0.5:
            await done(rig, lobby_click(rig, starter, lobby, "start"))
        else:
            await done(rig, slash(rig, starter, "shengji start", {}, rig.world.tables))
    elif outsiders and rng.random() < 0.6:
        joiner = rng.choice(outsiders)
        if lobby is not None and rng.random() < 0.5:
            await done(rig, lobby_click(rig, joiner, lobby, "join"))
        else:
            await done(rig, slash(rig, joiner, "shengji join", {}, rig.world.tables))
    else:
        level = rng.choice(("easy", "normal", "normal", "expert"))
        await done(rig, slash(rig, rng.choice(rig.users), "shengji addbot", {"level": level}))


def newest_lobby(rig: Rig, table: Table) -> Message | None:
    for message in reversed(rig.fake.channel_messages(rig.world.tables)):
        if f"sj:l:{table.id}:join" in message.custom_ids():
            return message
    return None


def lobby_click(rig: Rig, user: User, lobby: Message, what: str) -> InteractionHandle:
    custom_id = f"sj:l:{lobby_table(lobby)}:{what}"
    rig.note(f"{user.name} clicks {custom_id} on the lobby")
    return rig.driver.click(lobby, custom_id, user)


def lobby_table(lobby: Message) -> str:
    return next(c for c in lobby.custom_ids() if c.startswith("sj:l:")).split(":")[2]


async def play_on(rig: Rig, table: Table, channel: Channel | None = None) -> None:
    """The next move at ``table``; a play typed as a command goes to ``channel`` (by
    default where people type: ``command_channel``)."""
    match = table.match
    assert match is not None
    kind, seat = match.expecting()
    human = seat is not None and 0 <= seat < 4 and table.seats[seat] is not None
    info = table.seats[seat] if human and seat is not None else None
    user = rig.user(info.user_id) if info is not None and not info.auto else None
    if kind in ("deal", "end_bidding"):
        if not await bid(rig, table) and kind == "end_bidding":
            await rig.tick(table.timers.bid_window + 1)
    elif kind in ("play", "bury") and user is not None and seat is not None:
        await take_turn(rig, table, seat, user, channel)
    elif kind == "overcall" and user is not None and seat is not None:
        panel = await seen(rig, lambda: newest_with(rig, user, f"sj:d:{table.id}:{seat}:"))
        if panel is not None:
            choice = rig.rng.choice([c for c in panel.custom_ids() if c.startswith("sj:d:")])
            rig.note(f"{user.name} clicks {choice} (overcall round)")
            await done(rig, rig.driver.click(panel, choice, user))
    elif kind == "next_hand":
        await rig.tick(table.timers.next_hand + 1)
    else:  # a computer's turn: it plays at its pace
        seq = match.seq
        if not await seen(rig, lambda: match.seq > seq, timeout=0.5):
            await rig.tick(table.timers.bot_delay + 1)


async def bid(rig: Rig, table: Table) -> bool:
    """A person with a bid to make makes one from their panel (sometimes)."""
    match = table.match
    assert match is not None
    bidders = [
        s
        for s, info in enumerate(table.seats)
        if info is not None and info.kind == "human" and match.legal_bids(s)
    ]
    if not bidders or rig.rng.random() < 0.5:
        return False
    seat = rig.rng.choice(bidders)
    user = rig.user(table.seats[seat].user_id)  # type: ignore[union-attr]
    if user is None:
        return False
    panel = await seen(rig, lambda: newest_with(rig, user, f"sj:d:{table.id}:{seat}:"), 1.0)
    if panel is None:
        return False
    choice = rig.rng.choice([c for c in panel.custom_ids() if c.startswith("sj:d:")])
    rig.note(f"{user.name} bids {choice}")
    await done(rig, rig.driver.click(panel, choice, user))
    return True


async def take_turn(
    rig: Rig, table: Table, seat: int, user: User, channel: Channel | None = None
) -> None:
    """The acting person plays: a legal play mostly, from the panel or by command."""
    rng = rig.rng
    options = good_cards(table, user)
    if not options:
        return
    cards = options[0] if rng.random() < 0.6 else rng.choice(options)
    roll = rng.random()
    if roll < 0.55 and await panel_play(rig, table, seat, user, list(cards)):
        return
    if roll < 0.9:
        text = " ".join(str(c) for c in cards)
        handle = await done(rig, slash(rig, user, "shengji play", {"cards": text}, channel))
        await handle.wait_message()  # the answer comes once the play is taken (or refused)
        return
    prefix = f"sj:b:{table.id}:{seat}:{table.match.seq if table.match else 0}:suggest"
    panel = await seen(rig, lambda: newest_with(rig, user, prefix))
    if panel is not None:
        rig.note(f"{user.name} clicks Suggest")
        await done(rig, rig.driver.click(panel, prefix, user))


async def panel_play(rig: Rig, table: Table, seat: int, user: User, cards: list[Any]) -> bool:
    """Pick ``cards`` in the panel's menus and press Play (Bury, then Confirm): False when
    the panel did not come, or moved on under the person's fingers."""
    match = table.match
    assert match is not None
    seq = match.seq
    prefix = f"sj:p:{table.id}:{seat}:{seq}:"
    # DMs closed: only a My hand panel opened before shows the turn, at once or never
    wait = CLOSED_WAIT if user.dms_closed else PANEL_WAIT
    panel = await seen(rig, lambda: newest_with(rig, user, prefix), wait)
    rig.panels["open DMs" if not user.dms_closed else "closed DMs"] += 1
    if panel is None:
        rig.panels["late, DMs open" if not user.dms_closed else "late, DMs closed"] += 1
        rig.note(f"{user.name}'s panel for action {seq} did not come")
        return False
    wanted, message_id = list(cards), panel.id
    for menu in menus(panel):
        values = []
        for option in menu["options"]:
            card = next((c for c in wanted if str(c) == option["value"].split(".")[0]), None)
            if card is not None:
                wanted.remove(card)
                values.append(option["value"])
        if set(values) == {o["value"] for o in menu["options"] if o.get("default")}:
            continue
        rig.note(f"{user.name} picks {values} in {menu['custom_id']}")
        await done(rig, rig.driver.select(panel, menu["custom_id"], values, user))
        cid = menu["custom_id"]
        shown = await seen(
            rig, lambda c=cid, v=values: picked(rig, message_id, c, v) or match.seq != seq
        )
        if not isinstance(shown, Message) or match.seq != seq:
            return False
        panel = shown
    verb = "bury" if match.expecting()[0] == "bury" else "play"
    button = f"sj:b:{table.id}:{seat}:{seq}:{verb}"
    if wanted or not enabled(panel, button):
        return False
    rig.note(f"{user.name} clicks {verb}")
    if verb == "bury":
        await done(rig, rig.driver.click(panel, button, user))
        button = f"sj:b:{table.id}:{seat}:{seq}:confirm"
        panel = await seen(rig, lambda: enabled(rig.fake.messages[message_id], button))
        if panel is None:
            return False
        rig.note(f"{user.name} confirms the burial")
    edits = panel.edits
    clicked = await done(rig, rig.driver.click(panel, button, user))

    def answered() -> bool:  # in words, or by the panel redrawn (a stale panel's)
        redrawn = rig.fake.messages[message_id].edits > edits
        return bool(clicked.followups) or clicked.response_type == 4 or redrawn

    # the person sees their play land, or the answer, before doing anything else (else
    # their next move would be on the panel of the turn just played)
    await seen(rig, lambda: match.seq != seq or table.closed or answered(), 2.0)
    return True


def menus(message: Message) -> list[JSON]:
    return [c for row in message.components for c in row.get("components", []) if c["type"] == 3]


def picked(rig: Rig, message_id: int, custom_id: str, values: list[str]) -> Message | None:
    message = rig.fake.messages[message_id]
    for menu in menus(message):
        if menu["custom_id"] == custom_id:
            chosen = {o["value"] for o in menu["options"] if o.get("default")}
            return message if chosen == set(values) else None
    return None


def enabled(message: Message, custom_id: str) -> Message | None:
    component = message.find_component(custom_id)
    return message if component is not None and not component.get("disabled") else None
