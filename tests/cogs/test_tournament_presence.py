"""Issue 13: who counts as present in a tournament match, and who is replaced, through the fake.

"A player who is absent when the round starts, or leaves, is replaced by a computer
player after a grace period; the match is flagged." Present is what a player does at
the table (a play, 托管), not only the *I'm here* button; a player the turn timer has
played for through a whole grace period is gone too; a leaver keeps the seat on 托管
for the grace period, told to the tournament by the table service, not guessed from a
seat's name.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from typing import Any

import pytest

from bot.ai import suggest_cards
from bot.rules import format_cards
from bot.tournament.cup import Cup, Slot
from fakediscord.state import Channel, User

from .helpers import Env, restart
from .test_tournament_flow import click, message_with, place_of_user, play_until, small_cup


def slot_in(cup: Cup, place: Channel) -> Slot:
    return next(s for s in cup.slots.values() if s.place_id == place.id)


def flagged(cup: Cup, place: Channel, start: str) -> bool:
    return any(f.startswith(start) for f in slot_in(cup, place).tally.flags)


def seat_kind(env: Env, place: Channel, name: str) -> str:
    """Whether ``name``'s seat still holds them ("human") or a computer player ("bot")."""
    table = env.bot.service.tables[place.id]
    return next(s.kind for s in table.seats if s is not None and s.name.startswith(name))


async def test_players_who_play_are_present_and_a_quiet_one_is_replaced(shengji: Env) -> None:
    env = shengji
    alice, bob, carol, dave = env.users
    cup = await small_cup(env, round_minutes=60, grace_minutes=5)
    place = {user.id: place_of_user(env, user) for user in env.users}
    # nobody presses Alice's or Bob's button: Alice lets the computer play (托管), Bob
    # plays his first decision himself; Carol checks in and then does nothing; Dave
    # does nothing at all
    handle = env.driver.send_slash("shengji auto", alice, place[alice.id])
    await handle
    here = await env.until(lambda: message_with(env, place[carol.id], ":here"), timeout=30)
    assert "Checked in" in await click(env, here, f"sj:c:{cup.id}:here", carol)
    bobs = env.bot.service.tables[place[bob.id].id]
    seat = bobs.seat_of(bob.id)
    played = False
    # the grace period from the round's start, three seconds a step (the turn timer gives
    # Bob far longer to see his decision come)
    while not flagged(cup, place[dave.id], "Dave did not show up"):
        match = bobs.match
        if not played and match and match.expecting() in (("bury", seat), ("play", seat)):
            cards = format_cards(suggest_cards(match.view(seat)))
            seq = match.seq
            options = {"cards": cards}
            await env.driver.send_slash("shengji play", bob, place[bob.id], options)
            await env.until(lambda match=match, seq=seq: match.seq > seq)
            played = True
            continue
        await env.tick(3)
        await asyncio.sleep(0.02)
    assert played, "Bob's first decision came within the grace period"
    # the presence check has run: Alice, Bob (who played) and Carol keep their seats
    for user, name in ((alice, "Alice"), (bob, "Bob"), (carol, "Carol")):
        assert seat_kind(env, place[user.id], name) == "human", name
        flags = slot_in(cup, place[user.id]).tally.flags
        assert not [f for f in flags if not f.startswith("Dave ")], flags
    assert seat_kind(env, place[dave.id], "Dave") == "bot"
    assert carol.id in slot_in(cup, place[carol.id]).quiet  # the timer has played for her

    # the timer goes on taking Carol's decisions: after a grace period of that, a
    # computer player takes her seat and her match is flagged; 托管 is never quiet
    await play_until(env, lambda: flagged(cup, place[carol.id], "Carol stopped playing"))
    assert seat_kind(env, place[carol.id], "Carol") == "bot"
    assert seat_kind(env, place[alice.id], "Alice") == "human"
    assert carol.id not in slot_in(cup, place[carol.id]).quiet


async def _send(env: Env, command: str, user: User, place: Channel) -> str:
    handle = env.driver.send_slash(command, user, place)
    await handle
    return (await handle.wait_message()).content


