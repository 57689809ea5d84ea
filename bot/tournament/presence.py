"""Who is at a tournament's matches: check-ins, absent and quiet players replaced.

Decisions where the issue is silent:

* Presence: the match's thread asks each human to press *I'm here*; any action of
  their own at the table (a bid, burial or play, switching 托管) counts as well. A
  player who has done neither by the end of the grace period (``grace_seconds``,
  5 minutes from the round's start) is replaced by a computer player and the match
  is flagged.
* A player who goes quiet mid-match: once the turn timer has played for them
  without a decision of their own in between for the grace period (counted from
  the first decision it took for them), a computer player takes the seat at the
  next decision it takes, and the match is flagged. 托管 is the player's own choice:
  it counts as present, never as quiet.
* A player who leaves mid-match keeps the seat for the grace period (the match's
  table has ``meta["leave_grace"]``): the table service puts it on 托管
  (``SeatSignal.AWAY``), so the match goes on at the computer's pace, and any
  action of their own (switching 托管 off, a play) brings them back; once the grace
  period has passed without one, a computer player takes the seat and the match is
  flagged. A misclick or a lost connection costs no seat; a restart keeps the time
  already waited. (Tables opened before this rule replace a leaver at once,
  ``SeatSignal.LEFT``, and the match is flagged the same way.)
"""

from __future__ import annotations

from collections.abc import Callable

from bot.service import SeatSignal, UserError
from bot.store import SeatInfo

from .base import ServiceBase
from .cup import Cup, Slot, slot_key


class Presence(ServiceBase):
    """A match's players: present, absent after the grace period, or gone quiet."""

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

    async def _presence(self, cup: Cup) -> None:
        """After the grace period, computer players take the seats of absent players
        (and, after a restart, of leavers whose grace runs out meanwhile)."""
        assert cup.bracket is not None and cup.bracket.current is not None
        for away in cup.slots.values():
            for user in away.away:
                self._spawn(cup, self._away_out(cup, away, user))
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
                if info is None or info.kind != "human" or info.user_id is None:
                    continue  # a computer's already: taken while the seat before waited

                def absent(slot: Slot = slot, user_id: int = info.user_id) -> bool:
                    return user_id not in slot.present

                await self._replace(slot, seat, info, "did not show up", absent)
        await self._save(cup)
        await self.sink.changed(cup)

    async def _heard(
        self, cup: Cup, slot: Slot, seat: int, signal: SeatSignal, player: SeatInfo
    ) -> None:
        """What the table service says of a player of the match (``on_seat``).

        Runs with the table's lock held (but for a leaver): a quiet player's seat is
        taken from a task of its own.
        """
        user = player.user_id
        assert user is not None
        if signal is SeatSignal.LEFT:
            slot.quiet.pop(user, None)
            slot.tally.flag(f"{player.name} left: replaced by a computer player")
        elif signal is SeatSignal.AWAY:
            slot.quiet.pop(user, None)
            if user in slot.away:
                return  # left twice: the grace counts from the first time
            slot.away[user] = self.clock.now()
            self._spawn(cup, self._away_out(cup, slot, user))
        elif signal is SeatSignal.ACTED:
            if user in slot.present and user not in slot.quiet and user not in slot.away:
                return  # nothing new: no write for every card played
            if user not in slot.present:
                slot.present.append(user)
            slot.quiet.pop(user, None)
            slot.away.pop(user, None)  # back at the table
        else:
            now = self.clock.now()
            since = slot.quiet.setdefault(user, now)
            if now - since >= cup.grace_seconds:
                self._spawn(cup, self._quiet_out(cup, slot, seat, player))
            if since != now:
                return  # still counting: nothing to save
        await self._save(cup)
        if signal is SeatSignal.LEFT:
            self._spawn(cup, self.sink.changed(cup))

    async def _quiet_out(self, cup: Cup, slot: Slot, seat: int, player: SeatInfo) -> None:
        """A computer player for a player the turn timer has played for the grace period."""

        def quiet() -> bool:  # not if they played meanwhile
            since = slot.quiet.get(player.user_id or 0)
            return since is not None and self.clock.now() - since >= cup.grace_seconds

        if await self._replace(slot, seat, player, "stopped playing", quiet):
            await self._save(cup)
            await self.sink.changed(cup)

    async def _away_out(self, cup: Cup, slot: Slot, user: int) -> None:
        """A computer player for a leaver who has not come back within the grace period."""
        since = slot.away.get(user)
        if since is None or slot.done:
            return
        await self.clock.sleep(since + cup.grace_seconds - self.clock.now())
        table = None if slot.done else self._table(slot)
        seat = None if table is None else table.seat_of(user)
        if table is None or seat is None or slot.away.get(user) != since:
            return  # the match is over, or they came back (and maybe left again since)
        player = table.seats[seat]
        assert player is not None

        def away() -> bool:
            return slot.away.get(user) == since

        if await self._replace(slot, seat, player, "left", away):
            slot.away.pop(user, None)
            await self._save(cup)
            await self.sink.changed(cup)

    async def _replace(
        self, slot: Slot, seat: int, player: SeatInfo, why: str, still: Callable[[], bool]
    ) -> bool:
        """A computer player takes ``player``'s seat and the match is flagged ``why``, if
        ``still`` holds, now and once the table is theirs to change (a move of the
        player's own, made while the replacement waited for the table, keeps them)."""
        table = None if slot.done else self._table(slot)
        info = None if table is None else table.seats[seat]
        if table is None or info is None or info.user_id != player.user_id or not still():
            return False  # over, the seat taken already, or the reason gone
        user_id = player.user_id

        def same_player_still() -> bool:
            current = table.seats[seat]
            return current is not None and current.user_id == user_id and still()

        try:
            await self.tables.seat_computer(table.channel_id, seat, same_player_still)
        except UserError:
            return False
        slot.quiet.pop(player.user_id or 0, None)
        slot.tally.flag(f"{player.name} {why}: replaced by a computer player")
        return True
