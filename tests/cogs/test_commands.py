"""The other commands and buttons: localisation, autocomplete, hint, records, leaving."""

from __future__ import annotations

from bot.game import Phase
from bot.rules import IllegalPlay, Trump, check_follow, parse_cards
from cogs.panels import menus_for
from fakediscord.state import Message

from .helpers import Env
from .test_bad_input import _started


def _menus(view_cards: str, trump: Trump | None, hand_size: int | None = None) -> list[list]:
    from bot.game import Match

    match = Match.new(1)
    view = match.view(0)._replace(hand=tuple(parse_cards(view_cards)), trump=trump)
    return menus_for(view)


def test_menus_respect_discords_limits() -> None:
    # no trump: five groups (trumps and four plain suits) merge into four menus
    cards = "BJ 2S 3S 4S 3H 4H 3D 4D 3C 4C"
    menus = _menus(cards, Trump("2", None))
    assert len(menus) == 4 and sum(len(m) for m in menus) == 10
    # the trumps come first
    assert {str(c) for _, c in menus[0]} >= {"BJ", "2S"}
    # 33 cards with 26 trumps: the trump group is split at 25
    many = "BJ BJ SJ SJ " + " ".join(
        ["2H 2H 2S 2S 2D 2D 2C 2C 3H 3H 4H 4H 5H 5H 6H 6H 7H 7H 8H 8H 9H 9H"]
    )
    many += " 3S 3S 4S 4S 5S 6S 7S"
    menus = _menus(many, Trump("2", "H"))
    assert len(menus) <= 4 and all(len(m) <= 25 for m in menus)
    assert sum(len(m) for m in menus) == 33
    # every copy of a card is its own option
    values = [v for m in menus for v, _ in m]
    assert len(values) == len(set(values)) and "BJ.0" in values and "BJ.1" in values


async def test_commands_are_localised_in_chinese(shengji: Env) -> None:
    env = shengji
    command = next(c for c in env.fake.commands.values() if c.name == "shengji")
    assert command.raw["name_localizations"]["zh-CN"] == "双升"
    subcommands = {o["name"]: o for o in command.raw["options"]}
    assert subcommands["new"]["name_localizations"]["zh-CN"] == "开桌"
    assert subcommands["play"]["description_localizations"]["zh-CN"].startswith("用记法出牌")
    assert len(subcommands) <= 25


async def test_autocomplete_offers_legal_plays_and_hint_suggests(shengji: Env) -> None:
    env = shengji
    await _started(env)
    match = env.match()
    seat = match.to_act
    user = env.seat_user(seat)
    hint = await env.reply(user, "hint")
    assert hint.startswith("Suggestion:")
    other = env.seat_user((seat + 1) % 4)
    assert "isn't your turn" in await env.reply(other, "hint")
    await env.play_with_slash(seat, env.suggestion(seat))  # a lead, then a follow
    seat = match.to_act
    user = env.seat_user(seat)
    handle = env.driver.autocomplete("shengji play", user, env.world.tables, "cards", {"cards": ""})
    await handle
    choices = handle.choices
    assert 1 <= len(choices) <= 25
    values = [choice["value"] for choice in choices]
    lead = match.trick[0][1]
    for choice in choices:
        try:
            check_follow(
                match.hands[seat], lead, parse_cards(choice["value"]), match.trump, match.rules
            )
        except IllegalPlay as err:  # pragma: no cover - the assertion below explains
            raise AssertionError(f"autocomplete offered an illegal play: {choice}: {err}") from None
    # what was typed narrows them, in any notation the command takes: 红桃A as AH
    card = next(c for ch in choices for c in parse_cards(ch["value"]) if c.suit != "J")
    word = {"S": "黑桃", "H": "红桃", "D": "方块", "C": "梅花"}[card.suit]
    offered: dict[str, list[str]] = {}
    for typed in (f"{word}{card.rank}", word):  # the card; its suit alone, still being typed
        handle = env.driver.autocomplete(
            "shengji play", user, env.world.tables, "cards", {"cards": typed}
        )
        await handle
        offered[typed] = [choice["value"] for choice in handle.choices]
    narrowed = offered[f"{word}{card.rank}"]
    assert narrowed and all(card in parse_cards(value) for value in narrowed)
    assert {v for v in values if card in parse_cards(v)} <= set(narrowed)
    assert offered[word] == values  # a word still being typed narrows nothing
    # another player gets nothing to choose from
    handle = env.driver.autocomplete(
        "shengji play", env.seat_user((seat + 1) % 4), env.world.tables, "cards", {"cards": ""}
    )
    await handle
    assert handle.choices == []


async def test_leaving_mid_trick_hands_the_seat_to_the_computer(shengji: Env) -> None:
    env = shengji
    await _started(env)
    match = env.match()
    seat = match.to_act
    await env.play_with_slash(seat, env.suggestion(seat))
    leaver = match.to_act
    seq = match.seq
    text = await env.reply(env.seat_user(leaver), "leave")
    assert "computer player plays your seat" in text
    await env.until(lambda: match.seq > seq)  # the computer played the leaver's turn
    played = [s for s, _ in match.trick] + [s for t in match.tricks for s, _ in t.plays]
    assert leaver in played
    assert env.table().seats[leaver].kind == "bot"


