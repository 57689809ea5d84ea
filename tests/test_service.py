"""The table service without Discord: a real store in a temp folder, a manual clock.

The sink records every update, so the tests see exactly what the presenter would
be asked to show, and the manual clock makes timers, warnings and timeouts
deterministic.
"""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path

import pytest

from bot.clock import ManualClock
from bot.game import Event, Match, Phase, Play, fallback_action
from bot.rules import RuleSet
from bot.service import (
    AbortOutcome,
    CloseReason,
    LeaveOutcome,
    SeatSignal,
    Table,
    TableService,
    Update,
    UpdateKind,
    UserError,
)
from bot.store import GuildSettings, SeatInfo, Store

FAST = {
    "bid_window": 2.0,
    "deal_pace": 0.0,
    "deal_round": 100,
    "bot_delay": 0.0,
    "next_hand": 1.0,
    "warn_before": 5.0,
}
GUILD, CHANNEL, OTHER = 1, 10, 11
ALICE, BOB, CAROL, DAVE = 101, 102, 103, 104


class Recorder:
    def __init__(self) -> None:
        self.updates: list[tuple[int, Update]] = []

    async def publish(self, table: Table, update: Update) -> None:
        self.updates.append((table.id, update))

    def kinds(self) -> list[str]:
        return [e.kind for _, u in self.updates for e in u.events]


async def settle(clock: ManualClock, rounds: int = 30) -> None:
    for _ in range(rounds):
        await clock.advance(0)


async def run_until(clock: ManualClock, done, steps: int = 400, step: float = 0.5) -> None:
    """Let time pass ``step`` seconds at a time until ``done()`` holds; past ``steps`` it
    goes on with a pause of real time at each step (a busy machine's store thread may
    need more than a few turns of the loop for a write), and fails after a minute of that."""
    for _ in range(steps):
        if done():
            return
        await clock.advance(step)
        await settle(clock, 5)
    give_up = time.monotonic() + 60
    while not done():
        assert time.monotonic() < give_up, "run_until: never done"
        await clock.advance(step)
        await settle(clock, 5)
        await asyncio.sleep(0.01)


async def caught_up(clock: ManualClock, store: Store, table: Table) -> None:
    """Wait (in real time, the clock standing still) until every accepted action is
    stored and announced. An action holds the table's lock from its acceptance through
    its writes (the log, a hand's record, a snapshot; the store writes in its own
    thread, which a busy machine may not finish within a few turns of the event loop)
    to its update, which the publisher then takes from the outbox: so the log alone is
    not enough. The bound only turns a service that never catches up into a failure
    that says so."""
    give_up = time.monotonic() + 60

    async def done() -> bool:
        assert table.match is not None
        if table.lock.locked() or not table.outbox.empty():
            return False
        return len(await store.action_log(table.id)) == table.match.seq

    await settle(clock)
    while not await done():
        assert time.monotonic() < give_up, f"not caught up at seq {table.match.seq}"
        await settle(clock)
        await asyncio.sleep(0.01)


@pytest.fixture
async def env(tmp_path: Path):
    store = await Store.open(tmp_path / "db.sqlite3")
    await store.save_guild_settings(GUILD, GuildSettings(RuleSet(), dict(FAST)))
    clock = ManualClock()
    sink = Recorder()
    service = TableService(store, sink, clock, seed_source=lambda: 42)
    yield service, store, clock, sink
    await service.shutdown()
    await store.close()


async def _full_table(service: TableService, humans: int = 1) -> Table:
    table = await service.new_table(GUILD, CHANNEL, ALICE, "Alice")
    for uid, name in [(BOB, "Bob"), (CAROL, "Carol"), (DAVE, "Dave")][: humans - 1]:
        await service.join(CHANNEL, uid, name)
    while None in table.seats:
        await service.add_bot(CHANNEL)
    return table


