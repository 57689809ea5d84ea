"""Tournaments on the table service: registration, the draw, simultaneous tables, round clocks.

The bracket logic is pure (``bracket``, ``tally``, ``clock``); this module runs it:
it opens one table per match through the table service's public API
(``open_match``, ``seat_computer``) and follows the tables through the service's
hooks (``on_events`` after each committed change, ``may_deal`` before each next
hand). Everything it knows is saved with the tournament (``Store.save_tournament``)
after each change, so a restart resumes registration, tables and round clocks; the
match tallies are rebuilt from the recorded hands, so no hand is lost.

Decisions where the issue is silent:

* One tournament at a time per channel. The organiser is whoever created it; anyone
  with Manage Server or Manage Events may run it too (the cog decides who that is).
* A team registers with a partner who confirms with a button; until then the team
  is pending and does not enter the draw. A player is in at most one team, pending
  or not. Withdrawing is possible until the start.
* Computer teams added by the organiser are named "CPU n" and marked 🤖; their
  seats are computer players, so nothing of theirs reaches the leaderboards.
* Presence: the match's thread asks each human to press *I'm here*. A player who
  has not by the end of the grace period (``grace_seconds``, 5 minutes) is replaced
  by a computer player and the match is flagged. A player who leaves mid-match is
  replaced at once, as at any table, and the match is flagged.
* A paused round stops its clock, not its tables.
* Several processes (``SHENGJI_SHARDS``): a tournament and all its tables live in
  the organiser's server, hence on one shard, so the process running that shard
  restores and drives the tournament with its tables; the others leave it alone.
  Its records (standings, history) are in the shared database, read by any.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Coroutine, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.game import Event, HandScored, Phase
from bot.presets import presets
from bot.service import Table, TableService, UserError
from bot.store import SeatInfo, Store
from bot.store.tournaments import EntrantRow, TournamentRows

from .bracket import BracketError, Entrant, Game, Tournament
from .clock import ClockError, RoundClock
from .records import tournament_rows
from .tally import Tally

log = logging.getLogger(__name__)

GRACE_SECONDS = 300.0
MAX_TEAMS = 64


class TournamentSink(Protocol):
    """The Discord side: threads for matches and the tournament's messages."""

    async def open_place(self, cup: Cup, title: str) -> int:
        """A new thread in the tournament's channel for one match; its id."""
        ...

    async def match_opened(self, cup: Cup, game: Game, place_id: int) -> None: ...

    async def locale(self, cup: Cup) -> str:
        """The language of the tournament's messages and of its tables' (the server's)."""
        ...

    async def changed(self, cup: Cup, note: str = "", **args: int | str) -> None:
        """Registration or standings changed: edit the live messages; ``note`` is the key of
        an announcement (``tournament.ftl``), said in the server's language with ``args``."""
        ...


@dataclass
class Team:
    """A registration: ``members`` are user ids (none for a computer team)."""

    name: str
    members: list[int]
    names: list[str]
    confirmed: bool = False
    computer: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "members": self.members,
            "names": self.names,
            "confirmed": self.confirmed,
            "computer": self.computer,
        }


@dataclass
class Slot:
    """A match being played: its table and running tally."""

    place_id: int
    table_id: int
    tally: Tally = field(default_factory=Tally)
    present: list[int] = field(default_factory=list)
    done: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "place_id": self.place_id,
            "table_id": self.table_id,
            "tally": self.tally.to_dict(),
            "present": self.present,
            "done": self.done,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Slot:
        tally = Tally.from_dict(data["tally"])
        return cls(data["place_id"], data["table_id"], tally, data["present"], data["done"])


