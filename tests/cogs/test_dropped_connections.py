"""Discord closed the connection under a request (aiohttp's ``ServerDisconnectedError``,
which discord.py does not retry): the bot rides it out, logs no error, and a person is
never left without an answer nor shown one twice.

Found by the monkey's weather (``bench.monkey_weather``): a hand's summary lost with the
table's presenter logging a traceback, a command's answer lost with "thinking…" left on
the player's screen, a lost answer reported as "something went wrong", and a table's
thread never opened. A tournament match's first message had the same weakness.
"""

from __future__ import annotations

import logging

import pytest

from bot.i18n import t
from fakediscord.http import RequestRecord

from .helpers import Env
from .test_bad_input import _started
from .test_tournament_flow import cmd, registered_cup, threads

CALLBACK = "/interactions/{interaction_id}/{token}/callback"
FOLLOW_UP = "/webhooks/{application_id}/{token}"
MESSAGES = "/channels/{channel_id}/messages"


def _errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


def _summary(record: RequestRecord) -> bool:
    return any(u.filename == "summary.png" for u in record.uploads)


@pytest.mark.parametrize("handled", [False, True], ids=["lost", "made-then-lost"])
async def test_a_summary_whose_connection_dropped_is_posted_once(
    shengji: Env, caplog: pytest.LogCaptureFixture, handled: bool
) -> None:
    """Posted again with the same nonce, which Discord enforces: whether or not the lost
    post had been made, the thread shows the hand's summary once."""
    env = shengji
    dropped = env.fake.faults.disconnect("POST", MESSAGES, handled=handled, when=_summary)
    alice = env.users[0]
    await _started(env, humans=1)
    match = env.match()
    await env.reply(alice, "auto")
    await env.tick_until(lambda: match.result is not None, 6)

    def summaries() -> list[object]:
        return [m for m in env.place_messages() if "summary.png" in str(m.attachments)]

    await env.until(summaries)
    assert dropped.hits == 1
    assert len(summaries()) == 1
    assert not _errors(caplog)


@pytest.mark.parametrize("handled", [False, True], ids=["lost", "made-then-lost"])
async def test_an_answer_whose_connection_dropped_is_sent_again_as_the_same_message(
    shengji: Env, caplog: pytest.LogCaptureFixture, handled: bool
) -> None:
    """The first follow-up of a "thinking" acknowledgement is its message: sent again as
    an edit of it, the answer shows once whether or not the lost POST had landed."""
    env = shengji
    dropped = env.fake.faults.disconnect("POST", FOLLOW_UP, handled=handled)
    handle = env.driver.send_slash("shengji play", env.users[0], env.world.tables, {"cards": "AH"})
    await handle
    message = await handle.wait_message()
    interaction = env.fake.interactions[handle.id]
    await env.until(  # sent again as an edit of the original response
        lambda: any(
            r.method == "PATCH" and r.params.get("token") == interaction.token
            for r in env.fake.requests
        )
    )
    assert dropped.hits == 1
    assert "table" in message.content.lower()  # no table here: the refusal, as said
    assert interaction.followups in ([], [interaction.original])  # no second message
    assert not _errors(caplog)
    assert not [r for r in caplog.records if "could not answer" in r.getMessage()]