async def test_lobby_rules(env) -> None:
    service, store, _clock, _sink = env
    table = await service.new_table(GUILD, CHANNEL, ALICE, "Alice")
    with pytest.raises(UserError, match="already has a table"):
        await service.new_table(GUILD, CHANNEL, BOB, "Bob")
    with pytest.raises(UserError, match="already sit"):
        await service.join(CHANNEL, ALICE, "Alice")
    with pytest.raises(UserError, match="taken by Alice"):
        await service.join(CHANNEL, BOB, "Bob", seat=0)
    with pytest.raises(UserError, match="Four players are needed"):
        await service.start(CHANNEL, ALICE)
    assert await service.join(CHANNEL, BOB, "Bob", seat=2) == 2
    with pytest.raises(UserError, match="Only the host"):
        await service.kick(CHANNEL, BOB, 0, is_admin=False)
    await service.kick(CHANNEL, ALICE, 2, is_admin=False)
    assert table.seats[2] is None
    with pytest.raises(UserError, match="no table"):
        await service.join(OTHER, BOB, "Bob")
    live = await store.live_tables()
    assert [t.table_id for t in live] == [table.id]
    assert live[0].seats[0].user_id == ALICE and live[0].seats[1] is None


async def test_only_the_seated_player_whose_turn_it_is_can_act(env) -> None:
    service, _store, clock, _sink = env
    table = await _full_table(service, humans=2)
    await service.start(CHANNEL, ALICE)
    await settle(clock)
    match = table.match
    assert match is not None
    with pytest.raises(UserError, match="not seated"):
        await service.act(CHANNEL, 999, Play(()))
    # get to Alice's or Bob's decision, whichever comes first
    for _ in range(200):
        kind, actor = match.expecting()
        if kind in ("bury", "play") and actor in (0, 1):
            break
        await clock.advance(1)
        await settle(clock)
    kind, actor = match.expecting()
    other = BOB if actor == 0 else ALICE
    before = match.to_dict()
    with pytest.raises(UserError, match="not your turn"):
        await service.act(CHANNEL, other, fallback_action(match.view(actor)))
    assert match.to_dict() == before


async def test_timeout_warns_then_plays_for_the_player_and_records_it(env) -> None:
    service, store, clock, sink = env
    table = await _full_table(service, humans=1)
    await service.start(CHANNEL, ALICE)
    match = table.match
    assert match is not None
    await run_until(
        clock, lambda: match.expecting()[0] in ("bury", "play") and match.expecting()[1] == 0
    )
    await caught_up(clock, store, table)  # the timer starts once the last action is stored
    kind, actor = match.expecting()
    assert actor == 0
    seq = match.seq
    limit = table.rules.kitty_seconds if kind == "bury" else table.rules.play_seconds
    await clock.advance(limit - 6)
    await settle(clock)
    assert match.seq == seq and not any(u.kind == "warning" for _, u in sink.updates)
    await clock.advance(2)
    await settle(clock)
    warnings = [u for _, u in sink.updates if u.kind == "warning" and u.actor == 0]
    assert [u.seconds for u in warnings] == [5]  # ``warn_before``, said as a number
    assert match.seq == seq
    await clock.advance(5)
    await caught_up(clock, store, table)
    assert match.seq > seq
    auto = [u for _, u in sink.updates if u.kind == "events" and u.actor == 0 and u.auto]
    assert auto, "the timed-out action is announced as played by the computer"
    log = await store.action_log(table.id)
    assert len(log) == match.seq


async def test_a_whole_hand_with_one_human_on_autoplay(env) -> None:
    service, store, clock, sink = env
    table = await _full_table(service, humans=1)
    await service.set_auto(CHANNEL, ALICE, True)
    await service.start(CHANNEL, ALICE)
    match = table.match
    assert match is not None
    for _ in range(2000):
        await clock.advance(0.5)
        await settle(clock, 5)
        if match.hand_no >= 1:
            break
    assert match.hand_no >= 1, f"stuck in {match.phase}"
    await caught_up(clock, store, table)  # let the publisher hand the last updates over
    kinds = sink.kinds()
    for kind in (
        "match_started",
        "deal_progress",
        "trump",
        "buried",
        "played",
        "trick",
        "hand_scored",
        "hand_started",
    ):
        assert kind in kinds
    stats = await store.player_stats(GUILD, ALICE)
    assert stats is not None and stats.hands == 1


