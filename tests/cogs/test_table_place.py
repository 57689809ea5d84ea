"""One place per table: the thread, the channel fallback, live messages and panels."""

from __future__ import annotations

import copy
import logging
from collections import Counter
from typing import Any

import pytest

import cogs.prefs
from bot.game import Phase
from bot.i18n import t
from bot.store import ConnectionLost, GuildSettings
from cogs import outlet
from fakediscord.state import Message, Perm, User

from .helpers import FAST, Env, record_hand_scenes
from .test_bad_input import _started


async def _lobby(env: Env) -> None:
    await env.reply(env.users[0], "new")
    await env.until(lambda: env.table().meta.get("lobby_message"))


async def test_a_table_opens_a_thread_from_its_lobby_message(shengji: Env) -> None:
    env = shengji
    await _lobby(env)
    table = env.table()
    thread = await env.until(lambda: env.fake.threads(env.world.tables))
    (thread,) = thread
    assert thread.name == f"双升 #{table.id} · Alice"
    await env.until(lambda: "thread_id" in table.meta)  # recorded once Discord answered
    assert thread.id == table.meta["thread_id"] == table.meta["lobby_message"]
    # commands in the thread reach the table of its channel
    bob = env.users[1]
    handle = env.driver.send_slash("shengji join", bob, thread)
    await handle
    assert "seat 2" in (await handle.wait_message()).content
    await _started(env, humans=2)
    # the lobby says the match is on; the channel holds nothing else
    (lobby,) = env.fake.channel_messages(env.world.tables)
    await env.until(lambda: "match is on" in env.fake.messages[lobby.id].embeds[0]["title"])
    assert not env.fake.messages[lobby.id].components
    assert env.fake.channel_messages(thread)


async def test_a_quiet_lobby_thread_stays_open_for_a_week(shengji: Env) -> None:
    # Discord archives a thread idle for its auto-archive time, and an archived thread
    # closes its table: a lobby left for a night or a weekend must not close that way
    env = shengji
    await _lobby(env)
    table = env.table()
    (thread,) = await env.until(lambda: env.fake.threads(env.world.tables))
    for days in range(6):
        await env.fake.clock.advance(24 * 3600)
        handle = env.driver.send_slash("shengji rules", env.users[1], env.world.general)
        await handle.wait_message()  # a request: the fake archives idle threads then
        assert not thread.archived and not table.closed, f"day {days + 1}"
    await env.fake.clock.advance(2 * 24 * 3600)  # a week idle: Discord archives it
    env.driver.send_slash("shengji rules", env.users[1], env.world.general)
    await env.until(lambda: table.closed)


@pytest.mark.parametrize(
    "missing",
    # a thread the bot could open but not post in would close the table at its first message
    [Perm.CREATE_PUBLIC_THREADS, Perm.SEND_MESSAGES_IN_THREADS],
    ids=["create-threads", "send-in-threads"],
)
async def test_without_thread_permission_the_table_plays_in_the_channel(
    shengji: Env, missing: int
) -> None:
    env = shengji
    env.fake.revoke_permissions(env.world.tables, missing)
    await _lobby(env)
    await env.until(lambda: any("may not open a thread" in m.content for m in env.place_messages()))
    assert not env.fake.threads(env.world.tables)
    assert env.table().meta["thread_id"] is None
    await _started(env, humans=2)
    said = [m for m in env.place_messages() if "thread" in m.content]
    assert len(said) == 1, "said once"


async def test_a_server_may_keep_tables_in_the_channel(shengji: Env) -> None:
    env = shengji
    settings = GuildSettings(env.table_rules(), {**FAST, "table_place": "channel"})
    await env.store.save_guild_settings(env.world.guild.id, settings)
    await _lobby(env)
    await env.until(lambda: any("table_place" in m.content for m in env.place_messages()))
    assert not env.fake.threads(env.world.tables)
    assert env.table().meta["thread_id"] is None
    await _started(env, humans=2)
    said = [m for m in env.place_messages() if "table_place" in m.content]
    assert len(said) == 1, "said once"


class _SettingsLostOnce:
    """The presenter's view of the service, whose store loses its connection at the first
    read of the server's settings (on PostgreSQL, a session ended under it)."""

    def __init__(self, service: Any) -> None:
        self._service = service
        self.refused = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._service, name)

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        if not self.refused:
            self.refused += 1
            raise ConnectionLost("The connection to the database was lost.")
        settings: GuildSettings = await self._service.guild_settings(guild_id)
        return settings


