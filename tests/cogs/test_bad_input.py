"""Bad input, stale buttons and closed DMs: specific replies, and nothing changes."""

from __future__ import annotations

import asyncio

import pytest

from bot.game import Phase
from bot.rules import format_cards, order_for

from .helpers import Env


async def _started(env: Env, humans: int = 4) -> None:
    users = env.users
    await env.reply(users[0], "new")
    for user in users[1:humans]:
        await env.reply(user, "join")
    for _ in range(4 - humans):
        await env.reply(users[0], "addbot")
    await env.reply(users[0], "start")
    match = await env.until(lambda: env.table().match)
    await env.until(lambda: match.dealt == match.deal_total)
    while match.expecting()[0] == "end_bidding":
        await env.tick(6)
        await env.until(lambda: match.expecting()[0] != "end_bidding" or match.bids)
    dealer = match.dealer
    assert dealer is not None
    info = env.table().seats[dealer]
    if info.kind == "bot":
        await env.until(lambda: match.phase == Phase.PLAY)
    elif not env.seat_user(dealer).dms_closed:  # its panel comes (a busy machine: later)
        await env.play_with_panel(dealer, env.suggestion(dealer))
    else:  # DMs closed: /shengji play buries too
        assert "You buried" in await env.play_with_slash(dealer, env.suggestion(dealer))
    assert match.phase == Phase.PLAY


async def test_commands_without_a_table_or_with_garbage_get_specific_replies(shengji: Env) -> None:
    env = shengji
    alice, bob = env.users[0], env.users[1]
    assert "no table in this channel" in await env.reply(alice, "play", cards="AH")
    assert "no table" in await env.reply(alice, "join")
    assert "no table" in await env.reply(alice, "hint")
    await env.reply(alice, "new")
    assert "already has a table" in await env.reply(bob, "new")
    assert "already sit" in await env.reply(alice, "join")
    assert "Four players are needed: seats 2, 3, and 4 are empty" in await env.reply(alice, "start")
    assert "not seated" in await env.reply(bob, "leave")
    assert "Only the host" in await env.reply(bob, "kick", seat=1)
    assert "Seat 3 is empty" in await env.reply(alice, "kick", seat=3)  # seats count from 1
    assert "hasn't started" in await env.reply(alice, "play", cards="AH")
    assert "Only server admins" in await env.reply(bob, "settings", field="decks", value="3")
    assert "No finished hands" in await env.reply(alice, "leaderboard")
    assert "no recorded hands" in await env.reply(alice, "stats")
    assert "There is no hand 99" in await env.reply(alice, "history", hand_id=99)
    handle = await env.slash(alice, "rules", topic="throws")
    embed = (await handle.wait_message()).embeds[0]
    assert "甩牌" in embed["description"] and "Variants in effect" in embed["description"]
    # nothing above changed the table
    table = env.table()
    assert [s is not None for s in table.seats] == [True, False, False, False]


async def test_admin_settings_reject_bad_values(shengji: Env) -> None:
    env = shengji
    owner = env.world.guild.owner_id
    admin = next(u for u in env.fake.users.values() if u.id == owner)
    handle = env.driver.send_slash(
        "shengji settings", admin, env.world.tables, {"field": "decks", "value": "banana"}
    )
    await handle
    # each value by its name, then as typed, the one to type in code format
    said = (await handle.wait_message()).content
    assert "it takes one deck `1`, two decks `2`, or three decks `3`." in said
    handle = env.driver.send_slash(
        "shengji settings", admin, env.world.tables, {"field": "decks", "value": "4"}
    )
    await handle
    assert "`decks` can't be `4`" in (await handle.wait_message()).content
    handle = env.driver.send_slash(
        "shengji settings", admin, env.world.tables, {"field": "throw_penalty", "value": "20"}
    )
    await handle
    message = await handle.wait_message()
    assert "throw_penalty` = 20" in message.embeds[0]["description"]
    settings = await env.store.guild_settings(env.world.guild.id)
    assert settings.rules.throw_penalty == 20 and settings.rules.decks == 2


