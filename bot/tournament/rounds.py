"""Running a tournament: the draw, each round's tables, the round clock (presence is
``bot.tournament.presence``).

Each match gets a thread and a table opened through the table service's public API
(``open_match``, ``seat_computer``); a round ends when its matches have outcomes or its
clock runs out (matches between hands then end at once; the others after their hand).

A match's thread is opened from a first message posted in the tournament's channel,
whose id is saved with the tournament before the thread is asked for: a thread opened
from a message takes that message's id, so a restart at any point between the thread
and the table finds the thread again (Discord answers that the message already has
one) instead of leaving it empty and opening a second. A restart in the instant
between posting that message and saving its id leaves the message alone in the
channel (no thread); the match then gets a new one, as it does when its first
message was deleted before the thread was opened (e.g. while the bot lacked the
thread permission).

Decisions where the issue is silent:

* The round's clock and its presence check start once every match of the round has
  its table: a start refused part way (no thread permission, say) and retried later
  loses no round time, and the grace counts from the retry. Matches opened before
  the refusal play on meanwhile, with no clock yet.
* A paused round stops its clock, not its tables.
* A round whose matches do not all open from a task (the round before ended, a
  restart), where no one's command waits to say why: a refusal (the thread permission
  taken away) is said in the channel at once, for the organiser to fix and start again;
  any other failure (Discord or the store out of reach) is tried again after each of
  ``OPEN_AGAIN``, then said in the channel the same way.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from bot.game import Phase
from bot.i18n import t
from bot.service import Table, UserError
from bot.store import SeatInfo

from .bracket import BracketError, Entrant, Game, Outcome, Tournament, match_winner
from .clock import ClockError, RoundClock
from .cup import Cup, Slot, Team, slot_key
from .presence import Presence

log = logging.getLogger(__name__)

#: seconds (the tournament's clock) before a round's matches that did not open from a
#: task are tried again; after the last, the organiser's start is asked for
OPEN_AGAIN = (30.0, 120.0, 600.0)
#: seconds between the round clock's looks at the matches still in their hand once the
#: round's time is up (a table closed before scoring its hand is finished at the next)
LOOK_AGAIN = 5.0


class Rounds(Presence):
    """A tournament from the draw to its podium (or its cancelling)."""

    # --- the draw and the matches ----------------------------------------------------

    async def start(self, cup: Cup, by: int, manager: bool) -> Tournament:
        """The draw and the first round; again after a failed start, the matches not open yet."""
        self._organiser(cup, by, manager)
        if cup.phase == "running" and cup.bracket is not None and self._unopened(cup):
            await self._open_games(cup)
            await self._round_opened(cup)
            await self.sink.changed(cup, "tournament-all-open")
            return cup.bracket
        async with cup.registering:  # the registration changes under way, saved or undone
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
        """Stop the tournament: its open matches are aborted, nobody advances, no podium.
        A start still opening the round's matches stops at the next one, and the tables
        it opened are aborted with the rest (``Cup.opening``)."""
        self._organiser(cup, by, manager)
        for task in cup.tasks:
            task.cancel()
        cup.phase = "cancelled"
        cup.clock = None
        async with cup.opening:
            for slot in cup.slots.values():
                table = None if slot.done else self._table(slot)
                if table is not None:
                    with contextlib.suppress(UserError):
                        await self.tables.abort(table.channel_id, cup.organiser_id, True)
        await self._save(cup, finished=True)
        self.cups.pop(cup.channel_id, None)
        self.finished[cup.channel_id] = cup
        await self.sink.changed(cup, "tournament-cancelled-note", name=cup.name)

    async def _start_round(self, cup: Cup) -> None:
        assert cup.bracket is not None and cup.bracket.current is not None
        round_ = cup.bracket.current
        cup.clock = RoundClock(cup.round_minutes * 60)  # started once the tables are open
        await self._save(cup)
        await self._open_games(cup)
        if cup.phase != "running":
            return  # cancelled while its matches opened
        await self._round_opened(cup)
        await self.sink.changed(cup, "tournament-round-started", round=round_.number)
        if round_.done:  # byes only cannot happen with two or more teams, but be safe
            await self._advance(cup)

    async def _round_opened(self, cup: Cup) -> None:
        """Every match of the round has its table: the round's clock and presence start."""
        assert cup.bracket is not None and cup.bracket.current is not None
        if cup.clock is not None and cup.clock.started:
            return  # already running (its tasks too)
        now = self.clock.now()
        cup.clock = (cup.clock or RoundClock(cup.round_minutes * 60)).start(now)
        cup.times[cup.bracket.current.number] = [now, None]
        await self._save(cup)
        self._run_clock(cup)

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
        match's table, so no match ever gets a second one. One opening at a time
        (``Cup.opening``): the organiser's start may come while a task retries one.
        """
        async with cup.opening:
            await self._open_unopened(cup)

    async def _open_unopened(self, cup: Cup) -> None:
        rules = cup.rules
        for game in self._unopened(cup):
            if cup.phase != "running":
                return  # cancelled meanwhile
            orphan = self._orphan(cup, game)
            if orphan is not None:
                if not orphan.started:
                    await self.tables.start(orphan.channel_id, cup.organiser_id, is_admin=True)
                cup.slots[slot_key(game)] = Slot(orphan.channel_id, orphan.id)
                cup.openings.pop(slot_key(game), None)
                await self._save(cup)
                await self.sink.match_opened(cup, game, orphan.channel_id)
                continue
            a, b = (cup.teams[t] for t in game.teams)
            locale = await self.sink.locale(cup)  # a match's thread and messages: the server's
            title = t(locale, "tournament-thread", round=game.round_no, a=a.name, b=b.name)
            key = slot_key(game)
            place = await self._place(cup, key, title)
            seats = [self._seat(a, 0), self._seat(b, 0), self._seat(a, 1), self._seat(b, 1)]
            meta = {
                "tournament": cup.id,
                "round": game.round_no,
                "match": game.index,
                "keep_without_humans": True,
                "leave_grace": cup.grace_seconds,  # a leaver's seat kept on 托管 meanwhile
                "thread_id": place,
                "locale": locale,
            }
            table = await self.tables.open_match(
                cup.guild_id, place, cup.organiser_id, rules, seats, meta
            )
            cup.slots[key] = Slot(place, table.id)
            del cup.openings[key]
            await self._save(cup)
            await self.sink.match_opened(cup, game, place)

    async def _place(self, cup: Cup, key: str, title: str) -> int:
        """The match's thread, opened from its first message, whose id is saved first."""
        for _ in range(3):
            opening = cup.openings.get(key)
            place = None if opening is None else await self.sink.open_place(cup, title, opening)
            if place is not None:
                return place
            # none yet, or deleted since (e.g. while the bot lacked the thread permission)
            cup.openings[key] = await self.sink.post_opening(cup, title)
            await self._save(cup)
        raise RuntimeError(f"the first message of match {key} keeps disappearing")

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
            # no emoji: seat names are drawn in the table images, whose fonts have none
            return SeatInfo("bot", None, f"{team.name}·{i + 1}", team.level, False)
        return SeatInfo("human", team.members[i], team.names[i], None, False)

    # --- the round's clock -----------------------------------------------------------

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

    # --- round ends ----------------------------------------------------------------------

    def _finish(self, cup: Cup, game: Game, slot: Slot) -> None:
        """Record a match's outcome; the round moves on from a task of its own.

        A leaver still within the grace period played the rest on 托管: the match is
        flagged as for one replaced, so a round ending first hides no leaver.
        """
        assert cup.bracket is not None
        slot.done = True
        table = self._table(slot)
        for user in slot.away:
            seat = None if table is None else table.seat_of(user)
            info = None if table is None or seat is None else table.seats[seat]
            name = info.name if info is not None else str(user)
            slot.tally.flag(f"{name} left: on auto-play (托管) until the match ended")
        slot.away.clear()
        outcome = slot.tally.outcome()
        cup.bracket.record(game.round_no, game.index, outcome)
        self._spawn(cup, self._after_match(cup, game.round_no, slot.table_id, outcome))

    async def _after_match(
        self, cup: Cup, number: int, table_id: int | None = None, outcome: Outcome | None = None
    ) -> None:
        """The match's record first names the bracket's winner (team 0: seats 0 and 2), one
        stopped by the round's time too, whose table closes as finished with no winner of
        its own (the history said "ended early", and nobody's stats counted the match); an
        outright win the table recorded itself is left as it is. Then the tournament moves
        on, once every match of the round is over."""
        if table_id is not None and outcome is not None and outcome.hands:
            team = match_winner(outcome)
            try:
                await self.store.record_match_end(table_id, team, self.clock.now())
            except Exception as exc:
                log.warning("table %s: the match's winner not recorded (%r)", table_id, exc)
        await self._save(cup)
        bracket = cup.bracket
        assert bracket is not None and bracket.current is not None
        if cup.phase != "running" or bracket.current.number != number or bracket.finished:
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
            await self.sink.changed(cup, "tournament-over", name=cup.name)  # its podium
            self.finished[cup.channel_id] = self.cups.pop(cup.channel_id)
            return
        try:
            await self._start_round(cup)
        except Exception as err:
            await self._open_later(cup, err)

    async def _open_later(self, cup: Cup, err: Exception) -> None:
        """The current round's matches after ``err`` stopped their opening in a task.

        A refusal is said at once; anything else is tried again after each of
        ``OPEN_AGAIN`` (while the tournament still runs that round), then said. The
        organiser's ``/shengji tournament start`` opens what is left at any time.
        """
        assert cup.bracket is not None and cup.bracket.current is not None
        number = cup.bracket.current.number
        for wait in OPEN_AGAIN:
            if isinstance(err, UserError):
                break
            text = "tournament %s: round %s not all open (%r); trying again in %.0f s"
            log.warning(text, cup.id, number, err, wait)
            await self.clock.sleep(wait)
            if cup.phase != "running" or cup.bracket.current.number != number:
                return
            try:
                if not self._unopened(cup) and cup.clock is not None and cup.clock.started:
                    return  # the organiser's start opened them meanwhile
                await self._open_games(cup)
                await self._round_opened(cup)
            except Exception as again:
                err = again
            else:
                await self.sink.changed(cup, "tournament-all-open")
                return
        log.warning("tournament %s: round %s not all open: %r", cup.id, number, err)
        if isinstance(err, UserError) and err.key:  # said as its command would say it
            args = {k: v for k, v in err.params.items() if isinstance(v, int | str)}
            await self.sink.changed(cup, err.key, **args)
        else:
            await self.sink.changed(cup, "tournament-not-opened", round=number)

    # --- the clock's and presence's tasks ---------------------------------------------

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
                in_hand = False
                for game in cup.bracket.current.games:
                    slot = cup.slots.get(slot_key(game))
                    if slot is None or slot.done:
                        continue
                    table = self._table(slot)
                    match = table.match if table is not None and not table.closed else None
                    # between hands: no new hand starts. A hand the match has just scored
                    # may not have reached the tally yet (``on_events`` runs a moment
                    # later): then that hook finishes the match, with the hand counted
                    if match is None or (
                        match.phase in (Phase.SCORED, Phase.OVER)
                        and slot.tally.hands > match.hand_no
                    ):
                        self._finish(cup, game, slot)
                    else:
                        in_hand = True
                if not in_hand:
                    return
                # a match in its hand ends when the hand is scored (``on_events``); looked
                # at again all the same, for a table that closes first (an abort, its
                # thread deleted), which nothing else would finish
                await self.clock.wait(cup.changed, self.clock.now() + LOOK_AGAIN)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("round clock of tournament %s stopped", cup.id)

    def _time_up(self, cup: Cup, number: int) -> None:
        """Announce once that the round's time is up (from the clock or a table)."""
        if number not in cup.timed_out:
            cup.timed_out.append(number)
            self._spawn(cup, self.sink.changed(cup, "tournament-time-up", round=number))