async def test_table_buttons_and_records_after_a_hand(shengji: Env) -> None:
    env = shengji
    await _started(env, humans=1)
    match = env.match()
    alice = env.users[0]
    for _ in range(400):
        if match.phase == Phase.SCORED:
            break
        kind, seat = match.expecting()
        if seat == 0 and kind == "play":
            await env.play_with_slash(0, env.suggestion(0))
        else:
            seq = match.seq
            await env.until(lambda s=seq: match.seq > s or match.phase == Phase.SCORED)
    assert match.phase == Phase.SCORED
    trick_message: Message = await env.until(
        lambda: next(
            (
                m
                for m in reversed(env.fake.channel_messages(env.place()))
                if any(c.endswith(":last") for c in m.custom_ids())
            ),
            None,
        )
    )
    tid = env.table().id
    handle = env.driver.click(trick_message, f"sj:t:{tid}:last", alice)
    await handle
    (last,) = await handle.wait_followups(1)
    assert last.ephemeral and last.attachments[0].image_size[0] == 800
    handle = env.driver.click(trick_message, f"sj:t:{tid}:rules", alice)
    await handle
    assert "Variants in effect" in (await handle.wait_message()).embeds[0]["description"]
    # the records: the hand is on the leaderboard, in the stats and in the history
    await env.until(
        lambda: any("is over" in m.content for m in env.fake.channel_messages(env.place()))
    )
    handle = await env.slash(alice, "leaderboard", metric="hands")
    board = (await handle.wait_message()).embeds[0]["description"]
    assert "Alice" in board and "1 hand" in board and "1 hands" not in board
    handle = await env.slash(alice, "stats")
    fields = {f["name"]: f["value"] for f in (await handle.wait_message()).embeds[0]["fields"]}
    assert fields["Hands"] == "1"
    handle = await env.slash(alice, "leaderboard", metric="rating")
    board = (await handle.wait_message()).embeds[0]["description"]
    assert "Alice" in board, "the rating board works from the first finished hand"
    handle = await env.slash(alice, "history")
    listing = (await handle.wait_message()).embeds[0]["description"]
    assert f"Table {tid}" in listing and "in progress" in listing
    (hand_id,) = await env.store.hands_of_table(tid)
    assert f"`{hand_id}`" in listing, "the history lists the hands with their ids"
    handle = await env.slash(alice, "history", hand_id=hand_id)
    first = await handle.wait_message()
    assert first.content.startswith(f"**Hand {hand_id}**")
    (grid,) = first.attachments  # the hand as an image too: the tricks in a grid
    assert grid.filename == f"hand-{hand_id}.png" and grid.image_size[0] == 800
    pages = [first.content] + [m.content for m in handle.followups]
    assert all(len(p) <= 2000 for p in pages)
    assert "Kitty:" in pages[-1] or await env.until(
        lambda: any("Kitty:" in m.content for m in handle.followups)
    )
    pages = [first.content] + [m.content for m in handle.followups]
    assert any("· levels (A/B): 2/2 → " in p for p in pages), "which level is whose"


async def test_no_assistance_at_a_tournament_table(shengji: Env) -> None:
    """Seed 000:29 不许查牌、不许提示: no hint, autocomplete only echoes, no Previous trick."""
    env = shengji
    match = await env.start_four(preset="tournament")
    assert match.rules.assistance == "none"
    await env.until(lambda: match.dealt == match.deal_total)
    while match.phase == Phase.DEAL:
        await env.tick(6)
    await env.until(lambda: match.phase != Phase.DEAL)
    seat = match.to_act
    assert seat is not None
    assert "off at this table" in await env.reply(env.seat_user(seat), "hint")
    handle = env.driver.autocomplete(
        "shengji play", env.seat_user(seat), env.world.tables, "cards", {"cards": "ah kh"}
    )
    await handle
    assert [c["value"] for c in handle.choices] == ["ah kh"], "the typed text, nothing listed"
    labels = [
        c.get("label")
        for m in env.place_messages()
        for row in m.components
        for c in row.get("components", [])
    ]
    assert "My hand" in labels and "Previous trick" not in labels
    panel = await env.fresh_panel(env.seat_user(seat), seat)
    ids = [c.get("custom_id", "") for row in panel.components for c in row.get("components", [])]
    assert ids and not any(i.endswith(":suggest") for i in ids), "no Suggest button"


def test_the_big_light_league_setting_is_checked() -> None:
    from bot.service import UserError
    from bot.store import GuildSettings
    from cogs.settings import _changed

    assert _changed(GuildSettings(), "big_light_league", "6").timers == {"big_light_league": 6}
    for bad in ("six", "0", "50"):
        try:
            _changed(GuildSettings(), "big_light_league", bad)
        except UserError as err:
            assert "big_light_league" in str(err)
        else:  # pragma: no cover - the assertion explains
            raise AssertionError(f"{bad!r} was accepted")