@dataclass(eq=False)
class Cup:
    """One tournament of a channel, as the service runs it."""

    id: int
    guild_id: int
    channel_id: int
    organiser_id: int
    name: str
    seed: str
    preset: str = "tournament"
    round_minutes: float = 90.0
    advance: int = 8
    podium: int = 3
    grace_seconds: float = GRACE_SECONDS
    phase: str = "registration"  # registration, closed, running, finished, cancelled
    teams: list[Team] = field(default_factory=list)
    bracket: Tournament | None = None
    clock: RoundClock | None = None
    slots: dict[str, Slot] = field(default_factory=dict)  # "round.index" -> Slot
    times: dict[int, list[float | None]] = field(default_factory=dict)
    messages: dict[str, int] = field(default_factory=dict)  # what the sink posted
    timed_out: list[int] = field(default_factory=list)  # rounds whose time-up was announced
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    tasks: list[asyncio.Task[None]] = field(default_factory=list)

    @property
    def status(self) -> str:
        """The store's status."""
        return {"closed": "registration"}.get(self.phase, self.phase)

    def team_of(self, user_id: int) -> Team | None:
        return next((t for t in self.teams if user_id in t.members), None)

    def to_state(self) -> dict[str, Any]:
        return {
            "preset": self.preset,
            "round_minutes": self.round_minutes,
            "advance": self.advance,
            "podium": self.podium,
            "grace_seconds": self.grace_seconds,
            "phase": self.phase,
            "teams": [t.to_dict() for t in self.teams],
            "bracket": self.bracket.to_dict() if self.bracket else None,
            "clock": self.clock.to_dict() if self.clock else None,
            "slots": {k: s.to_dict() for k, s in self.slots.items()},
            "times": {str(k): v for k, v in self.times.items()},
            "messages": self.messages,
            "timed_out": self.timed_out,
        }

    def load_state(self, state: dict[str, Any]) -> None:
        for key in ("preset", "round_minutes", "advance", "podium", "grace_seconds", "phase"):
            setattr(self, key, state[key])
        self.teams = [Team(**t) for t in state["teams"]]
        self.bracket = Tournament.from_dict(state["bracket"]) if state["bracket"] else None
        self.clock = RoundClock.from_dict(state["clock"]) if state["clock"] else None
        self.slots = {
            k: Slot(
                s["place_id"], s["table_id"], Tally.from_dict(s["tally"]), s["present"], s["done"]
            )
            for k, s in state["slots"].items()
        }
        self.times = {int(k): v for k, v in state["times"].items()}
        self.messages = dict(state["messages"])
        self.timed_out = list(state.get("timed_out", []))


def slot_key(game: Game) -> str:
    return f"{game.round_no}.{game.index}"


def _game_of(key: str) -> tuple[int, int]:
    """A slot key's (round, match index): the inverse of ``slot_key``."""
    round_no, index = key.split(".")
    return int(round_no), int(index)


