"""The presenter under load: the player to act first, no picture drawn or sent twice."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import threading
import time
import weakref
from types import SimpleNamespace
from typing import Any, cast

import pytest

from bot.game import SYSTEM, Deal, Match, Phase
from bot.rules import RuleSet
from bot.service import Table
from cogs.live import LiveMessage
from cogs.panels import ImageMemo, build_panel
from cogs.renderqueue import RenderQueue

from .helpers import Env
from .test_table_flow import _open_full_table

NAMES = ("A", "B", "C", "D")


class BusyQueue:
    """A render queue whose thread is held by a first job until ``release``, so the
    jobs queued meanwhile show the order the queue picks them in (``done``)."""

    def __init__(self) -> None:
        self.queue = RenderQueue()
        self.done: list[str] = []
        self._started, self._release = threading.Event(), threading.Event()
        self._first: asyncio.Future[Any] | None = None

    async def hold(self) -> None:
        def blocker() -> None:
            self._started.set()
            self._release.wait(10)

        self._first = asyncio.ensure_future(self.queue.run(blocker))
        await asyncio.to_thread(self._started.wait, 10)  # the thread is busy: the rest queue

    def job(self, name: str, urgent: bool = False) -> asyncio.Future[str]:
        def run() -> str:
            self.done.append(name)
            return name

        return asyncio.ensure_future(self.queue.run(run, urgent=urgent))

    async def release(self) -> None:
        await asyncio.sleep(0.05)
        self._release.set()
        assert self._first is not None
        await self._first


async def test_urgent_renders_go_before_those_queued_earlier() -> None:
    busy = BusyQueue()
    queue, done = busy.queue, busy.done
    await busy.hold()
    later = [busy.job(n) for n in ("table", "deal")]
    await asyncio.sleep(0)
    urgent = busy.job("panel", urgent=True)
    await busy.release()
    assert await urgent == "panel"
    await asyncio.gather(*later)
    assert done == ["panel", "table", "deal"]
    failing = queue.run(lambda: 1 // 0)
    with pytest.raises(ZeroDivisionError):  # an error reaches the caller, the thread goes on
        await failing
    assert await queue.run(lambda: "still here") == "still here"


async def test_a_render_raising_stop_iteration_strands_no_other_tables_render() -> None:
    """A future refuses StopIteration (TypeError on Python 3.11): raised by one table's
    render (a bare ``next()``), it broke the settling of the results that finished with
    it, and another table's render was never answered."""
    busy = BusyQueue()
    await busy.hold()

    def stops() -> str:
        raise StopIteration

    bad = asyncio.ensure_future(busy.queue.run(stops))
    good = busy.job("another table")
    await busy.release()
    assert await asyncio.wait_for(good, 5) == "another table"
    with pytest.raises(RuntimeError, match="StopIteration"):
        await bad


async def test_other_renders_get_their_share_while_urgent_ones_keep_coming() -> None:
    """At 400 tables the acting players' panels alone filled the render thread and the
    table messages were never drawn: after three urgent jobs in a row, one other goes."""
    busy = BusyQueue()
    await busy.hold()
    tables = [busy.job(n) for n in ("t1", "t2")]
    await asyncio.sleep(0)
    panels = [busy.job(n, urgent=True) for n in ("p1", "p2", "p3", "p4", "p5", "p6", "p7")]
    await busy.release()
    await asyncio.gather(*tables, *panels)
    assert busy.done == ["p1", "p2", "p3", "t1", "p4", "p5", "p6", "t2", "p7"]