async def alice_to_play(path: Path, clock: ManualClock) -> tuple[Store, TableService, Table]:
    """A table of Alice and three computers, its first hand under way, Alice to play."""
    store = await Store.open(path)
    await store.save_guild_settings(GUILD, GuildSettings(RuleSet(), dict(FAST)))
    service = TableService(store, Recorder(), clock, seed_source=lambda: 7)
    table = await _full_table(service, humans=1)
    await service.start(CHANNEL, ALICE)
    match = table.match
    assert match is not None
    await run_until(clock, lambda: match.expecting() == ("play", 0))
    return store, service, table


async def test_restart_restores_tables_and_their_timers(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    clock = ManualClock()
    store, service, table = await alice_to_play(path, clock)
    match = table.match
    assert match is not None
    assert match.expecting() == ("play", 0)
    await service.shutdown()  # the last action is committed and its time recorded
    state = match.to_dict()
    deadline = service.deadline(table)
    await store.close()

    # a new process: same database, time has moved on a little
    await clock.advance(3)
    store2 = await Store.open(path)
    service2 = TableService(store2, Recorder(), clock)
    assert await service2.restore_all() == 1
    restored = service2.tables[CHANNEL]
    assert restored.match is not None and restored.match.to_dict() == state
    assert service2.deadline(restored) == deadline, "the timer resumes where it was"
    # the human still plays, and the game goes on
    view = restored.match.view(0)
    await service2.act(CHANNEL, ALICE, fallback_action(view))
    assert restored.match.seq == state["seq"] + 1
    await service2.shutdown()
    await store2.close()


async def test_a_match_won_just_before_a_stop_is_recorded_won_at_the_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot stopped after the last hand's record, during the match's: restored, the
    table closed as finished without a winner, the win counted for no one (``/shengji
    history`` said "ended early"); only a stop before the hand's record was made good."""
    new = Match.new
    monkeypatch.setattr(  # a short match: both teams at K
        Match,
        "new",
        lambda seed, rules=None, **kw: new(seed, rules, **{**kw, "levels": ("K", "K")}),
    )
    path = tmp_path / "db.sqlite3"
    store = await Store.open(path)
    await store.save_guild_settings(GUILD, GuildSettings(RuleSet(), dict(FAST)))
    clock = ManualClock()
    service = TableService(store, Recorder(), clock, seed_source=lambda: 42)
    stopped = asyncio.Event()

    async def stops_here(*args: object) -> None:  # the process ends within this write
        stopped.set()
        await asyncio.Event().wait()

    monkeypatch.setattr(store, "record_match_end", stops_here)
    table = await _full_table(service, humans=1)
    await service.set_auto(CHANNEL, ALICE, True)
    await service.start(CHANNEL, ALICE)
    await run_until(clock, stopped.is_set, steps=2000)
    assert table.match is not None and table.match.winner_team is not None
    won = table.match.winner_team
    store2 = await Store.open(path)
    service2 = TableService(store2, Recorder(), clock)
    try:
        await service2.restore_all()
        await run_until(clock, lambda: CHANNEL not in service2.tables)
        (summary,) = await store2.recent_matches(GUILD)
        stats = await store2.player_stats(GUILD, ALICE)
        assert summary.status == "finished" and summary.winner_team == won
        assert stats is not None and stats.matches == 1 and stats.wins == int(won == 0)
    finally:
        await service2.shutdown()
        await store2.close()
        await service.shutdown(flush_seconds=0.1)
        await store.close()


async def test_a_table_opened_as_the_service_shuts_down_is_saved_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """SIGTERM while a /new is writing its table: the shutdown waits for the opening,
    which is saved whole (its meta too) and comes back after the restart, rather than
    meeting the store closed halfway (an ERROR, a row without its meta)."""
    path = tmp_path / "db.sqlite3"
    store = await Store.open(path)
    await store.save_guild_settings(GUILD, GuildSettings(RuleSet(), dict(FAST)))
    service = TableService(store, Recorder(), ManualClock(), seed_source=lambda: 7)
    gate = asyncio.Event()
    real = type(store).create_table

    async def held(self: Store, *args: object, **kwargs: object) -> int:
        await gate.wait()
        return await real(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(type(store), "create_table", held)
    opening = asyncio.create_task(service.new_table(GUILD, CHANNEL, ALICE, "Alice"))
    while not service._opening:
        await asyncio.sleep(0)
    stopping = asyncio.create_task(service.shutdown())
    await asyncio.sleep(0.05)
    gate.set()
    await stopping
    await store.close()  # as the bot does once its service has stopped
    table = await opening
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    store2 = await Store.open(path)
    (live,) = await store2.live_tables()
    assert live.table_id == table.id and live.meta["timers"]["bid_window"] == FAST["bid_window"]
    await store2.close()


async def test_a_table_fenced_out_while_the_shutdown_waits_for_its_lock(tmp_path: Path) -> None:
    """A shutdown waits for a close under way (``Table.close_queued``); a table whose
    lease was lost is closed too, by no close, and the shutdown waited its whole flush
    time for it, cutting short the last tries at the closings the store had refused (a
    helper's review)."""
    store = await Store.open(tmp_path / "db.sqlite3")
    service = TableService(store, Recorder(), ManualClock())
    table = await service.new_table(GUILD, CHANNEL, ALICE, "Alice")
    async with table.lock:  # an action in flight
        stopping = asyncio.create_task(service.shutdown(flush_seconds=3600))
        await asyncio.sleep(0.01)
        service._fenced_out(table.id)  # its write met a lost lease
    async with asyncio.timeout(30):
        await stopping
    await store.close()


@pytest.mark.parametrize("posting", [0.05, 60.0], ids=["within-the-flush", "past-it"])
async def test_a_closed_tables_last_messages_end_with_the_shutdown(
    tmp_path: Path, posting: float
) -> None:
    """A table closed just before a stop still had its last messages on their way (its
    publisher drains its queue after the close). The shutdown did not know it, so it
    posted through the client and the store already closed, an ERROR each (found by
    the monkey). It is now waited for with the live tables' messages, and stopped once
    their time is up."""
    store = await Store.open(tmp_path / "db.sqlite3")
    await store.save_guild_settings(GUILD, GuildSettings(RuleSet(), dict(FAST)))
    stopped = asyncio.Event()
    published: list[UpdateKind] = []

    class SlowDiscord(Recorder):
        async def publish(self, table: Table, update: Update) -> None:
            if update.kind is UpdateKind.CLOSED:
                await asyncio.sleep(posting)  # Discord slow to take the closing message
                assert not stopped.is_set(), "posted after the shutdown"
            published.append(update.kind)

    service = TableService(store, SlowDiscord(), ManualClock(), seed_source=lambda: 7)
    await service.new_table(GUILD, CHANNEL, ALICE, "Alice")
    assert (await service.abort(CHANNEL, ALICE, is_admin=True)).aborted
    await service.shutdown(flush_seconds=0.5)
    stopped.set()
    await asyncio.sleep(0.1)
    assert (UpdateKind.CLOSED in published) == (posting < 0.5)
    assert not [t for t in asyncio.all_tasks() if t.get_name().startswith("publisher")]
    await store.close()


# the hand messages posted, in turn (hands counted back from the current one, which
# message, its id): what the table then keeps, what a restarted presenter would edit
# (the current hand's only), and whether it took a store write
POSTED = [
    ((-1, "deal", 501), {"hand": -1, "deal": 501}, {}, True),
    ((-1, "deal", 501), {"hand": -1, "deal": 501}, {}, False),  # the same id: no write
    ((-1, "table", 502), {"hand": -1, "deal": 501, "table": 502}, {}, True),
    ((0, "deal", 503), {"hand": 0, "deal": 503}, {"deal": 503}, True),  # the last's go
    ((-1, "table", 504), {"hand": 0, "deal": 503}, {"deal": 503}, False),  # late, stale
    ((0, "table", 505), {"hand": 0, "deal": 503, "table": 505}, {"deal": 503, "table": 505}, True),
    ((0, "deal", 506), {"hand": 0, "deal": 506, "table": 505}, {"deal": 506, "table": 505}, True),
]


def _meta_writes(store: Store, monkeypatch: pytest.MonkeyPatch) -> list[dict]:
    """The table metas the store is asked to write from now on."""
    writes: list[dict] = []
    real = store.set_table_meta

    async def counted(table_id: int, meta: dict) -> None:
        writes.append(meta)
        await real(table_id, meta)

    monkeypatch.setattr(store, "set_table_meta", counted)
    return writes


async def test_a_hands_messages_are_kept_with_the_table_one_write_each(
    env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A restarted bot edits the current hand's deal and table messages
    (``remember_hand_message``): one write a message, a new hand's replacing the last's,
    an earlier hand's never kept over a later one's, nor edited."""
    service, store, _clock, _sink = env
    table = await _full_table(service, humans=1)
    await service.start(CHANNEL, ALICE)
    assert table.match is not None
    hand = table.match.hand_no
    writes = _meta_writes(store, monkeypatch)
    for (back, kind, message_id), kept, edited, written in POSTED:
        before = len(writes)
        await service.remember_hand_message(table, hand + back, kind, message_id)
        assert table.meta["hand_messages"] == {**kept, "hand": hand + kept["hand"]}
        assert service.hand_messages(table) == edited
        assert len(writes) == before + written
    [live] = await store.live_tables()
    assert live.meta["hand_messages"] == table.meta["hand_messages"]
    assert live.meta["started"], "the rest of the meta is kept"


async def test_a_players_panel_is_kept_with_the_table_while_they_sit_there(
    env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``remember_panel``: one write a seat (none for the same id again), read back by a
    restarted bot; a leaver's panel, their seat now a computer player's, is not edited."""
    service, store, _clock, _sink = env
    table = await _full_table(service, humans=2)
    await service.start(CHANNEL, ALICE)
    writes = _meta_writes(store, monkeypatch)
    await service.remember_panel(table, 0, ALICE, 900)
    await service.remember_panel(table, 1, BOB, 901)
    await service.remember_panel(table, 0, ALICE, 900)  # the same: no write
    assert len(writes) == 2
    assert service.panel_messages(table) == {0: (ALICE, 900), 1: (BOB, 901)}
    [live] = await store.live_tables()
    assert live.meta["panels"] == {"0": [ALICE, 900], "1": [BOB, 901]}
    await service.leave(CHANNEL, BOB)
    assert service.panel_messages(table) == {0: (ALICE, 900)}


async def test_restart_after_long_downtime_gives_a_grace_period(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    store = await Store.open(path)
    await store.save_guild_settings(GUILD, GuildSettings(RuleSet(), dict(FAST)))
    clock = ManualClock()
    service = TableService(store, Recorder(), clock, seed_source=lambda: 9)
    table = await _full_table(service, humans=1)
    await service.start(CHANNEL, ALICE)
    await run_until(clock, lambda: table.match is not None and table.match.expecting()[1] == 0)
    await service.shutdown()
    await store.close()
    await clock.advance(3600)
    store2 = await Store.open(path)
    service2 = TableService(store2, Recorder(), clock)
    await service2.restore_all()
    restored = service2.tables[CHANNEL]
    deadline = service2.deadline(restored)
    assert deadline is not None and deadline >= clock.now() + 10
    await service2.shutdown()
    await store2.close()


async def test_two_tables_do_not_disturb_each_other(env) -> None:
    service, store, clock, _sink = env
    first = await _full_table(service, humans=1)
    second = await service.new_table(GUILD, OTHER, BOB, "Bob")
    for _ in range(3):
        await service.add_bot(OTHER)
    await service.set_auto(CHANNEL, ALICE, True)
    await service.set_auto(OTHER, BOB, True)
    await service.start(CHANNEL, ALICE)
    await service.start(OTHER, BOB)
    await service.channel_gone(OTHER)  # one table breaks
    assert second.closed and CHANNEL in service.tables
    for _ in range(300):
        await clock.advance(0.5)
        await settle(clock, 5)
    assert first.match is not None and first.match.phase in (
        Phase.DEAL,
        Phase.KITTY,
        Phase.PLAY,
        Phase.SCORED,
    )
    assert first.match.seq > 10
    live = [t.table_id for t in await store.live_tables()]
    assert live == [first.id]


async def test_a_lost_place_heard_late_closes_only_the_table_it_was_heard_for(env) -> None:
    """A failure heard about a table's place after it closed (a task under way, a look-up)
    leaves the next table in its channel open."""
    service, _store, _clock, _sink = env
    old = await service.new_table(GUILD, CHANNEL, ALICE, "Alice")
    await service.abort(CHANNEL, ALICE, True)
    new = await service.new_table(GUILD, CHANNEL, BOB, "Bob")
    await service.channel_gone(CHANNEL, old)
    assert old.closed and not new.closed and service.tables[CHANNEL] is new
    await service.channel_gone(CHANNEL, new)
    assert new.closed and CHANNEL not in service.tables


@pytest.mark.parametrize(
    "command",
    [
        lambda s: s.join(CHANNEL, BOB, "Bob"),
        lambda s: s.add_bot(CHANNEL),
        lambda s: s.leave(CHANNEL, ALICE),
        lambda s: s.set_auto(CHANNEL, ALICE, True),
        lambda s: s.start(CHANNEL, ALICE),
        lambda s: s.abort(CHANNEL, ALICE, True),
    ],
    ids=["join", "add_bot", "leave", "auto", "start", "abort"],
)
async def test_a_command_that_waited_for_a_table_closing_meanwhile_is_refused(env, command) -> None:
    """It found the table open, waited for its lock (a write of another command's), and
    the table closed meanwhile (its channel gone): the command says the table is closed,
    and changes nothing, rather than seat someone at a closed table."""
    service, _store, _clock, _sink = env
    table = await service.new_table(GUILD, CHANNEL, ALICE, "Alice")
    for _ in range(3):
        await service.add_bot(CHANNEL)
    seats = list(table.seats)
    async with table.lock:
        waiting = asyncio.create_task(command(service))
        await asyncio.sleep(0.01)  # it waits for the lock
        await service.channel_gone(CHANNEL, table)
    with pytest.raises(UserError, match="closed"):
        await waiting
    assert table.seats == seats and table.match is None


async def test_leaving_mid_match_hands_the_seat_to_a_computer(env) -> None:
    service, store, _clock, _sink = env
    table = await _full_table(service, humans=2)
    await service.start(CHANNEL, ALICE)
    assert await service.leave(CHANNEL, BOB) is LeaveOutcome.REPLACED
    assert table.seats[1] is not None and table.seats[1].kind == "bot"
    assert "Bob" in table.seats[1].name
    assert await service.leave(CHANNEL, ALICE) is LeaveOutcome.CLOSED
    assert table.closed
    assert await store.live_tables() == []


async def test_a_table_that_keeps_seats_puts_a_leaver_on_autoplay(env) -> None:
    """``meta["leave_grace"]`` (a tournament's match): the leaver stays seated on 托管,
    the hooks hear AWAY and decide; toggling 托管 off is theirs again (ACTED)."""
    service, store, _clock, _sink = env
    hook = SeatHook()
    service.hooks.append(hook)
    table = await _full_table(service, humans=2)
    table.meta["leave_grace"] = 300.0
    await service.start(CHANNEL, ALICE)
    assert await service.leave(CHANNEL, BOB) is LeaveOutcome.AWAY
    assert table.seats[1] == SeatInfo("human", BOB, "Bob", None, True)
    (stored,) = await store.live_tables()
    assert stored.seats[1] == table.seats[1]  # in the seat's write
    assert await service.set_auto(CHANNEL, BOB) is False  # back
    assert hook.heard == [(1, SeatSignal.AWAY, BOB), (1, SeatSignal.ACTED, BOB)]


@pytest.mark.parametrize(
    ("locale", "bots", "stand_in"),
    [
        (None, ["Bot Ana", "Bot Bai"], "Bob (bot)"),
        ("zh-CN", ["电脑甲", "电脑乙"], "Bob（托管）"),  # a Chinese table names them in Chinese
    ],
)
async def test_computer_players_are_named_in_the_tables_language(
    env, locale: str | None, bots: list[str], stand_in: str
) -> None:
    service, store, _clock, _sink = env
    table = await service.new_table(GUILD, CHANNEL, ALICE, "Alice", locale=locale)
    await service.join(CHANNEL, BOB, "Bob")
    await service.add_bot(CHANNEL)
    await service.add_bot(CHANNEL)
    await service.start(CHANNEL, ALICE)
    await service.leave(CHANNEL, BOB)
    assert [s.name for s in table.seats if s] == ["Alice", stand_in, *bots]
    (stored,) = await store.live_tables()
    assert [s.name for s in stored.seats if s] == ["Alice", stand_in, *bots]  # kept as named


class SeatHook:
    """A feature listening to the table (as tournaments do): what it hears of people."""

    def __init__(self) -> None:
        self.heard: list[tuple[int, SeatSignal, int | None]] = []

    async def on_events(self, table: Table, events: list[Event]) -> None:
        pass

    async def on_seat(self, table: Table, seat: int, signal: SeatSignal, player: SeatInfo) -> None:
        self.heard.append((seat, signal, player.user_id))

    def may_deal(self, table: Table) -> bool:
        return True


async def test_hooks_hear_who_acted_who_timed_out_and_who_left(env) -> None:
    """A person's own decision, 托管 switched, a decision the timer took, a leaver: each
    told as such, never a computer player's move (the seat's name plays no part)."""
    service, store, clock, _sink = env
    hook = SeatHook()
    service.hooks.append(hook)
    table = await _full_table(service, humans=2)  # Alice seat 0, Bob seat 1, two computers
    await service.start(CHANNEL, ALICE)
    match = table.match
    assert match is not None

    def alices_turn() -> bool:
        return match.expecting()[0] in ("bury", "play") and match.expecting()[1] == 0

    await run_until(clock, alices_turn)
    await service.act(CHANNEL, ALICE, fallback_action(match.view(0)))
    await service.set_auto(CHANNEL, BOB, True)  # from now on the computer plays for Bob
    await run_until(clock, alices_turn)
    await caught_up(clock, store, table)
    seq = match.seq
    await run_until(clock, lambda: match.seq > seq)  # her time runs out
    await caught_up(clock, store, table)
    assert await service.leave(CHANNEL, BOB) is LeaveOutcome.REPLACED
    assert hook.heard == [
        (0, SeatSignal.ACTED, ALICE),
        (1, SeatSignal.ACTED, BOB),
        (0, SeatSignal.TIMED_OUT, ALICE),
        (1, SeatSignal.LEFT, BOB),
    ]


async def test_abort_by_vote(env) -> None:
    service, _store, _clock, _sink = env
    table = await _full_table(service, humans=3)
    assert await service.abort(CHANNEL, BOB, is_admin=False) == AbortOutcome(False, 1, 2)
    assert not table.closed
    assert await service.abort(CHANNEL, CAROL, is_admin=False) == AbortOutcome(aborted=True)
    assert table.closed


class NoNewHand:
    """A tournament round whose time is up: the hand being played is the last."""

    async def on_events(self, table: Table, events: list[Event]) -> None:
        return None

    def may_deal(self, table: Table) -> bool:
        return False


async def _time_up(service: TableService, clock: ManualClock, table: Table) -> None:
    service.hooks.append(NoNewHand())
    await service.set_auto(CHANNEL, ALICE, True)
    await service.start(CHANNEL, ALICE)
    for _ in range(2000):
        if table.closed:
            return
        await clock.advance(0.5)
        await settle(clock, 5)


CLOSINGS = {
    "aborted": (lambda s, c, t: s.abort(CHANNEL, ALICE, is_admin=False), CloseReason.ABORTED),
    "everyone left": (lambda s, c, t: s.leave(CHANNEL, ALICE), CloseReason.EVERYONE_LEFT),
    "channel gone": (lambda s, c, t: s.channel_gone(CHANNEL), CloseReason.CHANNEL_GONE),
    "time up": (_time_up, CloseReason.TIME_UP),
}


@pytest.mark.parametrize("how", CLOSINGS)
async def test_a_closing_says_why_and_only_a_played_out_one_is_recorded_finished(
    env, how: str
) -> None:
    """The presenter words a closing from its reason alone (``cogs.presenter.CLOSED_KEYS``):
    a round whose time ran out is not "the match is over", yet counts as finished."""
    service, store, clock, sink = env
    close, reason = CLOSINGS[how]
    table = await _full_table(service, humans=1)
    await close(service, clock, table)
    give_up = time.monotonic() + 60  # the closing is recorded (the store's thread) first
    while not any(u.kind is UpdateKind.CLOSED for _, u in sink.updates):
        assert time.monotonic() < give_up, "no closing announced"
        await settle(clock)
        await asyncio.sleep(0.01)
    assert table.closed
    assert [u.reason for _, u in sink.updates if u.kind is UpdateKind.CLOSED] == [reason]
    (recorded,) = await store.recent_matches(GUILD)
    assert recorded.status == ("finished" if reason is CloseReason.TIME_UP else "aborted")


async def test_the_thread_kept_while_the_host_starts_is_not_written_away(env) -> None:
    """Two meta changes at once (the presenter keeping the thread it opened, the host
    pressing Start) each keep the other's: in memory and in the store."""
    service, store, clock, _sink = env
    table = await _full_table(service, humans=1)
    real, gate = store.set_table_meta, asyncio.Event()

    async def slow_first(table_id: int, meta: dict) -> None:
        if "thread_id" in meta:  # the thread's write is held up in the store
            await gate.wait()
        await real(table_id, meta)

    store.set_table_meta = slow_first  # type: ignore[method-assign]
    keeping = asyncio.create_task(service.remember_place(table, 777, 555))
    await settle(clock)
    starting = asyncio.create_task(service.start(CHANNEL, ALICE))
    await settle(clock)
    gate.set()
    await asyncio.gather(keeping, starting)
    assert table.meta["thread_id"] == 777 and table.meta["started"] is True
    (live,) = await store.live_tables(table_id=table.id)
    assert live.meta["thread_id"] == 777 and live.meta["started"] is True


async def test_a_computer_takes_a_seat_only_if_its_reason_still_holds(env) -> None:
    """A tournament replacing an absent or quiet player waits for the table; if the
    player's own move, holding the table meanwhile, ended the reason, they stay."""
    service, _store, clock, _sink = env
    table = await _full_table(service, humans=2)
    bob = table.seat_of(BOB)
    assert bob is not None
    await service.start(CHANNEL, ALICE)
    absent = [True]
    async with table.lock:  # Bob's own move holds the table
        replacing = asyncio.create_task(service.seat_computer(CHANNEL, bob, lambda: absent[0]))
        await settle(clock)
        absent[0] = False  # ... and showed he is there
    with pytest.raises(UserError):
        await replacing
    seat = table.seats[bob]
    assert seat is not None and seat.kind == "human" and seat.user_id == BOB


async def test_concurrent_clicks_apply_once(env) -> None:
    service, _store, clock, _sink = env
    table = await _full_table(service, humans=1)
    await service.start(CHANNEL, ALICE)
    match = table.match
    assert match is not None
    await run_until(clock, lambda: match.expecting() == ("play", 0))
    action = fallback_action(match.view(0))
    results = await asyncio.gather(
        service.act(CHANNEL, ALICE, action),
        service.act(CHANNEL, ALICE, action),
        return_exceptions=True,
    )
    assert sum(isinstance(r, list) for r in results) == 1
    assert sum(isinstance(r, UserError) for r in results) == 1


async def test_a_table_keeps_the_servers_big_light_league_points(env) -> None:
    """Seed 001:174 特殊房间配置: the server's 大光 points (and the expert's thinking
    time) travel with each new table, a tournament's matches included."""
    service, store, _clock, _sink = env
    await store.save_guild_settings(
        GUILD, GuildSettings(RuleSet(), {**FAST, "big_light_league": 6, "think_ms": 80})
    )
    table = await _full_table(service)
    seats = [SeatInfo.bot(f"Bot {i}") for i in range(4)]
    match = await service.open_match(GUILD, OTHER, ALICE, RuleSet(), seats, {"tournament": 1})
    for opened in (table, match):
        assert (opened.meta["big_light_league"], opened.meta["think_ms"]) == (6, 80)