async def test_illegal_and_out_of_turn_plays_change_nothing(shengji: Env) -> None:
    env = shengji
    await _started(env)
    match = env.match()
    seat = match.to_act
    other = (seat + 1) % 4
    before = match.to_dict()
    text = await env.reply(env.seat_user(other), "play", cards=str(match.hands[other][0]))
    assert "not your turn" in text and env.table().name(seat) in text
    text = await env.reply(env.seat_user(seat), "play", cards="ZZ 9Q")
    assert "'ZZ' is not a card" in text
    missing = next(c for c in match.hands[other] if c not in match.hands[seat])
    text = await env.reply(env.seat_user(seat), "play", cards=str(missing))
    assert "don't hold" in text
    assert match.to_dict() == before
    # lead something, then try to follow with the wrong suit while holding the suit
    lead = env.suggestion(seat)
    await env.play_with_slash(seat, lead)
    follower = match.to_act
    hand = match.hands[follower]
    order = order_for(match.trump, match.rules)
    suit = order.suit_of[lead[0]]
    in_suit = [c for c in hand if order.suit_of[c] == suit]
    off = [c for c in hand if order.suit_of[c] != suit]
    if in_suit and len(off) >= len(lead):
        before = match.to_dict()
        text = await env.reply(
            env.seat_user(follower), "play", cards=format_cards(off[: len(lead)])
        )
        assert "first" in text or "must" in text
        assert match.to_dict() == before


async def test_stale_panel_buttons_are_answered_and_change_nothing(shengji: Env) -> None:
    env = shengji
    await _started(env)
    match = env.match()
    seat = match.to_act
    user = env.seat_user(seat)
    old = await env.fresh_panel(user, seat)
    await env.play_with_slash(seat, env.suggestion(seat))  # the panel is now out of date
    before = match.to_dict()
    custom_id = next(c for c in old.custom_ids() if c.endswith(":play"))
    click = env.driver.click(old, next(c for c in old.custom_ids() if c.endswith(":clear")), user)
    await click
    # the click redraws its own panel with a note; the presenter's redraw of the same
    # panel (queued after the next player's) may land before or after it
    token = click.interaction.token
    await env.until(
        lambda: any(
            r.method == "PATCH" and token in r.path and "out of date" in r.json["content"]
            for r in env.fake.requests
        )
    )
    await env.until(lambda: custom_id not in env.fake.messages[old.id].custom_ids())
    assert match.to_dict() == before


async def _others_play_until(env, match, seat: int) -> None:
    """Until ``seat``'s turn: computer seats play at their pace, people by /shengji play."""
    while match.to_act != seat:
        actor = match.to_act
        if env.table().seats[actor].kind == "bot":
            seq = match.seq
            await env.until(lambda s=seq: match.seq > s)
        else:
            await env.play_with_slash(actor, env.suggestion(actor))


async def test_a_player_with_closed_dms_plays_through_the_ephemeral_panel(shengji: Env) -> None:
    env = shengji
    carol = env.users[2]
    env.fake.close_dms(carol)
    await _started(env, humans=3)
    match = env.match()
    notice = await env.until(
        lambda: next(
            (
                m
                for m in env.fake.channel_messages(env.place())
                if f"<@{carol.id}>" in m.content and "direct messages" in m.content
            ),
            None,
        )
    )
    assert "My hand" in notice.content
    assert not env.fake.dms(carol)
    # play until it is Carol's turn; the others use /shengji play
    await _others_play_until(env, match, 2)
    trick_message = await env.until(
        lambda: next(
            (
                m
                for m in reversed(env.fake.channel_messages(env.place()))
                if any(c.endswith(":hand") for c in m.custom_ids())
            ),
            None,
        )
    )
    tid = env.table().id
    handle = env.driver.click(trick_message, f"sj:t:{tid}:hand", carol)
    await handle
    (panel,) = await handle.wait_followups(1)
    assert panel.ephemeral and panel.attachments
    cards = env.suggestion(2)
    await env.play_with_panel(2, cards, message=panel)
    assert match.tricks or match.trick[-1][0] == 2
    # only Carol ever saw her panel; no DM was attempted again after the first refusal
    assert all(m.ephemeral_for in (None, carol.id) for m in env.fake.ephemerals(carol))
    refusals = [e for e in env.fake.errors if e.status == 403]
    assert len(refusals) == 1
    # at Carol's next turn the same ephemeral panel is redrawn through its interaction
    await _others_play_until(env, match, 2)
    prefix = f"sj:p:{tid}:2:{match.seq}:"
    await env.until(
        lambda: any(c.startswith(prefix) for c in env.fake.messages[panel.id].custom_ids())
    )