async def test_renders_finished_before_the_loop_looks_wake_it_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each result handed to the loop on its own wrote to its wake-up socket (5% of the
    render thread at 400 tables): those finished while the loop is busy go together."""
    loop = asyncio.get_running_loop()
    wakes: list[object] = []
    real = loop.call_soon_threadsafe

    def counted(callback: Any, *args: Any) -> Any:
        wakes.append(callback)
        return real(callback, *args)

    monkeypatch.setattr(loop, "call_soon_threadsafe", counted)
    busy = BusyQueue()
    await busy.hold()
    jobs = [busy.job(f"j{n}") for n in range(20)]
    jobs.append(asyncio.ensure_future(busy.queue.run(lambda: 1 // 0)))
    await asyncio.sleep(0.05)
    assert busy._first is not None
    busy._release.set()
    time.sleep(0.3)  # the loop busy: the thread finishes every job meanwhile
    results = await asyncio.gather(*jobs, return_exceptions=True)
    await busy._first
    assert results[:20] == [f"j{n}" for n in range(20)]
    assert isinstance(results[20], ZeroDivisionError)
    assert len(wakes) <= 2  # the blocker's result, then all the others at once
    assert await busy.queue.run(lambda: "next") == "next"  # a later result wakes it again
    assert len(wakes) <= 3


async def test_the_render_thread_ends_at_close_after_the_renders_queued_before() -> None:
    """The bot's shutdown ends its render thread (a process running one bot after another,
    as the tests do, kept an idle thread for each); a render asked for later starts one."""
    busy = BusyQueue()
    await busy.hold()
    thread = busy.queue._thread
    assert thread is not None
    queued = busy.job("queued before close")
    await asyncio.sleep(0)
    busy.queue.close()
    await busy.release()
    assert await queued == "queued before close"
    await asyncio.to_thread(thread.join, 5)
    assert not thread.is_alive()
    assert await busy.queue.run(lambda: "after close") == "after close"
    assert busy.queue._thread is not thread and busy.queue._thread is not None
    busy.queue.close()


async def test_a_render_asked_for_while_the_closing_thread_still_works_ends_neither_early() -> None:
    """The shutdown's last edits ask for renders after ``close``: they start a new thread,
    and the old thread's end-of-work mark must end the old one. Shared queues let the new
    thread take that mark and the old one wait on for good (the bot's close waited its
    whole ten seconds for it, one test in three)."""
    busy = BusyQueue()
    await busy.hold()
    closing = busy.queue.close()
    assert closing is not None
    later = busy.job("asked for after close")
    await busy.release()
    assert await asyncio.wait_for(later, 5) == "asked for after close"
    await asyncio.to_thread(closing.join, 5)
    assert not closing.is_alive()
    newer = busy.queue.close()
    assert newer is not None and newer is not closing
    await asyncio.to_thread(newer.join, 5)
    assert not newer.is_alive()


async def test_an_idle_render_thread_holds_nothing_of_its_last_job() -> None:
    """Held, a closed bot's last render kept the whole bot alive until the thread ended,
    and turned it into cyclic garbage then, inside another test's count of it."""

    class Result:
        pass

    def draw(given: Result) -> Result:
        return Result()

    queue = RenderQueue()
    given = Result()  # held by the job's function
    result = await queue.run(functools.partial(draw, given))
    refs = [weakref.ref(given), weakref.ref(result)]
    del given, result
    for _ in range(200):  # reference counting alone, once the thread is idle again
        if all(ref() is None for ref in refs):
            break
        await asyncio.sleep(0.01)
    assert [ref() for ref in refs] == [None, None]
    queue.close()


def test_a_seat_s_unchanged_hand_image_is_reused_not_redrawn() -> None:
    match = Match.new(5, RuleSet())
    match.apply(SYSTEM, Deal(100))
    view = match.view(1)
    memo = ImageMemo()
    first = build_panel(7, view, [], names=NAMES, memo=memo).image
    again = build_panel(7, view, [], names=NAMES, note="a note", memo=memo).image
    assert again is first  # the text changed, the picture did not: no new render
    staged = [f"{view.hand[0]}.0"]
    other = build_panel(7, view, staged, names=NAMES, memo=memo).image
    assert other is not first and other != first  # a selected card is drawn raised
    assert build_panel(7, view, [], names=NAMES).image == first  # the memo changes nothing


async def _quiet(env: Env) -> None:
    """Wait until the presenter has sent everything it had to send for the table."""
    for _ in range(3):
        ui = env.bot.presenter.ui(env.table())
        lives = [ui.deal, ui.table, *ui.panels.values(), *(ping.live for ping in ui.pings.values())]
        for live in lives:
            if live is not None:
                await live.settle()
        await asyncio.sleep(0.05)


