"""Registration: creating a tournament, teams and partners, computer teams, closing.

Decisions where the issue is silent:

* One tournament at a time per channel, one still being saved included. The
  organiser is whoever created it; anyone with Manage Server or Manage Events may run
  it too (the cog decides who that is).
* A team registers with a partner who confirms with a button; until then the team
  is pending and does not enter the draw. A player is in at most one team, pending
  or not. Withdrawing is possible until the start.
* Computer teams added by the organiser are named "CPU n" (电脑队n: in the server's
  language when added) and marked 🤖; their seats are computer players, so nothing
  of theirs reaches the leaderboards. Each
  has the level the organiser picked (easy, normal, expert; normal by default),
  kept with the team and shown on the registration message.
* A computer player taking an absent or leaving player's seat is always normal,
  whatever the computer teams' level: it stands in for a person mid-match, as at
  any table, and an organiser wanting stronger fill-ins picks them for the teams
  they add, not for the seats people may leave.
* A change the store still refuses after the save's retries (another process held
  its lock for half a minute) is undone, so the answer "it didn't happen" is true.
  Changes are made one at a time (``Cup.registering``), each checked only once the one
  before it is saved or undone: each save holds the whole tournament, so a change saved
  while another's save was still being tried would have kept that other one in the
  store, undone or not. The draw at the start waits for them the same way.
"""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Callable

from bot.ai import LEVELS, level_of
from bot.i18n import t
from bot.presets import presets
from bot.service import UserError

from .base import ServiceBase
from .cup import GRACE_SECONDS, Cup, Team

MAX_TEAMS = 64


class Registration(ServiceBase):
    """A tournament from its creation until the draw."""

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
        if channel_id in self.cups or channel_id in self.creating:
            raise UserError(
                "This channel already runs a tournament; use another channel.",
                key="tournament-exists",
            )
        if preset not in presets():
            raise UserError(
                f"There is no preset {preset!r}.", key="tournament-no-preset", preset=preset
            )
        name = _visible(name)[:60]
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
        self.creating.add(channel_id)  # a second creation meanwhile finds the channel taken
        try:
            cup.id = await self.store.create_tournament(
                guild_id, channel_id, organiser_id, name, seed, cup.to_state(), self.clock.now()
            )
        finally:
            self.creating.discard(channel_id)
        self.cups[channel_id] = cup
        return cup

    async def _keep(self, cup: Cup, undo: Callable[[], object]) -> None:
        """Save a change made to ``cup``; ``undo`` it if the store refuses it still."""
        try:
            await self._save(cup)
        except Exception:
            undo()
            raise

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
        async with cup.registering:
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
            # a name of spaces or invisible marks alone is no name: the players' then
            name = (_visible(team_name or "") or f"{user_name} & {partner_name}")[:40]
            if any(t.name.casefold() == name.casefold() for t in cup.teams):
                raise UserError(
                    f"A team is already called {name!r}; pick another name.",
                    key="tournament-name-taken",
                    team=name,
                )
            team = Team(name, [user_id, partner_id], [user_name, partner_name])
            cup.teams.append(team)
            await self._keep(cup, lambda: cup.teams.remove(team))
            return team

    async def confirm(self, cup: Cup, user_id: int) -> Team:
        async with cup.registering:
            self._registering(cup)
            team = cup.team_of(user_id)
            if team is None or team.computer:
                raise UserError(
                    "Nobody has named you as their partner.", key="tournament-not-named"
                )
            if team.members[0] == user_id:
                raise UserError(
                    "Your partner confirms, not you.", key="tournament-partner-confirms"
                )
            if team.confirmed:
                raise UserError(
                    f"Team {team.name} is already confirmed.",
                    key="tournament-already-confirmed",
                    team=team.name,
                )
            team.confirmed = True
            await self._keep(cup, lambda: setattr(team, "confirmed", False))
            return team

    async def withdraw(self, cup: Cup, user_id: int) -> Team:
        async with cup.registering:
            self._registering(cup)
            team = cup.team_of(user_id)
            if team is None:
                raise UserError("You are not registered.", key="tournament-not-registered")
            place = cup.teams.index(team)
            cup.teams.remove(team)
            await self._keep(cup, lambda: cup.teams.insert(place, team))
            return team

    async def add_computer_teams(
        self, cup: Cup, by: int, manager: bool, count: int = 1, level: str = "normal"
    ) -> int:
        async with cup.registering:
            self._organiser(cup, by, manager)
            try:
                level = level_of(level)
            except ValueError:
                level = ""
            if level not in LEVELS:  # random is no level: a load generator
                raise UserError(
                    "Computer players come in three levels: easy, normal and expert.",
                    key="service-bot-level",
                )
            if cup.phase not in ("registration", "closed"):
                raise UserError("The tournament has already started.", key="tournament-started")
            if count < 1 or len(cup.teams) + count > MAX_TEAMS:
                room = MAX_TEAMS - len(cup.teams)
                raise UserError(
                    f"Between 1 and {room} computer teams.", key="tournament-bots-count", count=room
                )
            used = {team.name for team in cup.teams}
            loc = await self.sink.locale(cup)
            names = (t(loc, "tournament-bot-team", n=n) for n in range(1, 10 * MAX_TEAMS))
            added = []
            for _ in range(count):
                name = next(name for name in names if name not in used)
                added.append(Team(name, [], [], True, True, level))
            cup.teams += added

            def undo() -> None:
                for team in added:
                    cup.teams.remove(team)

            await self._keep(cup, undo)
            return count

    async def close_registration(self, cup: Cup, by: int, manager: bool) -> None:
        async with cup.registering:
            self._organiser(cup, by, manager)
            self._registering(cup)
            cup.phase = "closed"
            await self._keep(cup, lambda: setattr(cup, "phase", "registration"))


def _visible(text: str) -> str:
    """``text`` without invisible marks (U+200B; a name of them alone showed as ``****``)
    and without spaces at its ends."""
    return "".join(c for c in text if unicodedata.category(c) not in ("Cf", "Cc")).strip()