@pytest.mark.parametrize("via", ["slash", "panel"])
async def test_a_play_that_waited_while_the_timer_played_for_the_seat_is_refused(
    shengji: Env, via: str
) -> None:
    """The timer's move holds the table while it is stored; a play sent meanwhile waits
    for it, and must not then be made as the seat's next decision (the same cards led
    next trick, a lead the player never chose): it is refused, saying why."""
    env = shengji
    await _started(env)
    match, table, service = env.match(), env.table(), env.bot.service
    seat = match.to_act
    card = match.hands[seat][0]
    async with table.lock:  # the timer's move, being stored
        if via == "slash":
            sent = asyncio.ensure_future(env.reply(env.seat_user(seat), "play", cards=str(card)))
        else:
            sent = asyncio.ensure_future(env.play_with_panel(seat, [card], accepted=False))
        await env.until(lambda: table.lock._waiters)  # the play waits for the table
        await service._apply(table, seat, None)
        after = match.to_dict()
    if via == "slash":
        text = await sent
    else:
        (note,) = await (await sent).wait_followups()
        text = note.content
    assert "moved on before your move arrived" in text
    assert match.to_dict() == after  # nothing more was played


async def test_inputs_a_review_found_wrong_get_a_specific_answer(shengji: Env) -> None:
    """Each of these changed something, or answered vaguely, before."""
    env = shengji
    alice = env.users[0]
    await env.reply(alice, "new")
    # the host kicking their own seat emptied the table and kept a host nobody saw
    assert "your own seat" in await env.reply(alice, "kick", seat=1)
    assert env.table().seat_of(alice.id) == 0
    # a value with no field to set was taken for a look at the settings
    assert "`field`" in await env.reply(alice, "settings", value="3")
    assert "`field`" in await env.reply(alice, "prefs", value="dark")
    await _started(env)  # in the table's thread from here
    table = env.table()
    # /new in a table's thread opened a second table there, which then took every command
    thread = env.place()
    assert thread != env.world.tables
    handle = env.driver.send_slash("shengji new", alice, thread)
    assert "already has a table" in (await handle.wait_message()).content
    assert env.bot.service.channel_of(thread.id) == table.channel_id
    assert len(env.bot.service.tables) == 1


async def test_an_admin_kicking_the_last_person_closes_the_lobby(shengji: Env) -> None:
    """Nobody would host it: its players saw "Only the host (nobody)…"."""
    from fakediscord.state import Perm

    env = shengji
    await env.reply(env.users[0], "new")
    role = env.fake.create_role(env.world.guild, "Moderators", Perm.ADMINISTRATOR)
    mona = env.fake.create_user("Mona")
    env.fake.add_member(env.world.guild, mona, [role])
    table = env.table()
    await env.reply(mona, "kick", seat=1)
    await env.until(lambda: table.closed)
    assert not env.bot.service.tables


async def test_a_hint_during_the_deal_says_when_hints_start(shengji: Env) -> None:
    env = shengji
    await env.reply(env.users[0], "new")
    for user in env.users[1:]:
        await env.reply(user, "join")
    await env.reply(env.users[0], "start")
    match = await env.until(lambda: env.table().match)
    assert match.expecting()[0] in ("deal", "end_bidding")
    assert "once the cards are dealt" in await env.reply(env.users[0], "hint")


async def test_no_leaderboard_yet_is_said_in_the_servers_language(shengji: Env) -> None:
    """The answer is public: a Chinese reader's words in an English server read oddly."""
    env = shengji
    alice = env.users[0]
    alice.locale = "zh-CN"
    handle = await env.slash(alice, "leaderboard")
    message = await handle.wait_message()
    assert message.content == "No finished hands on this server yet."
    assert not message.ephemeral
