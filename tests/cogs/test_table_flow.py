"""Whole hands through Discord: the real client, the fake API, simulated players."""

from __future__ import annotations

import io

from PIL import Image

from bot.game import Phase

from .helpers import Env


async def _open_full_table(env: Env, humans: int = 4) -> None:
    users = env.users
    text = await env.reply(users[0], "new")
    assert "seat 1" in text  # people count seats from 1
    for user in users[1:humans]:
        assert "You sit in seat" in await env.reply(user, "join")
    for _ in range(4 - humans):
        assert "computer player" in await env.reply(users[0], "addbot")
    lobby = await env.until(
        lambda: next((m for m in env.fake.channel_messages(env.world.tables) if m.embeds), None)
    )
    assert "waiting for players" in lobby.embeds[0]["title"]


async def test_four_players_bid_bury_and_play_a_whole_hand(shengji: Env) -> None:
    env = shengji
    await _open_full_table(env)
    assert "starts" in await env.reply(env.users[0], "start")
    match = await env.until(lambda: env.table().match)
    await env.until(lambda: match.dealt == match.deal_total)
    # every player gets a hand panel by DM during the deal, with the bids they can make
    await env.until(lambda: all(env.fake.dms(u) for u in env.users))
    bidder = next((s for s in range(4) if match.legal_bids(s)), None)
    if bidder is not None:
        user = env.users[bidder]
        panel = await env.until(lambda: env.panel(user, f"sj:d:{env.table().id}:{bidder}:"))
        bid_ids = [c for c in panel.custom_ids() if c.startswith("sj:d:")]
        handle = env.driver.click(panel, bid_ids[0], user)
        (reply,) = await handle.wait_followups(1)
        assert reply.content.startswith("You bid") and reply.ephemeral
        assert match.bids[-1].seat == bidder
    await env.tick(6)  # the bidding window closes
    await env.until(lambda: match.phase == Phase.KITTY)
    dealer = match.dealer
    assert dealer is not None
    if bidder is not None:
        assert dealer == bidder, "first hand: the winning bidder deals"
    # the dealer buries through the picker, with a confirmation step
    await env.play_with_panel(dealer, env.suggestion(dealer))
    assert match.phase == Phase.PLAY and len(match.kitty) == 8
    # the table's buttons leave the deal message for the table message: one message has them
    deal_message = env.place_messages()[0]
    assert deal_message.content.startswith("**Hand 1**")
    await env.until(lambda: [m.content[:15] for m in env.buttoned()] == ["**Hand 1 · tric"])
    # play the hand: the picker for the first tricks, then /shengji play
    while match.phase == Phase.PLAY:
        seat = match.to_act
        cards = env.suggestion(seat)
        if len(match.tricks) < 2:
            await env.play_with_panel(seat, cards)
        else:
            text = await env.play_with_slash(seat, cards)
            assert text.startswith("You played")
    assert match.phase == Phase.SCORED
    kept = env.bot.service.panel_messages(env.table())
    assert sorted(kept) == [0, 1, 2, 3], "each player's panel is kept with the table"
    panels = {seat: message_id for seat, (_, message_id) in kept.items()}
    summary = await env.until(
        lambda: next(
            (m for m in env.fake.channel_messages(env.place()) if "is over" in m.content), None
        )
    )
    assert {a.filename for a in summary.attachments} == {"summary.png", "kitty.png"}
    # each image names its table and the hand it shows, for the privacy audit to tell a
    # late one by
    first = list(env.audit)
    assert {(table_id, hand) for table_id, *_, hand in first} == {(env.table().id, 0)}
    messages = env.fake.messages  # each panel shrinks to the hand's result
    await env.until(lambda: all("(over)" in messages[m].content for m in panels.values()))
    assert not any(messages[m].attachments or messages[m].custom_ids() for m in panels.values())
    assert {"TableScene", "HandScene", "SummaryScene", "KittyScene"} <= {s for _, _, s, *_ in first}
    await env.tick(6)  # the pause after the summary
    await env.until(lambda: match.hand_no == 1)
    await env.until(lambda: any(hand == 1 for *_, hand in env.audit[len(first) :]))
    # the new hand's deal message has them; the last hand's messages none (an old Last
    # trick would show the new hand's)
    await env.until(lambda: [m.content[:10] for m in env.buttoned()] == ["**Hand 2**"])
    # each player's one panel shrank to the result, then the new deal edited it: a hand
    # posts no new DM (Discord would notify of it), so a match leaves one panel a player
    await env.until(lambda: all(messages[m].attachments for m in panels.values()))
    assert env.bot.service.panel_messages(env.table()) == kept
    for seat, message_id in panels.items():
        dms = env.fake.dms(env.seat_user(seat), include_deleted=True)
        assert [m.id for m in dms if m.attachments] == [message_id]
    records = await env.store.hands_of_table(env.table().id)
    assert len(records) == 1
    # nothing the bot sent broke a Discord limit
    assert not [e for e in env.fake.errors if e.status != 403]


async def test_one_human_and_three_computer_players(shengji: Env) -> None:
    env = shengji
    await _open_full_table(env, humans=1)
    await env.reply(env.users[0], "start")
    match = await env.until(lambda: env.table().match)
    await env.until(lambda: match.dealt == match.deal_total)
    for _ in range(400):
        if match.phase == Phase.SCORED:
            break
        kind, seat = match.expecting()
        if kind == "end_bidding":
            await env.tick(6)  # close the bidding window (computer bids may have reopened it)
            await env.until(lambda: match.expecting()[0] != "end_bidding" or match.bids)
        elif seat == 0 and kind in ("bury", "play"):
            cards = env.suggestion(0)
            if kind == "bury":
                await env.play_with_panel(0, cards)
            else:
                await env.play_with_slash(0, cards)
        else:
            seq = match.seq
            await env.until(lambda s=seq: match.seq > s or match.phase == Phase.SCORED)
    assert match.phase == Phase.SCORED
    await env.until(
        lambda: any("is over" in m.content for m in env.fake.channel_messages(env.place())),
        timeout=60,
    )
    # the thread holds the hand in at most four messages: deal, table (edited), summary
    posted = env.fake.channel_messages(env.place())
    assert len(posted) <= 4, [m.content[:40] for m in posted]
    (table_message,) = [m for m in posted if m.content.startswith("**Hand 1 · trick")]
    assert table_message.edits >= len(match.tricks) // 2, "the table message is edited in place"
    (picture,) = table_message.attachments
    with Image.open(io.BytesIO(picture.data)) as img:  # a whole PNG, not just its header
        img.load()
        assert img.size == picture.image_size
    # the channel keeps only the lobby message
    assert len(env.fake.channel_messages(env.world.tables)) == 1


async def test_a_table_keeps_the_preset_it_opened_with(shengji: Env) -> None:
    env = shengji
    await env.reply(env.users[0], "new", preset="one_deck")
    assert env.table().rules.decks == 1
    handle = await env.slash(env.users[1], "rules", topic="overview")
    description = (await handle.wait_message()).embeds[0]["description"]
    assert "One deck: 12 cards each, 6 in the kitty" in description