class TournamentService:
    """Every tournament of this bot process; hooked into the table service."""

    def __init__(self, tables: TableService, store: Store, sink: TournamentSink) -> None:
        self.tables = tables
        self.store = store
        self.sink = sink
        self.clock = tables.clock
        self.cups: dict[int, Cup] = {}  # by channel id
        self.finished: dict[int, Cup] = {}  # the last finished one per channel, for standings
        tables.hooks.append(self)

    # --- lookups ---------------------------------------------------------------------

    def cup_in(self, channel_id: int, *, finished: bool = False) -> Cup:
        """The channel's running tournament (or, with ``finished``, its last finished one)."""
        cup = self.cups.get(channel_id) or (self.finished.get(channel_id) if finished else None)
        if cup is None:
            raise UserError(
                "There is no tournament in this channel. Create one with "
                "`/shengji tournament create`.",
                key="tournament-none-here",
            )
        return cup

    def cup_by_id(self, cup_id: int) -> Cup:
        for cup in self.cups.values():
            if cup.id == cup_id:
                return cup
        raise UserError("That tournament is over or gone.", key="tournament-gone")

    def _locate(self, table: Table) -> tuple[Cup, Game, Slot] | None:
        cup_id = table.meta.get("tournament")
        if cup_id is None:
            return None
        for cup in self.cups.values():
            if cup.id == cup_id and cup.bracket is not None:
                key = f"{table.meta['round']}.{table.meta['match']}"
                slot = cup.slots.get(key)
                if slot is not None and slot.table_id == table.id:
                    game = cup.bracket.game(table.meta["round"], table.meta["match"])
                    return cup, game, slot
        return None

    # --- registration ----------------------------------------------------------------

    async def create(
        self,
        guild_id: int,
        channel_id: int,
        organiser_id: int,
        name: str,
        *,
        preset: str = "tournament",
        round_minutes: float = 90.0,
        advance: int = 8,
        podium: int = 3,
        grace_seconds: float = GRACE_SECONDS,
    ) -> Cup:
        if channel_id in self.cups:
            raise UserError(
                "This channel already runs a tournament; use another channel.",
                key="tournament-exists",
            )
        if preset not in presets():
            raise UserError(
                f"There is no preset {preset!r}.", key="tournament-no-preset", preset=preset
            )
        name = name.strip()[:60]
        if not name:
            raise UserError("Give the tournament a name.", key="tournament-no-name")
        if round_minutes <= 0 or advance < 2 or podium < 1:
            raise UserError(
                "Rounds need some minutes, at least 2 must advance, a podium of 1+.",
                key="tournament-bad-format",
            )
        seed = f"{random.SystemRandom().getrandbits(48):012x}"
        cup = Cup(0, guild_id, channel_id, organiser_id, name, seed, preset, round_minutes)
        cup.advance, cup.podium, cup.grace_seconds = advance, podium, grace_seconds
        cup.id = await self.store.create_tournament(
            guild_id, channel_id, organiser_id, name, seed, cup.to_state(), self.clock.now()
        )
        self.cups[channel_id] = cup
        return cup

    def _registering(self, cup: Cup) -> None:
        if cup.phase != "registration":
            raise UserError("Registration is closed.", key="tournament-registration-closed")

    async def register(
        self,
        cup: Cup,
        user_id: int,
        user_name: str,
        partner_id: int,
        partner_name: str,
        team_name: str | None = None,
    ) -> Team:
        self._registering(cup)
        if partner_id == user_id:
            raise UserError("Your partner must be someone else.", key="tournament-partner-self")
        mine = cup.team_of(user_id)
        if mine is not None:
            raise UserError(
                f"You are already registered (team {mine.name}).",
                key="tournament-already-registered",
                team=mine.name,
            )
        if cup.team_of(partner_id) is not None:
            raise UserError(
                f"{partner_name} is already in a team.",
                key="tournament-partner-taken",
                name=partner_name,
            )
        if len(cup.teams) >= MAX_TEAMS:
            raise UserError(
                f"The tournament is full ({MAX_TEAMS} teams).",
                key="tournament-full",
                count=MAX_TEAMS,
            )
        name = (team_name or f"{user_name} & {partner_name}").strip()[:40]
        if any(t.name.casefold() == name.casefold() for t in cup.teams):
            raise UserError(
                f"A team is already called {name!r}; pick another name.",
                key="tournament-name-taken",
                team=name,
            )
        team = Team(name, [user_id, partner_id], [user_name, partner_name])
        cup.teams.append(team)
        await self._save(cup)
        return team

    async def confirm(self, cup: Cup, user_id: int) -> Team:
        self._registering(cup)
        team = cup.team_of(user_id)
        if team is None or team.computer:
            raise UserError("Nobody has named you as their partner.", key="tournament-not-named")
        if team.members[0] == user_id:
            raise UserError("Your partner confirms, not you.", key="tournament-partner-confirms")
        if team.confirmed:
            raise UserError(
                f"Team {team.name} is already confirmed.",
                key="tournament-already-confirmed",
                team=team.name,
            )
        team.confirmed = True
        await self._save(cup)
        return team

    async def withdraw(self, cup: Cup, user_id: int) -> Team:
        self._registering(cup)
        team = cup.team_of(user_id)
        if team is None:
            raise UserError("You are not registered.", key="tournament-not-registered")
        cup.teams.remove(team)
        await self._save(cup)
        return team

    def _organiser(self, cup: Cup, user_id: int, manager: bool) -> None:
        if user_id != cup.organiser_id and not manager:
            raise UserError(
                "Only the organiser (or Manage Server / Manage Events) can do that.",
                key="tournament-organiser-only",
            )

    async def add_computer_teams(self, cup: Cup, by: int, manager: bool, count: int = 1) -> int:
        self._organiser(cup, by, manager)
        if cup.phase not in ("registration", "closed"):
            raise UserError("The tournament has already started.", key="tournament-started")
        if count < 1 or len(cup.teams) + count > MAX_TEAMS:
            room = MAX_TEAMS - len(cup.teams)
            raise UserError(
                f"Between 1 and {room} computer teams.", key="tournament-bots-count", count=room
            )
        used = {t.name for t in cup.teams}
        numbers = (n for n in range(1, 10 * MAX_TEAMS) if f"CPU {n}" not in used)
        for _ in range(count):
            cup.teams.append(Team(f"CPU {next(numbers)}", [], [], True, True))
        await self._save(cup)
        return count

    async def close_registration(self, cup: Cup, by: int, manager: bool) -> None:
        self._organiser(cup, by, manager)
        self._registering(cup)
        cup.phase = "closed"
        await self._save(cup)

    # --- running ---------------------------------------------------------------------

    async def start(self, cup: Cup, by: int, manager: bool) -> Tournament:
        """The draw and the first round; again after a failed start, the matches not open yet."""
        self._organiser(cup, by, manager)
        if cup.phase == "running" and cup.bracket is not None and self._unopened(cup):
            await self._open_games(cup)
            await self.sink.changed(cup, "tournament-all-open")
            return cup.bracket
        if cup.phase not in ("registration", "closed"):
            raise UserError("The tournament has already started.", key="tournament-started")
        ready = [t for t in cup.teams if t.confirmed]
        if len(ready) < 2:
            raise UserError(
                "At least two confirmed teams are needed to start.", key="tournament-too-few"
            )
        cup.teams = ready  # pending teams do not enter the draw
        entrants = [
            Entrant(t.name, tuple(str(m) for m in t.members), t.computer) for t in cup.teams
        ]
        try:
            cup.bracket = Tournament(entrants, cup.seed, cup.advance, cup.podium)
            cup.bracket.start()
        except BracketError as err:  # the checks above leave only teams named alike
            raise UserError(str(err), key="tournament-same-names") from None
        cup.phase = "running"
        await self._start_round(cup)
        return cup.bracket

    async def cancel(self, cup: Cup, by: int, manager: bool) -> None:
        """Stop the tournament: its open matches are aborted, nobody advances, no podium."""
        self._organiser(cup, by, manager)
        for task in cup.tasks:
            task.cancel()
        for slot in cup.slots.values():
            table = None if slot.done else self._table(slot)
            if table is not None:
                with contextlib.suppress(UserError):
                    await self.tables.abort(table.channel_id, cup.organiser_id, True)
        cup.phase = "cancelled"
        cup.clock = None
        await self._save(cup, finished=True)
        self.finished[cup.channel_id] = self.cups.pop(cup.channel_id)
        await self.sink.changed(cup, "tournament-cancelled-note", name=cup.name)

    async def _start_round(self, cup: Cup) -> None:
        assert cup.bracket is not None and cup.bracket.current is not None
        round_ = cup.bracket.current
        now = self.clock.now()
        cup.clock = RoundClock(cup.round_minutes * 60).start(now)
        cup.times[round_.number] = [now, None]
        await self._save(cup)
        self._run_clock(cup)
        await self._open_games(cup)
        await self.sink.changed(cup, "tournament-round-started", round=round_.number)
        if round_.done:  # byes only cannot happen with two or more teams, but be safe
            await self._advance(cup)

    @staticmethod
    def _unopened(cup: Cup) -> list[Game]:
        """The current round's matches without a table (a start cut short, a restart)."""
        current = cup.bracket.current if cup.bracket is not None else None
        if current is None:
            return []
        return [
            g
            for g in current.games
            if not g.bye and g.outcome is None and slot_key(g) not in cup.slots
        ]

    async def _open_games(self, cup: Cup) -> None:
        """A thread and a started table for each match of the round still without one.

        A table opened just before a stop (or an error) that the tournament did not
        save yet is in the store and restored with its match's meta: it becomes the
        match's table, so no match ever gets a second one.
        """
        rules = presets()[cup.preset][0]
        for game in self._unopened(cup):
            orphan = self._orphan(cup, game)
            if orphan is not None:
                if not orphan.started:
                    await self.tables.start(orphan.channel_id, cup.organiser_id, is_admin=True)
                cup.slots[slot_key(game)] = Slot(orphan.channel_id, orphan.id)
                await self._save(cup)
                await self.sink.match_opened(cup, game, orphan.channel_id)
                continue
            a, b = (cup.teams[t] for t in game.teams)
            place = await self.sink.open_place(cup, f"R{game.round_no} · {a.name} v {b.name}")
            seats = [self._seat(a, 0), self._seat(b, 0), self._seat(a, 1), self._seat(b, 1)]
            meta = {
                "tournament": cup.id,
                "round": game.round_no,
                "match": game.index,
                "keep_without_humans": True,
                "thread_id": place,
                "locale": await self.sink.locale(cup),  # a table's messages: the server's
            }
            table = await self.tables.open_match(
                cup.guild_id, place, cup.organiser_id, rules, seats, meta
            )
            cup.slots[slot_key(game)] = Slot(place, table.id)
            await self._save(cup)
            await self.sink.match_opened(cup, game, place)

    def _orphan(self, cup: Cup, game: Game) -> Table | None:
        """A live table opened for ``game`` that the tournament has not recorded."""
        wanted = (cup.id, game.round_no, game.index)
        for table in self.tables.tables.values():
            meta = table.meta
            if (
                not table.closed
                and (meta.get("tournament"), meta.get("round"), meta.get("match")) == wanted
            ):
                return table
        return None

    @staticmethod
    def _seat(team: Team, i: int) -> SeatInfo:
        if team.computer:
            return SeatInfo("bot", None, f"{team.name} 🤖{i + 1}", "heuristic", False)
        return SeatInfo("human", team.members[i], team.names[i], None, False)

    async def check_in(self, place_id: int, user_id: int) -> str:
        """Mark a player present in their match; the key of the answer (``tournament.ftl``)."""
        for cup in self.cups.values():
            for slot in cup.slots.values():
                if slot.place_id == place_id and not slot.done:
                    if user_id in slot.present:
                        return "tournament-already-checked-in"
                    table = self._table(slot)
                    if table is None or table.seat_of(user_id) is None:
                        raise UserError(
                            "You don't play in this match.", key="tournament-not-in-match"
                        )
                    slot.present.append(user_id)
                    await self._save(cup)
                    return "tournament-checked-in"
        raise UserError(
            "There is no tournament match waiting here.", key="tournament-no-match-here"
        )

    async def pause(self, cup: Cup, by: int, manager: bool, on: bool) -> RoundClock:
        self._organiser(cup, by, manager)
        if cup.phase != "running" or cup.clock is None:
            raise UserError("No round is running.", key="tournament-no-round")
        now = self.clock.now()
        try:
            cup.clock = cup.clock.pause(now) if on else cup.clock.resume(now)
        except ClockError as err:
            raise UserError(str(err), key=err.key) from None
        await self._clock_changed(cup)
        return cup.clock

    async def extend(self, cup: Cup, by: int, manager: bool, minutes: float) -> RoundClock:
        self._organiser(cup, by, manager)
        if cup.phase != "running" or cup.clock is None:
            raise UserError("No round is running.", key="tournament-no-round")
        try:
            cup.clock = cup.clock.extend(minutes * 60, self.clock.now())
        except ClockError as err:
            raise UserError(str(err), key=err.key) from None
        await self._clock_changed(cup)
        return cup.clock

    async def _clock_changed(self, cup: Cup) -> None:
        await self._save(cup)
        cup.changed.set()
        await self.sink.changed(cup)

    # --- the table service's hooks -----------------------------------------------------

    async def on_events(self, table: Table, events: list[Event]) -> None:
        found = self._locate(table)
        if found is None:
            return
        cup, game, slot = found
        for event in events:
            if isinstance(event, HandScored) and not slot.done:
                slot.tally.add(event.result)
                for seat in table.seats:  # a player who left: the service seated a computer
                    if seat is not None and seat.kind == "bot" and seat.name.endswith(" (bot)"):
                        who = seat.name[: -len(" (bot)")]
                        if not any(f.startswith(f"{who} ") for f in slot.tally.flags):
                            slot.tally.flag(f"{who} left: replaced by a computer player")
                expired = cup.clock is not None and cup.clock.expired(self.clock.now())
                if expired:
                    self._time_up(cup, game.round_no)
                if slot.tally.outright is not None or expired:
                    self._finish(cup, game, slot)
                else:
                    await self._save(cup)
                self._spawn(cup, self.sink.changed(cup))

    def may_deal(self, table: Table) -> bool:
        found = self._locate(table)
        if found is None:
            return True
        cup, _, slot = found
        return not slot.done and not (cup.clock and cup.clock.expired(self.clock.now()))

    # --- round ends ----------------------------------------------------------------------

    def _finish(self, cup: Cup, game: Game, slot: Slot) -> None:
        """Record a match's outcome; the round moves on from a task of its own."""
        assert cup.bracket is not None
        slot.done = True
        cup.bracket.record(game.round_no, game.index, slot.tally.outcome())
        self._spawn(cup, self._after_match(cup, game.round_no))

    async def _after_match(self, cup: Cup, number: int) -> None:
        await self._save(cup)
        bracket = cup.bracket
        assert bracket is not None and bracket.current is not None
        if bracket.current.number != number or bracket.finished:
            return  # another match's task already moved the tournament on
        if bracket.current.done:
            await self._advance(cup)
        else:
            await self.sink.changed(cup)

    async def _advance(self, cup: Cup) -> None:
        assert cup.bracket is not None and cup.bracket.current is not None
        number = cup.bracket.current.number
        cup.times.setdefault(number, [None, None])[1] = self.clock.now()
        cup.changed.set()  # the round's clock task ends
        following = cup.bracket.close_round()
        if following is None:
            cup.phase = "finished"
            cup.clock = None
            await self._save(cup, finished=True)
            podium = [cup.bracket.entrants[t].name for t in cup.bracket.podium or []]
            places = ", ".join(f"{i}. {n}" for i, n in enumerate(podium, 1))
            await self.sink.changed(cup, "tournament-over", name=cup.name, places=places)
            self.finished[cup.channel_id] = self.cups.pop(cup.channel_id)
            return
        await self._start_round(cup)

    @staticmethod
    def _spawn(cup: Cup, work: Coroutine[Any, Any, None]) -> None:
        cup.tasks = [t for t in cup.tasks if not t.done()]
        cup.tasks.append(asyncio.create_task(work))

    def _run_clock(self, cup: Cup) -> None:
        cup.changed = asyncio.Event()
        self._spawn(cup, self._round_clock(cup))
        self._spawn(cup, self._presence(cup))

    async def _round_clock(self, cup: Cup) -> None:
        """Wait for the round's time; then end the matches that sit between hands."""
        assert cup.bracket is not None and cup.bracket.current is not None
        number = cup.bracket.current.number
        try:
            while cup.phase == "running" and cup.bracket.current.number == number:
                clock = cup.clock
                assert clock is not None
                cup.changed.clear()
                deadline = clock.deadline()
                if deadline is None:
                    await cup.changed.wait()
                    continue
                if not clock.expired(self.clock.now()):
                    await self.clock.wait(cup.changed, deadline)
                    continue
                self._time_up(cup, number)
                for game in cup.bracket.current.games:
                    slot = cup.slots.get(slot_key(game))
                    if slot is None or slot.done:
                        continue
                    table = self._table(slot)
                    if (
                        table is None
                        or table.match is None
                        or table.match.phase
                        in (
                            Phase.SCORED,
                            Phase.OVER,
                        )
                    ):
                        self._finish(cup, game, slot)  # between hands: no new hand starts
                return
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("round clock of tournament %s stopped", cup.id)

    async def _presence(self, cup: Cup) -> None:
        """After the grace period, computer players take the seats of absent players."""
        assert cup.bracket is not None and cup.bracket.current is not None
        number = cup.bracket.current.number
        started = cup.times.get(number, [None])[0] or self.clock.now()
        await self.clock.sleep(started + cup.grace_seconds - self.clock.now())
        if cup.phase != "running" or cup.bracket.current.number != number:
            return
        for game in cup.bracket.current.games:
            slot = cup.slots.get(slot_key(game))
            table = self._table(slot) if slot else None
            if slot is None or slot.done or table is None:
                continue
            for seat in table.humans:
                info = table.seats[seat]
                assert info is not None and info.user_id is not None
                if info.user_id in slot.present:
                    continue
                with contextlib.suppress(UserError):
                    await self.tables.seat_computer(table.channel_id, seat)
                    slot.tally.flag(f"{info.name} did not show up: replaced by a computer player")
        await self._save(cup)
        await self.sink.changed(cup)

    def _time_up(self, cup: Cup, number: int) -> None:
        """Announce once that the round's time is up (from the clock or a table)."""
        if number not in cup.timed_out:
            cup.timed_out.append(number)
            self._spawn(cup, self.sink.changed(cup, "tournament-time-up", round=number))

    def _table(self, slot: Slot) -> Table | None:
        table = self.tables.tables.get(slot.place_id)
        return table if table is not None and table.id == slot.table_id else None

    # --- saving and restoring ------------------------------------------------------------

    async def _save(self, cup: Cup, *, finished: bool = False) -> None:
        rows = None
        if cup.bracket is not None:
            tables = {_game_of(key): slot.table_id for key, slot in cup.slots.items()}
            times = {k: (v[0], v[1]) for k, v in cup.times.items()}
            rows = tournament_rows(cup.bracket, tables, times)
        await self.store.save_tournament(
            cup.id,
            cup.status,
            cup.to_state(),
            rows or _registration_rows(cup.teams),
            finished_at=self.clock.now() if finished else None,
        )

    async def restore_all(self) -> int:
        """Bring back every live tournament; before the table service restores its tables.

        The tallies are rebuilt from the recorded hands while no table plays yet;
        ``run_clocks`` then starts the round clocks, once the tables are back.
        """
        count = 0
        fence = self.tables.fence
        for stored in await self.store.live_tournaments():
            if fence is not None and not fence.owns_guild(stored.guild_id):
                continue  # another process's shard
            cup = Cup(
                stored.tournament_id,
                stored.guild_id,
                stored.channel_id,
                stored.organiser_id,
                stored.name,
                stored.seed,
            )
            try:
                cup.load_state(stored.state)
                await self._rebuild_tallies(cup)
            except Exception:
                log.exception("could not restore tournament %s", stored.tournament_id)
                continue
            self.cups[cup.channel_id] = cup
            count += 1
        return count

    def run_clocks(self) -> None:
        """After a restart: the round clocks run again, and matches not yet open open."""
        for cup in self.cups.values():
            if cup.phase == "running" and not cup.tasks:
                self._run_clock(cup)
                if self._unopened(cup):
                    self._spawn(cup, self._reopen(cup))

    async def _reopen(self, cup: Cup) -> None:
        try:
            await self._open_games(cup)
        except Exception:  # the organiser can retry with /shengji tournament start
            log.exception("could not open the matches of tournament %s", cup.id)

    async def _rebuild_tallies(self, cup: Cup) -> None:
        """Tallies from the recorded hands: a hand scored just before a stop still counts."""
        for slot in cup.slots.values():
            if slot.done:
                continue
            tally = Tally(flags=list(slot.tally.flags))
            for hand_id in await self.store.hands_of_table(slot.table_id):
                record = await self.store.hand_record(hand_id)
                if record is not None:
                    tally.add(record.result)
            slot.tally = tally

    async def shutdown(self) -> None:
        for cup in self.cups.values():
            for task in cup.tasks:
                task.cancel()


def _registration_rows(teams: Sequence[Team]) -> TournamentRows:
    return TournamentRows(
        [
            EntrantRow(
                i,
                t.name,
                t.computer,
                (t.members[0] if t.members else None, t.members[1] if t.members else None),
            )
            for i, t in enumerate(teams)
        ]
    )