async def test_a_leaver_keeps_the_seat_for_the_grace_period(shengji: Env) -> None:
    """A leaver's seat goes on 托管 for the grace period, not to a computer player at
    once: `/shengji auto` brings them back (Bob); a restart keeps the time waited; once
    it has passed, a computer player takes the seat and the match is flagged (Alice)."""
    env = shengji
    alice, bob = env.users[:2]  # partners: one match
    cup = await small_cup(env, round_minutes=60, grace_minutes=5)
    place = place_of_user(env, alice)
    for user in env.users:  # all present: the round's own check leaves them be
        theirs = place_of_user(env, user)
        here = await env.until(lambda p=theirs: message_with(env, p, ":here"), timeout=30)
        assert "Checked in" in await click(env, here, f"sj:c:{cup.id}:here", user)
        if user not in (alice, bob):  # Carol and Dave on 托管, never quiet (the draw may
            await _send(env, "shengji auto", user, theirs)  # seat them at Alice's table)
    await env.tick(60)
    left_at = env.clock.now()
    told = await _send(env, "shengji leave", alice, place)
    assert "within 5 minutes with `/shengji auto`" in told, told
    table = env.bot.service.tables[place.id]
    seat = table.seat_of(alice.id)
    assert seat is not None and table.seats[seat] == replace(table.seats[seat], auto=True)
    slot = slot_in(cup, place)
    assert slot.away == {alice.id: left_at} and slot.tally.flags == []
    stored = await env.store.tournament(cup.id)  # saved with the tournament
    assert stored is not None
    saved = next(s for s in stored.state["slots"].values() if s["place_id"] == place.id)
    assert saved["away"] == {str(alice.id): left_at}
    # Bob leaves too, and comes back by switching 托管 off (then on again: 托管 is his
    # own choice, never absence)
    await _send(env, "shengji leave", bob, place)
    assert bob.id in slot.away
    assert "托管 off" in await _send(env, "shengji auto", bob, place)
    assert bob.id not in slot.away and "托管 on" in await _send(env, "shengji auto", bob, place)
    # three minutes later the bot restarts; Alice's seat is still hers
    await play_until(env, lambda: env.clock.now() >= left_at + 180)
    assert seat_kind(env, place, "Alice") == "human"
    running = await restart(env)
    try:
        again = env.bot.tournaments.cup_in(env.world.tables.id)
        slot = slot_in(again, place)
        assert slot.away == {alice.id: left_at}
        # the grace counts from her leaving, not from the restart (that would be 480 s)
        await play_until(env, lambda: env.clock.now() >= left_at + 290)
        assert seat_kind(env, place, "Alice") == "human", "not before the grace is over"
        await play_until(env, lambda: flagged(again, place, "Alice left"))
        assert env.clock.now() < left_at + 480
        assert seat_kind(env, place, "Alice") == "bot" and slot.away == {}
        assert slot.tally.flags == ["Alice left: replaced by a computer player"]
        assert seat_kind(env, place, "Bob") == "human"
    finally:
        await running.stop()


async def test_a_leaver_whose_match_ends_within_the_grace_is_flagged(shengji: Env) -> None:
    """The round's time runs out while Alice's seat is on 托管 for her grace period: the
    computer played her part to the end, and the match's result says she left."""
    env = shengji
    alice = env.users[0]
    cup = await small_cup(env, round_minutes=1, grace_minutes=5)
    place = place_of_user(env, alice)
    for user in env.users:  # all on 托管: the hands play themselves
        await _send(env, "shengji auto", user, place_of_user(env, user))
    await _send(env, "shengji leave", alice, place)
    slot = slot_in(cup, place)
    assert alice.id in slot.away
    clock = cup.clock
    assert clock is not None
    await play_until(env, lambda: clock.remaining(env.clock.now()) <= 0)
    await play_until(env, lambda: slot.done, patient=True)  # the hand in play ends the match
    assert slot.tally.flags == ["Alice left: on auto-play (托管) until the match ended"]
    assert slot.away == {}  # her seat was never taken from her: the grace had not run out


async def test_a_seat_taken_by_a_computer_while_the_check_replaces_another_is_passed_over(
    shengji: Env, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The grace period's check replaces a match's absent players one by one, each
    waiting for the table; meanwhile another of them may have been replaced already
    (a leaver whose grace ran out at the same moment). The check met that seat with an
    assertion, and its task died with the rest of the round unchecked (found by the
    monkey)."""
    env = shengji
    cup = await small_cup(env, round_minutes=60, grace_minutes=1)
    service = env.bot.service
    real = service.seat_computer
    raced: list[int] = []

    async def with_a_race(channel_id: int, seat: int, still: Any = None) -> Any:
        if not raced:  # the first replacement: another task takes the next human seat first
            table = service.tables[channel_id]
            other = next(s for s in table.humans if s != seat)
            raced.append(other)
            await real(channel_id, other)
        return await real(channel_id, seat, still)

    monkeypatch.setattr(service, "seat_computer", with_a_race)

    def shown() -> int:
        return sum("did not show up" in f for s in cup.slots.values() for f in s.tally.flags)

    await play_until(env, lambda: shown() == 3, budget=40)  # all four but the one taken in the race
    assert raced
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
