"""Tournaments on the table service: registration, the draw, simultaneous tables, round clocks.

The bracket logic is pure (``bracket``, ``tally``, ``clock``); this module runs it:
it opens one table per match through the table service's public API
(``open_match``, ``seat_computer``) and follows the tables through the service's
hooks (``on_events`` after each committed change, ``may_deal`` before each next
hand). Everything it knows is saved with the tournament (``Store.save_tournament``)
after each change, so a restart resumes registration, tables and round clocks; the
match tallies are rebuilt from the recorded hands, so no hand is lost.

The service is built from rooms: ``cup`` (what a tournament holds and saves),
``registration`` (creation, teams, partners), ``rounds`` (the draw, each round's
tables, its clock and presence); this module adds the lookups the cogs use, the table
service's hooks and the restore after a restart.

Decision where the issue is silent: several processes (``SHENGJI_SHARDS``): a
tournament and all its tables live in the organiser's server, hence on one shard, so
the process running that shard restores and drives the tournament with its tables;
the others leave it alone. Its records (standings, history) are in the shared
database, read by any.
"""

from __future__ import annotations

import asyncio
import logging

from bot.game import Event, HandScored
from bot.service import SeatSignal, Table, TableService, UserError
from bot.store import SeatInfo, Store
from bot.store.tournaments import StoredTournament

from .bracket import Game
from .cup import Cup, Slot, TournamentSink
from .registration import Registration
from .rounds import Rounds
from .tally import Tally

log = logging.getLogger(__name__)


class TournamentService(Registration, Rounds):
    """Every tournament of this bot process; hooked into the table service."""

    def __init__(self, tables: TableService, store: Store, sink: TournamentSink) -> None:
        super().__init__(tables, store, sink)
        tables.hooks.append(self)

    async def save_posted(self, cup: Cup) -> None:
        """Save ``cup`` once its sink posted a message (``cup.messages``): a restart before
        the tournament's next save would post that message again."""
        if self.cups.get(cup.channel_id) is not cup:
            return  # finished or cancelled: saved for good, and nothing edits it again
        try:
            await self._save(cup)
        except Exception as exc:  # a paused or closing store: kept at the next save
            log.warning("tournament %s: its messages not saved yet (%s)", cup.id, exc)

    # --- lookups ---------------------------------------------------------------------

    def cup_in(self, channel_id: int) -> Cup:
        """The channel's live tournament (in registration or running): not one being
        cancelled, which is on the list until its tables are aborted and it is saved."""
        cup = self.cups.get(channel_id)
        if cup is None or cup.phase == "cancelled":
            raise _none_here()
        return cup

    async def standings_cup(self, channel_id: int) -> Cup:
        """The channel's live tournament, else its last finished or cancelled one.

        Standings are asked for "any time", also after a restart, which brings back
        only live tournaments: an ended one not kept since is read back from the
        records (and kept, so asking again costs nothing).
        """
        cup = self.cups.get(channel_id) or self.finished.get(channel_id)
        if cup is None:
            stored = await self.store.last_ended_tournament(channel_id)
            if stored is not None:
                try:
                    cup = self.finished[channel_id] = _cup_of(stored)
                except Exception:  # a state this code cannot read: as if there were none
                    log.exception("could not read tournament %s", stored.tournament_id)
        if cup is None:
            raise _none_here()
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
            # a cup being cancelled counts no more hands: its tables are being aborted
            if cup.id == cup_id and cup.bracket is not None and cup.phase != "cancelled":
                key = f"{table.meta['round']}.{table.meta['match']}"
                slot = cup.slots.get(key)
                if slot is not None and slot.table_id == table.id:
                    game = cup.bracket.game(table.meta["round"], table.meta["match"])
                    return cup, game, slot
        return None

    # --- the table service's hooks -----------------------------------------------------

    async def on_events(self, table: Table, events: list[Event]) -> None:
        found = self._locate(table)
        if found is None:
            return
        cup, game, slot = found
        for event in events:
            if isinstance(event, HandScored) and not slot.done:
                slot.tally.add(event.result, cup.rules.points_cap)
                expired = cup.clock is not None and cup.clock.expired(self.clock.now())
                if expired:
                    self._time_up(cup, game.round_no)
                if slot.tally.outright is not None or expired:
                    self._finish(cup, game, slot)
                else:
                    await self._save(cup)
                self._spawn(cup, self.sink.changed(cup))

    async def on_seat(self, table: Table, seat: int, signal: SeatSignal, player: SeatInfo) -> None:
        found = self._locate(table)
        if found is not None and not found[2].done:
            cup, _, slot = found
            await self._heard(cup, slot, seat, signal, player)

    def may_deal(self, table: Table) -> bool:
        found = self._locate(table)
        if found is None:
            return True
        cup, _, slot = found
        return not slot.done and not (cup.clock and cup.clock.expired(self.clock.now()))

    # --- restoring ------------------------------------------------------------------

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
            try:
                cup = _cup_of(stored)
                await self._rebuild_tallies(cup)
            except Exception:
                log.exception("could not restore tournament %s", stored.tournament_id)
                continue
            self.cups[cup.channel_id] = cup
            count += 1
        return count

    def run_clocks(self) -> None:
        """After a restart: the round clocks run again, and matches not yet open open; a
        round whose matches all ended before the stop, which the stop cut off before it
        moved on, moves on now."""
        for cup in self.cups.values():
            if cup.phase != "running" or cup.tasks:
                continue
            current = cup.bracket.current if cup.bracket is not None else None
            if current is not None and current.done:
                self._spawn(cup, self._after_match(cup, current.number))
                continue
            opened = cup.clock is not None and cup.clock.started
            if opened:
                self._run_clock(cup)
            if self._unopened(cup) or not opened:
                self._spawn(cup, self._reopen(cup))

    async def _reopen(self, cup: Cup) -> None:
        try:
            await self._open_games(cup)
            await self._round_opened(cup)
        except Exception as err:
            await self._open_later(cup, err)

    async def _rebuild_tallies(self, cup: Cup) -> None:
        """Tallies from the recorded hands: a hand scored just before a stop still counts."""
        for slot in cup.slots.values():
            if slot.done:
                continue
            tally = Tally(flags=list(slot.tally.flags))
            for hand_id in await self.store.hands_of_table(slot.table_id):
                record = await self.store.hand_record(hand_id)
                if record is not None:
                    tally.add(record.result, cup.rules.points_cap)
            slot.tally = tally

    async def shutdown(self) -> None:
        """Stop every tournament task (a finished cup's last announcement too) and wait
        for them to end, so none posts through the client closed after this. Called
        again once the tables have stopped: their last moves may have spawned more (a
        match won, the round moved on). Nothing is lost: a restart rebuilds the
        tallies from the recorded hands and moves an ended round on."""
        tasks = [t for c in (*self.cups.values(), *self.finished.values()) for t in c.tasks]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def _none_here() -> UserError:
    return UserError(
        "There is no tournament in this channel. Create one with `/shengji tournament create`.",
        key="tournament-none-here",
    )


def _cup_of(stored: StoredTournament) -> Cup:
    """A tournament as its records keep it (its tallies as last saved)."""
    cup = Cup(
        stored.tournament_id,
        stored.guild_id,
        stored.channel_id,
        stored.organiser_id,
        stored.name,
        stored.seed,
    )
    cup.load_state(stored.state)
    return cup
