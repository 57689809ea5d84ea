"""Tournament records in SQLite and PostgreSQL: state for restarts, results for stats."""

from __future__ import annotations

from bot.presets import presets
from bot.store import Store
from bot.tournament import Entrant, Tournament
from bot.tournament.cli import match_seed, play_match
from bot.tournament.records import tournament_rows

GUILD = 5


def played(entrants: list[Entrant]) -> Tournament:
    t = Tournament(entrants, "rec", advance=2, podium_size=2)
    round_ = t.start()
    rules = presets()["tournament"][0]
    while round_ is not None:
        for game in round_.games:
            if game.outcome is None:
                seed = match_seed("rec", round_.number, game.index)
                t.record(round_.number, game.index, play_match(seed, rules, 1, "random").outcome())
        round_ = t.close_round()
    return t


async def test_save_restore_and_player_results(db_url: str) -> None:
    path = db_url
    store = await Store.open(path)
    entrants = [Entrant("Humans", ("101", "102")), Entrant("Others", ("103", "104"))]
    entrants += [Entrant(f"Bots {i}", (), computer=True) for i in range(3)]
    tid = await store.create_tournament(GUILD, 9, 101, "Spring Cup", "rec", {"phase": 0}, 10.0)
    assert [t.tournament_id for t in await store.live_tournaments()] == [tid]
    assert await store.player_tournaments(GUILD, 101) == []  # registration is not a result yet

    t = played(entrants)
    rows = tournament_rows(t, {(1, 1): 77}, {1: (11.0, 12.0)})
    await store.save_tournament(tid, "finished", t.to_dict(), rows, finished_at=20.0)
    await store.close()

    store = await Store.open(path)  # the records survive a reopen
    try:
        assert await store.live_tournaments() == []
        stored = await store.tournament(tid)
        assert stored is not None and stored.status == "finished" and stored.finished_at == 20.0
        again = Tournament.from_dict(stored.state)
        assert again.podium == t.podium
        matches = await store.tournament_matches(tid)
        assert len(matches) == sum(len(r.games) for r in t.rounds)
        assert [m.table_id for m in matches if m.round_no == 1 and m.match_no == 1] == [77]
        assert any(m.entrants[1] is None for m in matches)  # five teams: a bye
        for user, team in ((101, 0), (104, 1)):
            [result] = await store.player_tournaments(GUILD, user)
            assert result.name == "Spring Cup" and result.team == entrants[team].name
            place = t.podium.index(team) + 1 if t.podium and team in t.podium else None
            assert result.place == place
            assert result.eliminated_round == t.eliminated_in(team)
            assert result.rounds_played == sum(team in r.teams for r in t.rounds)
        assert await store.player_tournaments(GUILD + 1, 101) == []  # another server
    finally:
        await store.close()


async def test_create_allocates_ids(db_url: str) -> None:
    async with await Store.open(db_url) as store:
        first = await store.create_tournament(GUILD, 1, 2, "a", "s", {}, 1.0)
        second = await store.create_tournament(GUILD, 1, 2, "b", "s", {}, 2.0)
        assert second == first + 1
        stored = await store.tournament(second)
        assert stored is not None and stored.name == "b" and stored.status == "registration"


async def test_the_last_ended_tournament_of_a_channel(db_url: str) -> None:
    """What ``/shengji tournament standings`` reads back after a restart: the channel's
    newest finished or cancelled tournament; a live one, or another channel's, is not it."""
    async with await Store.open(db_url) as store:
        assert await store.last_ended_tournament(9) is None
        ids = [await store.create_tournament(GUILD, 9, 2, n, "s", {}, 1.0) for n in "abc"]
        other = await store.create_tournament(GUILD, 8, 2, "elsewhere", "s", {}, 1.0)
        empty = tournament_rows(played([Entrant("x", ("1", "2")), Entrant("y", ("3", "4"))]))
        for tid, status in zip(ids, ("finished", "cancelled", "running"), strict=True):
            await store.save_tournament(tid, status, {"phase": status}, empty, finished_at=5.0)
        await store.save_tournament(other, "finished", {}, empty, finished_at=6.0)
        last = await store.last_ended_tournament(9)
        assert last is not None and (last.tournament_id, last.status) == (ids[1], "cancelled")
        assert last.state == {"phase": "cancelled"} and last.name == "b"
        assert await store.last_ended_tournament(7) is None