async def test_a_setting_read_the_store_refuses_once_still_places_the_table(
    shengji: Env, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The server keeps tables in the channel, and the read of that setting as a lobby
    opens is refused once in passing: it is read again, the table plays in the channel
    and says so, and nothing is logged as an error."""
    env = shengji
    settings = GuildSettings(env.table_rules(), {**FAST, "table_place": "channel"})
    await env.store.save_guild_settings(env.world.guild.id, settings)
    monkeypatch.setattr(outlet, "SETTINGS_AGAIN", (0.01,), raising=False)
    lost = _SettingsLostOnce(env.bot.presenter.service)
    monkeypatch.setattr(env.bot.presenter, "service", lost)
    await _lobby(env)
    await env.until(lambda: any("table_place" in m.content for m in env.place_messages()))
    assert lost.refused == 1 and not env.fake.threads(env.world.tables)
    assert env.table().meta["thread_id"] is None
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []


async def _lobby_says_closed(env: Env, table_id: int) -> None:
    """The channel's lobby message no longer says the match is on: it says why it closed."""
    (lobby,) = env.fake.channel_messages(env.world.tables)
    title = f"双升 table #{table_id} — closed"
    await env.until(lambda: env.fake.messages[lobby.id].embeds[0]["title"] == title)
    (embed,) = env.fake.messages[lobby.id].embeds
    assert "can no longer post in the table's thread" in embed["description"]
    assert not env.fake.messages[lobby.id].components


@pytest.mark.parametrize("how", ["deleted", "archived", "locked"])
async def test_a_lost_thread_closes_the_table_and_tells_each_player_once(
    shengji: Env, how: str
) -> None:
    """A moderator deletes, archives or locks the table's thread: it closes like a deleted
    channel. A locked thread refuses the bot's posts and edits unless it may manage
    threads, which the permissions the README asks for do not include: the table went on
    unseen, each of its edits refused (400, code 160005) and logged."""
    env = shengji
    await _started(env, humans=2)
    table = env.table()
    if how == "deleted":
        env.fake.delete_channel(env.place())
    elif how == "archived":
        env.fake.update_thread(env.place(), archived=True)
    else:
        env.fake.revoke_permissions(env.world.tables, Perm.MANAGE_THREADS)
        env.fake.lock_thread(env.place())
        await env.tick(60)  # the turn's time runs out: a play for the player, an edit
    await env.until(lambda: table.closed)
    lost = t("en-US", "table-place-lost")  # not the hand panel's "(the table was closed)"

    def told(user: User) -> list[Message]:
        return [m for m in env.fake.dms(user) if m.content == lost]

    for user in env.users[:2]:
        await env.until(lambda u=user: told(u))
    await env.fake.idle(quiet=0.3)  # anything else on its way has arrived
    assert [len(told(user)) for user in env.users[:2]] == [1, 1]
    await _lobby_says_closed(env, table.id)
    assert await env.store.live_tables() == []  # recorded before anyone was told


async def test_a_command_whose_thread_a_moderator_locked_after_its_ack_logs_no_error(
    shengji: Env, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The thread was locked between the command's "thinking" and its answer: Discord
    refuses any answer there (discord/discord-api-docs#6884), and the refusal was logged
    as the command's failure, at ERROR with a traceback (the slow tier's monkey, seed 23)."""
    env = shengji
    await _started(env, humans=2)
    thread = env.place()
    draw = cogs.prefs.prefs_embed

    def locked_meanwhile(*args: Any) -> Any:
        env.fake.revoke_permissions(env.world.tables, Perm.MANAGE_THREADS)
        env.fake.lock_thread(thread)
        return draw(*args)

    monkeypatch.setattr(cogs.prefs, "prefs_embed", locked_meanwhile)
    handle = env.driver.send_slash("shengji prefs", env.users[0], thread)
    await handle
    await env.until(
        lambda: any(
            "thread" in r.getMessage()
            for r in caplog.records
            if r.levelno == logging.WARNING and "refused" in r.getMessage()
        )
    )
    await env.fake.idle(quiet=0.3)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_the_panel_is_edited_in_place_and_the_turn_notice_goes_after_the_play(
    shengji: Env,
) -> None:
    env = shengji
    await _started(env, humans=2)
    match = env.match()
    alice = env.users[0]
    panel_ids: set[int] = set()
    most_live = 0
    hand_start = max(
        (m.id for m in env.fake.dms(alice) if m.attachments and m.components), default=0
    )
    while match.phase == Phase.PLAY:
        seat = match.to_act
        info = env.table().seats[seat]
        if info.kind == "bot":
            seq = match.seq
            await env.until(lambda s=seq: match.seq > s or match.phase != Phase.PLAY)
            continue
        user = env.seat_user(seat)
        notice = await env.until(
            lambda u=user: next((m for m in env.fake.dms(u) if m.content.startswith("🔔")), None)
        )
        panel = await env.fresh_panel(user, seat)
        if user == alice:
            panel_ids.add(panel.id)
        live = [m for m in env.fake.dms(alice) if m.id >= hand_start]
        most_live = max(most_live, len(live))
        await env.play_with_panel(seat, env.suggestion(seat), message=panel)
        await env.until(lambda n=notice: env.fake.messages[n.id].deleted)
    assert len(panel_ids) == 1, "one panel for the whole hand, edited in place"
    assert most_live <= 2
    # the hand's summary shrinks the panel to one line; the next deal edits it again
    (old,) = panel_ids
    await env.until(lambda: env.fake.messages[old].content.startswith("Hand 1 (over)"))
    assert not env.fake.messages[old].attachments and not env.fake.messages[old].components
    await env.tick(6)
    await env.until(lambda: match.hand_no == 1)
    await env.until(lambda: env.fake.messages[old].attachments)


async def _full_lobby(env: Env) -> None:
    """Alice hosts; Bob and Carol join; a computer player takes the last seat."""
    alice, bob, carol = env.users[:3]
    await _lobby(env)
    await env.reply(bob, "join")
    await env.reply(carol, "join")
    await env.reply(alice, "addbot")


async def test_only_the_host_starts_and_a_host_who_leaves_passes_it_on(shengji: Env) -> None:
    env = shengji
    alice, bob, carol = env.users[:3]
    await _full_lobby(env)
    before = [s is not None for s in env.table().seats]
    assert "Only the host (Alice)" in await env.reply(bob, "start")
    assert env.table().match is None and [s is not None for s in env.table().seats] == before
    await env.reply(alice, "leave")
    assert env.table().host_id == bob.id, "the next seated human hosts"
    assert "Only the host (Bob)" in await env.reply(alice, "start")
    await env.reply(carol, "addbot")
    assert "match starts" in await env.reply(bob, "start")


async def _start_by(env: Env, user: User, way: str) -> Message:
    """``user`` presses Start: with ``/shengji start`` or the lobby's button; the answer."""
    if way == "slash":
        handle = await env.slash(user, "start")
    else:
        (lobby,) = env.fake.channel_messages(env.world.tables)
        handle = env.driver.click(lobby, f"sj:l:{env.table().id}:start", user)
    return await handle.wait_message()


@pytest.mark.parametrize("way", ["slash", "button"])
@pytest.mark.parametrize("who", ["admin", "player"])
async def test_a_server_admin_may_start_a_table_they_do_not_host(
    shengji: Env, who: str, way: str
) -> None:
    env = shengji
    alice, bob = env.users[:2]
    await _full_lobby(env)
    starter = bob  # seated, not the host, not an admin
    if who == "admin":  # not seated either: an Administrator role is enough
        role = env.fake.create_role(env.world.guild, "Moderators", Perm.ADMINISTRATOR)
        starter = env.fake.create_user("Mona")
        env.fake.add_member(env.world.guild, starter, [role])
    await env.fake.idle(quiet=0.2)
    (lobby,) = env.fake.channel_messages(env.world.tables)
    shown = copy.deepcopy((lobby.embeds, lobby.components))
    table = env.table()
    seats = list(table.seats)
    answer = await _start_by(env, starter, way)
    assert answer.ephemeral_for == starter.id
    if who == "admin":
        assert "match starts" in answer.content
        await env.until(lambda: table.match is not None)
        assert table.host_id == alice.id, "the host stays the host"
        return
    assert "Only the host (Alice) or an admin can start" in answer.content
    await env.fake.idle(quiet=0.2)
    assert table.match is None and table.seats == seats and table.host_id == alice.id
    assert (lobby.embeds, lobby.components) == shown, "the lobby is as it was"


@pytest.mark.deal_seed(1)  # seat 0 can show 2♠, then seat 3 can overcall with 2♣2♣
async def test_bid_history_with_an_overcall_and_the_dealers_kitty_marks(
    shengji: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = shengji
    scenes = record_hand_scenes(monkeypatch)
    users = env.users
    await _lobby(env)
    for user in users[1:]:
        await env.reply(user, "join")
    await env.reply(users[0], "start")
    match = await env.until(lambda: env.table().match)
    await env.until(lambda: match.dealt == match.deal_total)
    tid = env.table().id
    for seat, code in ((0, "2S"), (3, "2C2C")):
        user = users[seat]
        bid_id = f"sj:d:{tid}:{seat}:{code}"
        panel = await env.until(lambda u=user, b=bid_id: env.panel(u, b))
        handle = env.driver.click(panel, bid_id, user)
        (reply,) = await handle.wait_followups(1)
        assert reply.content.startswith("You bid")
    assert [b.seat for b in match.bids] == [0, 3]
    history = ["1. Alice shows 2♠", "2. Dave overcalls with 2♣2♣"]
    deal = await env.until(
        lambda: next((m for m in env.place_messages() if history[1] in m.content), None)
    )
    assert deal.content.index(history[0]) < deal.content.index(history[1])
    bob_panel = await env.until(
        lambda: next((m for m in env.fake.dms(users[1]) if history[1] in m.content), None)
    )
    assert history[0] in bob_panel.content
    await env.tick(6)  # the window closes: Alice bid first, so she deals (先亮者为庄家)
    await env.until(lambda: match.phase == Phase.KITTY)
    assert match.dealer == 0
    panel = await env.fresh_panel(users[0], 0)
    labels = [
        option["label"]
        for row in panel.components
        for c in row.get("components", [])
        for option in c.get("options", [])
    ]
    assert sum(label.endswith("from the kitty") for label in labels) == 8
    # the bury image tags exactly the eight cards the dealer took (a multiset)
    kitty = Counter(match.kitty)
    assert sum(kitty.values()) == 8
    bury = [s for s in scenes if len(s.cards) == len(match.hands[0])]
    assert bury and all(Counter(s.marked) == kitty for s in bury)
    assert any(name == "HandScene" for _, _, name, *_ in env.audit)