async def test_a_command_whose_answer_was_lost_says_so_not_that_something_went_wrong(
    shengji: Env, caplog: pytest.LogCaptureFixture
) -> None:
    env = shengji
    dropped = env.fake.faults.disconnect("POST", FOLLOW_UP)
    handle = await env.slash(env.users[0], "rules")  # answered by an embed, not ``reply``
    said = await handle.wait_message()
    assert dropped.hits == 1
    assert said.content == t("en-US", "reply-connection-lost")
    assert not _errors(caplog)
    assert any("lost on the way to Discord" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize("handled", [False, True], ids=["lost", "made-then-lost"])
async def test_a_thread_whose_opening_lost_its_connection_is_opened_once(
    shengji: Env, caplog: pytest.LogCaptureFixture, handled: bool
) -> None:
    """Asked again: Discord opens it, or answers that the message has its thread already
    (whose id is the message's). The table plays in one thread, not in the channel."""
    env = shengji
    route = "/channels/{channel_id}/messages/{message_id}/threads"
    dropped = env.fake.faults.disconnect("POST", route, handled=handled)
    await _started(env, humans=1)  # the game goes on while the thread is asked again
    thread = await env.until(lambda: next(iter(env.fake.threads(env.world.tables)), None))
    await env.until(lambda: env.fake.channel_messages(thread))  # the hand's messages come
    assert dropped.hits == 1
    assert env.fake.threads(env.world.tables) == [thread]
    assert len(env.fake.channel_messages(env.world.tables)) == 1  # the lobby, no notice
    assert not _errors(caplog)


@pytest.mark.parametrize("handled", [False, True], ids=["lost", "made-then-lost"])
@pytest.mark.parametrize(
    "said", ["the match is played in the thread below", "has started.", "sits in seats 1 & 3"]
)
async def test_a_tournament_post_whose_connection_dropped_is_posted_once(
    shengji: Env, caplog: pytest.LogCaptureFixture, handled: bool, said: str
) -> None:
    """A match's first message (its thread opens from it: it was a start that failed),
    the round's start in the channel, a match's opening in its thread: posted again
    under its nonce, so each is there once and the round opens every match."""
    env = shengji
    await registered_cup(env)

    def saying(record: RequestRecord) -> bool:
        return isinstance(record.json, dict) and said in str(record.json.get("content"))

    dropped = env.fake.faults.disconnect("POST", MESSAGES, handled=handled, when=saying)
    assert "Started: 4 teams" in await cmd(env, env.users[0], "start")
    cup = env.bot.tournaments.cup_in(env.world.tables.id)
    await env.until(lambda: len(cup.slots) == 2, timeout=60)
    posts = 2 if "started" in said else 3  # once a round, or once a match; one dropped
    await env.until(lambda: len([r for r in list(env.fake.requests) if saying(r)]) == posts)
    places = [env.world.tables, *threads(env)]
    shown = [m for c in places for m in env.fake.channel_messages(c) if said in m.content]
    assert dropped.hits == 1 and len(shown) == posts - 1
    assert {t.id for t in threads(env)} == {s.place_id for s in cup.slots.values()}
    assert not _errors(caplog)


@pytest.mark.parametrize("handled", [False, True], ids=["lost", "made-then-lost"])
async def test_a_lobby_whose_post_dropped_is_posted_once(
    shengji: Env, caplog: pytest.LogCaptureFixture, handled: bool
) -> None:
    """A live message without a nonce of the caller's (the lobby, a DM panel) has one of
    its own: posted again, it shows once, and the table's thread opens from it."""
    env = shengji
    tables = env.world.tables
    dropped = env.fake.faults.disconnect(
        "POST", MESSAGES, handled=handled, when=lambda r: r.channel_id == tables.id
    )
    await env.reply(env.users[0], "new")
    thread = await env.until(lambda: next(iter(env.fake.threads(tables)), None))
    assert dropped.hits == 1
    (lobby,) = env.fake.channel_messages(tables)
    assert lobby.id == thread.id and lobby.embeds
    assert not _errors(caplog)


@pytest.mark.parametrize("handled", [False, True], ids=["lost", "made-then-lost"])
@pytest.mark.parametrize("command", ["play", "hint"], ids=["thinking-first", "answered-at-once"])
async def test_a_command_whose_response_dropped_is_answered_once(
    shengji: Env, caplog: pytest.LogCaptureFixture, handled: bool, command: str
) -> None:
    """The response sent again: Discord takes it, or says the interaction was acknowledged
    already, by the lost one. A "thinking" acknowledgement is then answered as usual; an
    answer that had landed is not sent twice."""
    env = shengji
    dropped = env.fake.faults.disconnect("POST", CALLBACK, handled=handled)
    options = {"cards": "AH"} if command == "play" else None
    handle = env.driver.send_slash(f"shengji {command}", env.users[0], env.world.tables, options)
    await handle
    message = await handle.wait_message()
    assert dropped.hits == 1
    assert "table" in message.content.lower()  # no table here: the refusal, as said
    assert env.fake.interactions[handle.id].followups in ([], [message])
    assert not _errors(caplog)
    assert not [r for r in caplog.records if "could not answer" in r.getMessage()]


@pytest.mark.parametrize(
    ("route", "handled"),
    [(FOLLOW_UP, False), (CALLBACK, False), (CALLBACK, True)],
    ids=["answer-lost", "acknowledgement-lost", "acknowledgement-made-then-lost"],
)
async def test_a_click_whose_answer_dropped_says_so_not_that_something_went_wrong(
    shengji: Env, caplog: pytest.LogCaptureFixture, route: str, handled: bool
) -> None:
    """The panel a "My hand" click sends, or discord.py's own acknowledgement of the
    click ("thinking"), lost: the person reads that Discord dropped the answer, in the
    response or, had the acknowledgement landed, after it."""
    env = shengji
    alice = env.users[0]
    await _started(env, humans=1)
    tid = env.table().id
    table_message = await env.until(
        lambda: next(
            (m for m in env.place_messages() if f"sj:t:{tid}:hand" in m.custom_ids()), None
        )
    )
    dropped = env.fake.faults.disconnect("POST", route, handled=handled)
    handle = env.driver.click(table_message, f"sj:t:{tid}:hand", alice)
    await handle
    said = await handle.wait_message()
    assert dropped.hits == 1
    assert said.content == t("en-US", "reply-connection-lost")
    assert not _errors(caplog)


async def test_an_acknowledgement_that_dropped_twice_is_answered_by_saying_so(
    shengji: Env, caplog: pytest.LogCaptureFixture
) -> None:
    """Lost again when sent again, the command does not run (it is not known to have
    been acknowledged): the person reads that Discord dropped the answer, and nothing
    ends discord.py's task with an exception no one retrieves."""
    env = shengji
    dropped = env.fake.faults.disconnect("POST", CALLBACK, times=2)
    handle = env.driver.send_slash("shengji play", env.users[0], env.world.tables, {"cards": "AH"})
    await handle
    said = await handle.wait_message()
    assert dropped.hits == 2
    assert said.content == t("en-US", "reply-connection-lost")
    assert not _errors(caplog)


@pytest.mark.parametrize("refusal", ["rate_limit", "server_error"])
async def test_an_acknowledgement_made_then_lost_whose_resend_is_refused_in_passing_runs(
    shengji: Env, caplog: pytest.LogCaptureFixture, refusal: str
) -> None:
    """The acknowledgement landed and its connection dropped; sent again, Discord refused
    it in passing (a 429, a 5xx), and discord.py's own try, which waits that out, found
    it acknowledged already. That answer ended discord.py's task with an exception no
    one retrieved, the command never ran and its "thinking" stood for good (monkey seed
    10735). Acknowledged is what the bot wanted: the command runs and is answered."""
    env = shengji
    dropped = env.fake.faults.disconnect("POST", CALLBACK, handled=True)
    refused = getattr(env.fake.faults, refusal)("POST", CALLBACK)
    handle = env.driver.send_slash("shengji new", env.users[0], env.world.tables)
    await handle
    said = await handle.wait_message()
    assert (dropped.hits, refused.hits) == (1, 1)
    assert "table" in said.content.lower() and env.bot.service.tables.get(env.world.tables.id)
    assert not _errors(caplog)


@pytest.mark.parametrize("times", [1, 2], ids=["once", "twice"])
@pytest.mark.parametrize("handled", [False, True], ids=["lost", "made-then-lost"])
async def test_suggestions_whose_connection_dropped_are_sent_again_or_let_go(
    shengji: Env, caplog: pytest.LogCaptureFixture, handled: bool, times: int
) -> None:
    """An autocompletion's answer sent again: Discord takes it, or says the lost one had
    landed. Lost twice, the person sees no suggestions until their next keystroke: a
    warning, not discord.py's "Ignoring exception in autocomplete" at ERROR."""
    env = shengji
    dropped = env.fake.faults.disconnect("POST", CALLBACK, handled=handled, times=times)
    typed = {"field": "overcall", "value": ""}
    handle = env.driver.autocomplete(
        "shengji settings", env.users[0], env.world.tables, "value", typed
    )

    def sent() -> int:
        return len(env.fake.requests_to("POST", CALLBACK))

    await env.until(lambda: sent() == 2 and dropped.hits == times)
    await env.fake.idle(quiet=0.6)
    if handled or times == 1:
        assert "deal" in [c["value"] for c in handle.choices or []]
    else:
        assert handle.choices is None
        assert any("suggestions for" in r.getMessage() for r in caplog.records)
    assert sent() == 2  # sent again once, no more
    assert not _errors(caplog)


async def test_a_turn_notice_whose_deletion_dropped_twice_does_not_cut_the_close_short(
    shengji: Env, caplog: pytest.LogCaptureFixture
) -> None:
    """An abort deletes the player's turn notice; its connection dropped twice (aiohttp
    retries once itself, then raises). The deletion let that through: the presenter
    failed at ERROR, the panel kept its buttons, the lobby still said the match was on,
    and the table's state stayed in memory for the life of the process."""
    env = shengji
    alice = env.users[0]
    await _started(env, humans=1)
    table, match = env.table(), env.match()
    seat = table.seat_of(alice.id)
    await env.tick_until(lambda: match.to_act == seat, 20)
    ui = env.bot.presenter.ui(table)
    await env.until(lambda: (p := ui.pings.get(seat)) is not None and p.live.message_id)
    notice = ui.pings[seat].live.message_id
    dropped = env.fake.faults.disconnect("DELETE", f"{MESSAGES}/{{message_id}}", times=2)
    await env.reply(alice, "abort")
    await env.until(lambda: table.id not in env.bot.presenter.ui_by_table)
    assert dropped.hits == 2
    assert env.fake.messages[notice].deleted  # at the third try
    lobby = env.fake.messages[int(table.meta["lobby_message"])]
    assert lobby.embeds[0]["title"] == f"双升 table #{table.id} — closed"
    panel = env.panel(alice, "")  # its buttons went with the close
    assert panel is None or not panel.components
    assert not _errors(caplog)