async def _to_play_phase(env: Env) -> None:
    await _open_full_table(env)
    await env.reply(env.users[0], "start")
    match = await env.until(lambda: env.table().match)
    await env.until(lambda: match.dealt == match.deal_total)
    await env.tick(6)  # the bidding window closes
    await env.until(lambda: match.phase == Phase.KITTY)
    dealer = match.dealer
    assert dealer is not None
    await env.play_with_panel(dealer, env.suggestion(dealer))
    assert match.phase == Phase.PLAY


async def test_the_bot_s_render_thread_ends_with_the_bot(shengji: Env) -> None:
    env = shengji
    await _to_play_phase(env)  # the panels and the table's messages were drawn
    thread = env.bot.presenter._renderer._thread
    assert thread is not None and thread.is_alive()
    # a render still drawing at the close: the close waits for it, so no render thread of
    # a closed bot goes on (and frees the bot later, into another test's garbage count)
    drawing = asyncio.ensure_future(env.bot.presenter.off_loop(time.sleep, 0.3))
    await asyncio.sleep(0.05)
    await env.bot.close()
    assert not thread.is_alive() and drawing.done()


async def test_the_player_to_act_gets_their_panel_before_any_other_message(
    shengji: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = shengji
    await _to_play_phase(env)
    for _ in range(3):  # a few turns: a trick's lead and its follows
        await _one_turn_in_order(env, monkeypatch)


async def _one_turn_in_order(env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    """One player plays by /play; the next one's panel is the table's first message sent."""
    match = env.match()
    await _quiet(env)
    sent: list[tuple[LiveMessage, dict[str, Any]]] = []
    send = LiveMessage._send

    async def spy(live: LiveMessage, kwargs: dict[str, Any]) -> None:
        sent.append((live, dict(kwargs)))
        await send(live, kwargs)

    monkeypatch.setattr(LiveMessage, "_send", spy)
    played = match.to_act
    assert played is not None
    await env.play_with_slash(played, env.suggestion(played))
    acting = match.to_act
    assert acting is not None and acting != played
    ui = env.bot.presenter.ui(env.table())
    await env.until(lambda: acting in ui.pings)
    panel, ping = ui.panels[acting], ui.pings[acting].live
    # everything of the turn sent (a busy machine: the table's edit may come late)
    await env.until(
        lambda: {id(ping), id(ui.table), id(ui.panels[played])} <= {id(s[0]) for s in sent}
    )
    monkeypatch.setattr(LiveMessage, "_send", send)
    order = [live for live, _ in sent]
    assert order[0] is panel, "the acting player's panel is the table's first message"
    play_id = f":{acting}:{match.seq}:play"
    assert any(c.endswith(play_id) for c in _custom_ids(sent[0][1]))


def _custom_ids(kwargs: dict[str, Any]) -> list[str]:
    view = kwargs.get("view")
    return view.custom_ids() if view else []


async def test_a_turn_panel_with_the_same_cards_is_not_uploaded_again(shengji: Env) -> None:
    env = shengji
    await _to_play_phase(env)
    match = env.match()
    played = match.to_act
    assert played is not None
    await _quiet(env)
    await env.play_with_slash(played, env.suggestion(played))
    acting = match.to_act
    assert acting is not None
    user = env.seat_user(acting)
    panel = await env.fresh_panel(user, acting)
    await _quiet(env)
    # the acting player's cards did not change since their panel was last drawn: the
    # edit that made it their turn named no file, and the picture is still on it
    edits = [
        r
        for r in env.fake.requests
        if r.method == "PATCH" and r.path.endswith(f"/messages/{panel.id}")
    ]
    assert edits and not edits[-1].uploads
    assert [a.filename for a in env.fake.messages[panel.id].attachments] == ["hand.png"]
    # once they play, their hand shrinks: the new picture is uploaded
    await env.play_with_slash(acting, env.suggestion(acting))
    await _quiet(env)
    edits = [
        r
        for r in env.fake.requests
        if r.method == "PATCH" and r.path.endswith(f"/messages/{panel.id}")
    ]
    assert edits[-1].uploads


class _Recorded(LiveMessage):
    """A live message that records what it would send."""

    def __init__(self) -> None:
        async def nowhere() -> Any:
            raise AssertionError("not sent anywhere")

        super().__init__(nowhere)
        self.sent: list[str] = []
        self.sent_at: list[float] = []  # time.monotonic() of each

    async def _send(self, kwargs: dict[str, Any]) -> None:
        self.sent.append(kwargs["content"])
        self.sent_at.append(time.monotonic())


async def test_a_message_is_edited_at_most_once_a_gap_unless_the_player_to_act_waits() -> None:
    """A state shown after an edit, with nothing waiting then, still waits out the gap
    (at hundreds of tables every play would otherwise be an edit); a preempting one (the
    panel of the player to act) goes at once."""
    live = _Recorded()
    live.gap = 0.6
    live.show(_state("first"))
    await asyncio.wait_for(live.settle(), 5)
    assert live.sent == ["first"]
    live.show(_state("second"))  # nothing was waiting when "first" went
    await asyncio.wait_for(live.settle(), 5)
    assert live.sent == ["first", "second"]
    assert live.sent_at[1] - live.sent_at[0] >= 0.55  # it waited out the gap
    live.show(_state("your turn"), preempt=True)
    await asyncio.wait_for(live.settle(), 5)
    assert live.sent == ["first", "second", "your turn"]
    assert live.sent_at[2] - live.sent_at[1] < 0.5  # not held for the gap


async def test_settling_waits_for_the_latest_state_not_for_the_gap_after_it() -> None:
    """The presenter waits on the panel of the player to act before the table's other
    messages: the gap after an edit must not hold it (it held a turn 3 s at 400 tables)."""
    live = _Recorded()
    live.gap = 30.0
    live.show(_state("first"))
    await asyncio.wait_for(live.settle(), 2)
    assert live.sent == ["first"]
    live.show(_state("second"))  # waits out the gap: settling waits for it to be sent
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(live.settle(), 0.2)
    live.show(_state("third"), preempt=True)
    await asyncio.wait_for(live.settle(), 2)
    assert live.sent == ["first", "third"]


async def test_a_preempting_state_shown_during_a_send_is_not_held_for_the_gap() -> None:
    live = _Recorded()
    live.gap = 30.0
    release = asyncio.Event()
    record = live._send

    async def slow(kwargs: dict[str, Any]) -> None:
        await release.wait()
        await record(kwargs)

    live._send = slow  # type: ignore[method-assign]
    live.show(_state("their play"))
    await asyncio.sleep(0.01)  # being sent
    live.show(_state("your turn"), preempt=True)
    release.set()
    await asyncio.wait_for(live.settle(), 2)
    assert live.sent == ["their play", "your turn"]


def _state(text: str, wait: asyncio.Event | None = None) -> Any:
    async def build() -> dict[str, Any]:
        if wait is not None:
            await wait.wait()  # a render queued behind others
        return {"content": text}

    return build


async def test_a_preempting_state_abandons_an_older_one_still_being_built() -> None:
    live = _Recorded()
    live.show(_state("after their play", asyncio.Event()))
    await asyncio.sleep(0.01)
    live.show(_state("your turn"), preempt=True)
    await asyncio.wait_for(live.settle(), 5)
    assert live.sent == ["your turn"]
    # without preempting, the state being built is sent, then the newest
    live = _Recorded()
    slow = asyncio.Event()
    live.show(_state("first", slow))
    await asyncio.sleep(0.01)
    live.show(_state("second"))
    slow.set()
    await asyncio.wait_for(live.settle(), 5)
    assert live.sent == ["first", "second"]


async def test_a_table_state_replaced_before_it_is_sent_is_never_written(
    shengji: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The table message's text (and picture) is made for states that are sent: while
    one edit is held up, the plays after it are coalesced, and only the newest is
    written out when the edit goes through."""
    from cogs import handposts

    env = shengji
    await _to_play_phase(env)
    await _quiet(env)
    ui = env.bot.presenter.ui(env.table())
    written: list[str] = []
    content = handposts.table_content

    def counted(*args: Any, **kwargs: Any) -> str:
        written.append(text := content(*args, **kwargs))
        return text

    monkeypatch.setattr(handposts, "table_content", counted)
    held, sent = asyncio.Event(), []
    send = LiveMessage._send

    async def slow(live: LiveMessage, kwargs: dict[str, Any]) -> None:
        if live is ui.table:
            sent.append(kwargs["content"])
            await held.wait()  # Discord slow to take the table's edit
        await send(live, kwargs)

    shown = []
    show = LiveMessage.show

    def counted_show(live: LiveMessage, *args: Any, **kwargs: Any) -> None:
        if live is ui.table:
            shown.append(1)
        show(live, *args, **kwargs)

    monkeypatch.setattr(LiveMessage, "_send", slow)
    monkeypatch.setattr(LiveMessage, "show", counted_show)
    match = env.match()
    for _ in range(3):  # three plays while the first one's edit is held up
        seat = match.to_act
        assert seat is not None
        await env.play_with_slash(seat, env.suggestion(seat))
    await env.until(lambda: len(sent) == 1 and len(shown) == 3)  # all three reached it
    held.set()
    await _quiet(env)
    assert len(sent) == 2  # the first play's state, then the newest: the one between never
    assert written == sent  # nothing written for the state that was replaced


async def test_the_table_message_is_still_drawn_while_panels_fill_the_render_thread(
    shengji: Env,
) -> None:
    """Acting players' panels (urgent renders) keep the render thread busy without a
    pause, as at 400 tables: a completed trick's table image is still drawn and sent."""
    env = shengji
    await _to_play_phase(env)
    await _quiet(env)
    presenter = env.bot.presenter
    ui = presenter.ui(env.table())
    flooding = True

    async def flood() -> None:
        while flooding:
            await presenter.off_loop(time.sleep, 0.003, urgent=True)

    floods = [asyncio.ensure_future(flood()) for _ in range(6)]
    try:
        match = env.match()
        assert not match.view(None).trick  # a new trick to lead
        for _ in range(4):  # the four plays of a trick, the last one completing it
            seat = match.to_act
            assert seat is not None
            await env.play_with_slash(seat, env.suggestion(seat))
        assert not match.view(None).trick  # complete
        completed = env.fake.clock.time()
        assert ui.table is not None and ui.table.message_id is not None
        table_id = ui.table.message_id

        def drawn() -> bool:
            return any(
                r.method == "PATCH" and r.path.endswith(f"/{table_id}") and r.uploads
                for r in env.fake.requests
                if r.at >= completed
            )

        await env.until(drawn, timeout=10)
    finally:
        flooding = False
        await asyncio.gather(*floods)


async def test_a_panel_shown_again_while_its_render_waits_is_drawn_once_newest(
    shengji: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under load a panel's render waits in the queue while newer states come (the hand
    growing card by card in the deal): the render draws the newest, once, and that is
    what the DM shows."""
    from cogs import seatpanels

    env = shengji
    await _to_play_phase(env)
    await _quiet(env)
    presenter = env.bot.presenter
    table, match = env.table(), env.match()
    seat = next(s for s in range(4) if s != match.to_act)  # not urgent: no preempting
    drawn: list[str] = []
    build = seatpanels.build_panel

    def counted(*args: Any, **kwargs: Any) -> Any:
        drawn.append(kwargs["note"])
        return build(*args, **kwargs)

    monkeypatch.setattr(seatpanels, "build_panel", counted)
    release = threading.Event()
    blocked = asyncio.ensure_future(presenter.off_loop(release.wait, 10))
    update = presenter.now_at(table)
    for note in ("one", "two", "three"):
        presenter._show_panel(table, update, seat, note=note)
        await asyncio.sleep(0.01)
    release.set()
    await blocked
    await _quiet(env)
    assert drawn == ["three"]
    panel = env.fake.messages[presenter.ui(table).panels[seat].message_id or 0]
    assert panel.content.startswith("three")


async def test_a_crowded_render_thread_draws_the_table_picture_at_most_every_few_seconds(
    shengji: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Uncrowded, a completed trick gets its picture; with hundreds of renders waiting,
    one completed seconds after the last picture gets only the text, one completed
    longer after it its picture."""
    from cogs import handposts as module
    from cogs import pacing

    every = 600.0  # "a few seconds", long enough for a slow machine's four plays
    monkeypatch.setattr(module, "TABLE_PICTURE_EVERY", every)
    monkeypatch.setattr(pacing, "CROWDED_PLACE_GAP", 0.2)  # the edits' spacing: another test
    monkeypatch.setattr(pacing, "CROWDED_PANEL_GAP", 0.2)  # and the waiting players' panels'
    env = shengji
    await _to_play_phase(env)
    await _quiet(env)
    presenter = env.bot.presenter
    ui = presenter.ui(env.table())

    async def trick_pictured() -> bool:
        match = env.match()
        for _ in range(4):
            seat = match.to_act
            assert seat is not None
            await env.play_with_slash(seat, env.suggestion(seat))
        completed = env.fake.clock.time()
        await _quiet(env)
        assert ui.table is not None
        edits = [
            r
            for r in env.fake.requests
            if r.method == "PATCH"
            and r.path.endswith(f"/{ui.table.message_id}")
            and r.at >= completed
        ]
        assert edits  # the completed trick's text went out either way
        return bool(edits[-1].uploads)

    assert await trick_pictured()  # a quiet bot: every completed trick
    presenter.rendering += pacing.CROWDED  # as if hundreds of tables' renders were waiting
    try:
        assert not await trick_pictured()  # soon after the last picture: the text only
        ui.table_drawn -= every  # as if that picture were older
        assert await trick_pictured()
    finally:
        presenter.rendering -= pacing.CROWDED


async def test_a_crowded_render_thread_spaces_the_edits_in_the_table_s_place(
    shengji: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While crowded, a message of the table's thread with newer states waiting is edited
    again only CROWDED_PLACE_GAP s after its last edit (the newest state then); uncrowded, at
    the edit gap (0 here). The gap is read after each edit."""
    from cogs import pacing

    env = shengji
    presenter = env.bot.presenter
    assert presenter._place_gap() == 0.0
    presenter.rendering += pacing.CROWDED
    try:
        assert presenter._place_gap() == pacing.CROWDED_PLACE_GAP
    finally:
        presenter.rendering -= pacing.CROWDED
    assert presenter._place_gap() == 0.0
    # many live tables crowd the bot too, with nothing waiting to be drawn
    live_tables = len(env.bot.service.tables)
    monkeypatch.setattr(pacing, "CROWDED_TABLES", live_tables)
    assert presenter.crowded() and presenter._place_gap() == pacing.CROWDED_PLACE_GAP
    # the waiting players' DM panels too: longer once the tricks are played
    dealing = cast(Table, SimpleNamespace(match=SimpleNamespace(phase=Phase.DEAL)))
    playing = cast(Table, SimpleNamespace(match=SimpleNamespace(phase=Phase.PLAY)))
    assert presenter._panel_gap(dealing) == pacing.CROWDED_GAP
    assert presenter._panel_gap(playing) == pacing.CROWDED_PANEL_GAP
    monkeypatch.setattr(pacing, "CROWDED_TABLES", live_tables + 1)
    assert presenter._place_gap() == 0.0 and presenter._panel_gap(playing) == 0.0
    gaps = [0.3]
    live = _Recorded()
    live.gap = lambda: gaps[0]
    held = asyncio.Event()
    live.show(_state("first", held))
    await asyncio.sleep(0.01)
    live.show(_state("second"))
    live.show(_state("third"))
    held.set()
    await asyncio.wait_for(live.settle(), 5)
    assert live.sent == ["first", "third"]
    assert live.sent_at[1] - live.sent_at[0] >= 0.25


@pytest.mark.deal_seed(3)
async def test_a_crowded_deal_redraws_a_panel_between_its_paced_redraws_only_for_new_bids(
    shengji: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While crowded the deal's progress is redrawn every CROWDED_DEAL_EVERY s (long
    here: only its first step and its end); between those, a player's panel is redrawn
    at the deal step that changes the bids it offers, and at no other."""
    from bot.store import GuildSettings
    from cogs import handposts as module
    from cogs import pacing

    from .helpers import FAST

    env = shengji
    settings = GuildSettings(RuleSet(), {**FAST, "deal_round": 4, "deal_pace": 1.0})
    await env.store.save_guild_settings(env.world.guild.id, settings)
    monkeypatch.setattr(pacing, "CROWDED_TABLES", 1)  # this one table crowds the bot
    monkeypatch.setattr(module, "CROWDED_DEAL_EVERY", 600.0)
    monkeypatch.setattr(pacing, "CROWDED_PLACE_GAP", 0.2)  # the deal message: not tested here
    presenter = env.bot.presenter
    shown: list[tuple[int, int, tuple[object, ...]]] = []  # seat, cards held, bids offered
    show = presenter._show_panel

    def spy(table: Table, update: Any, seat: int, note: str = "") -> None:
        view = update.views[seat]
        bids = tuple(bid.cards for bid in view.auction.options(view.hand, seat))
        shown.append((seat, len(view.hand), bids))
        show(table, update, seat, note)

    monkeypatch.setattr(presenter, "_show_panel", spy)
    match = await env.start_four()
    steps = 0
    while match.dealt < match.deal_total:
        dealt = match.dealt
        for _ in range(500):  # a tick before the deal sleeps again is lost: tick again
            await env.tick(1.0)
            with contextlib.suppress(TimeoutError):
                await env.until(lambda n=dealt: match.dealt > n, timeout=0.2)
                break
        steps += 1
    await _quiet(env)
    full = match.deal_total // 4
    middle = [s for s in shown if 1 < s[1] < full]  # after the first step, before the end
    assert steps > 10 and middle  # cards that may be bid with arrived mid-deal
    assert len(middle) < 4 * (steps - 2) / 2  # far fewer than one redraw a step each
    for seat in range(4):
        mine = [(cards, bids) for who, cards, bids in shown if who == seat]
        for (_, before), (cards, bids) in itertools.pairwise(mine):
            assert cards == full or bids != before  # mid-deal: only for other bids
    assert {seat for seat, cards, _ in shown if cards == full} == {0, 1, 2, 3}  # the end


async def test_a_crowded_table_message_waits_its_gap_but_a_warning_does_not(
    shengji: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While crowded the table message is edited at most every CROWDED_PLACE_GAP s (long
    here): a play soon after its last edit waits; a warning for a player whose DMs are
    closed (said on the table message) goes out at once, with the newest state."""
    from cogs import pacing

    env = shengji
    await _to_play_phase(env)
    await _quiet(env)
    monkeypatch.setattr(pacing, "CROWDED_TABLES", 1)
    monkeypatch.setattr(pacing, "CROWDED_PLACE_GAP", 600.0)
    presenter = env.bot.presenter
    table = env.table()
    ui = presenter.ui(table)
    assert ui.table is not None and ui.table.message_id is not None
    message = env.fake.messages[ui.table.message_id]
    presenter._show_table(table, presenter.now_at(table))  # an edit: the gap starts after it
    await env.until(lambda: ui.table is not None and ui.table._latest is None)
    presenter._show_table(table, presenter.now_at(table), extra="first warning")
    await env.until(lambda: "first warning" in message.content, timeout=5)
    presenter._show_table(table, presenter.now_at(table))  # no warning: held for the gap
    await asyncio.sleep(0.3)
    assert "first warning" in message.content  # the state without it not sent yet
    presenter._show_table(table, presenter.now_at(table), extra="second warning")
    await env.until(lambda: "second warning" in message.content, timeout=5)
