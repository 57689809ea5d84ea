"""A tournament's messages on Discord: registration, standings, match threads, announcements.

``TournamentPresenter`` is the sink of ``bot.tournament.service.TournamentService``:
a thread per match, the registration message (Register / Withdraw / Confirm
buttons, the match-winner rule spelled out), the standings (an image from
``renderers.tournament``, edited as hands end) and announcements. Everything
here is read by the whole channel, so it is in the server's language (its
``/shengji settings language``, else its preferred locale), like a table's messages;
the service hands over catalog keys, never sentences.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

import discord
from babel import Locale

from bot.i18n import pick, t
from bot.i18n.rules import join
from bot.store.tournaments import TournamentResult
from bot.tournament.bracket import Entrant, Game
from bot.tournament.cup import Cup
from renderers.tournament import (
    MatchScene,
    RankRow,
    RoundScene,
    StandingsScene,
    render_standings,
)

from .common import finished, in_background, thread_from
from .ids import CupComponent, CupWhat, format_id
from .lang import refusal
from .live import LiveMessage, send_once
from .tableview import png as png_file

log = logging.getLogger(__name__)

#: a finished tournament's status as the stats show it (live ones say their round)
STATUS_KEYS = {
    "finished": "tournament-status-finished",
    "cancelled": "tournament-status-cancelled",
    "registration": "tournament-status-registration",
}


def place_text(loc: str, place: int) -> str:
    """1st, 2nd, 23rd... (English ordinals from Babel's plural rules) or 第23名."""
    form = Locale.parse(pick(loc).replace("-", "_")).ordinal_form(place)
    return t(loc, "tournament-place", place=place, form=form)


def results_text(loc: str, results: Sequence[TournamentResult]) -> str:
    """One line per tournament, newest first: where the player's team finished."""
    lines = []
    for r in results:
        if r.place is not None:
            how = place_text(loc, r.place)
        elif r.eliminated_round is not None:
            how = t(loc, "tournament-result-out", round=r.eliminated_round)
        elif r.status == "running":
            how = t(loc, "tournament-result-playing", round=r.rounds_played)
        else:
            how = t(loc, STATUS_KEYS.get(r.status, "tournament-status-finished"))
        lines.append(f"**{r.name}** · {r.team}: {how}")
    return "\n".join(lines)[:1024]


def registration_embed(loc: str, cup: Cup) -> discord.Embed:
    lines = []
    for team in cup.teams:
        if team.computer:
            level = t(loc, "tournament-level", level=team.level)
            lines.append(t(loc, "tournament-team-computer", team=team.name, level=level))
        else:
            key = "tournament-team-confirmed" if team.confirmed else "tournament-team-waiting"
            a, b = (f"<@{m}>" for m in team.members)
            lines.append(t(loc, key, team=team.name, a=a, b=b))
    key = "tournament-reg-open" if cup.phase == "registration" else "tournament-reg-closed"
    embed = discord.Embed(
        title=t(loc, key, name=cup.name),
        description=("\n".join(lines) or t(loc, "tournament-no-teams"))[:4000],
        colour=discord.Colour.gold(),
    )
    embed.add_field(
        name=t(loc, "tournament-format"),
        value=t(
            loc,
            "tournament-format-line",
            preset=t(loc, f"cmd-choice-{cup.preset}"),  # its name in the server's language
            minutes=cup.round_minutes,
            advance=cup.advance,
            podium=cup.podium,
        ),
        inline=False,
    )
    embed.add_field(
        name=t(loc, "tournament-winner-title"), value=t(loc, "tournament-winner-rule"), inline=False
    )
    embed.set_footer(text=t(loc, "tournament-reg-footer"))
    return embed


def registration_view(loc: str, cup: Cup) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    closed = cup.phase != "registration"
    buttons: tuple[tuple[str, CupWhat, discord.ButtonStyle], ...] = (
        ("tournament-button-register", "reg", discord.ButtonStyle.success),
        ("tournament-button-confirm", "ok", discord.ButtonStyle.primary),
        ("tournament-button-withdraw", "wd", discord.ButtonStyle.secondary),
    )
    for key, what, style in buttons:
        cid = format_id(CupComponent(cup.id, what))
        view.add_item(
            discord.ui.Button(label=t(loc, key), style=style, custom_id=cid, disabled=closed)
        )
    return view


def _ranking(loc: str, cup: Cup, round_: Any, name: list[str]) -> tuple[RankRow, ...]:
    """A finished round's teams, best first, each with what became of it."""
    bracket = cup.bracket
    assert bracket is not None
    winners = {g.winner for g in round_.games}
    last = round_.number == bracket.total_rounds
    going = set(bracket.advancing(round_)) if not last else set()
    rows = []
    for team in bracket.ranking(round_):
        game = next(g for g in round_.games if team in g.teams)
        score = bracket.standing(game, team)  # a bye: the level it is ranked on
        if last and bracket.podium and team in bracket.podium:
            result = place_text(loc, bracket.podium.index(team) + 1)
        elif team in going:
            result = t(loc, "tournament-row-advances")
        elif team in winners:
            result = t(loc, "tournament-row-won")
        else:
            result = t(loc, "tournament-row-lost")
        rows.append(RankRow(name[team], score.level, result, lost=team not in winners))
    return tuple(rows)


def podium_places(loc: object, cup: Cup) -> str:
    """The podium's teams in order, listed as the language lists them (``1. A、2. B和3. C``)."""
    bracket = cup.bracket
    entrants = [bracket.entrants[t] for t in bracket.podium or ()] if bracket else []
    return join(loc, [f"{i}. {entrant_name(e)}" for i, e in enumerate(entrants, 1)])


def entrant_name(entrant: Entrant) -> str:
    """A team as the standings name it: computer teams marked."""
    return entrant.name + (" 🤖" if entrant.computer else "")


def standings_scene(loc: str, cup: Cup, now: float) -> StandingsScene:
    """What the standings image shows, from the tournament as it is now."""
    bracket = cup.bracket
    words = {
        "round_n": t(loc, "img-round-n", n="{n}"),  # the image writes each round's number
        "ranking_n": t(loc, "img-ranking-n", n="{n}"),
        "podium": t(loc, "img-podium"),
        "bye": t(loc, "img-bye"),
    }
    if bracket is None:
        key = "tournament-status-cancelled" if cup.phase == "cancelled" else ""
        status = t(loc, key or "tournament-status-registration")
        waiting = (t(loc, "tournament-not-started"),)
        return StandingsScene(cup.name, status, (), summary=waiting, words=words)
    # the image's fonts have no emoji (🤖 would be drawn □): a computer team's name says it
    name = [e.name for e in bracket.entrants]
    rounds = []
    for round_ in bracket.rounds:
        matches = []
        for game in round_.games:
            slot = cup.slots.get(f"{game.round_no}.{game.index}")
            if game.outcome is not None:
                levels = tuple(s.level for s in game.outcome.scores)
                hands, flagged = game.outcome.hands, bool(game.outcome.flags)
            elif slot is not None:
                levels, hands = tuple(slot.tally.levels), slot.tally.hands
                flagged = bool(slot.tally.flags)
            else:
                levels, hands, flagged = ("2", "2"), 0, False
            winner = game.teams.index(game.winner) if game.winner is not None else None
            matches.append(
                MatchScene(tuple(name[t] for t in game.teams), levels, winner, hands, flagged)
            )
        ranking: tuple[RankRow, ...] = ()
        if round_.done and (round_.number < len(bracket.rounds) or bracket.finished):
            ranking = _ranking(loc, cup, round_, name)
        rounds.append(RoundScene(round_.number, tuple(matches), ranking))
    status = _status(loc, cup, now)
    podium = tuple(name[t] for t in bracket.podium or ())
    summary = [status]
    if podium:
        summary.append(t(loc, "tournament-podium", places=podium_places(loc, cup)))
    summary.append(draw_seed_text(loc, cup))
    return StandingsScene(cup.name, status, tuple(rounds), podium, tuple(summary), words)


def draw_seed_text(loc: str, cup: Cup) -> str:
    """The draw's seed and the command that draws the same pairings, said in public.

    The seed is what makes the draw re-checkable, so the whole channel sees it (in
    the standings and the first round's announcement), not only the organiser. The
    terminal's tournament names the teams Team 01, Team 02... in the order they
    entered the draw: the registration list's order once the tournament started.
    """
    assert cup.bracket is not None
    teams = len(cup.bracket.entrants)
    return t(loc, "tournament-draw-seed", seed=cup.seed, teams=teams)


def _status(loc: str, cup: Cup, now: float) -> str:
    bracket = cup.bracket
    assert bracket is not None
    if cup.phase == "cancelled":
        return t(loc, "tournament-status-cancelled")
    if bracket.finished:
        return t(loc, "tournament-status-finished")
    if cup.clock is None or bracket.current is None:
        return ""
    number = bracket.current.number
    if cup.clock.expired(now):
        return t(loc, "tournament-status-time-up", round=number)
    key = "tournament-status-paused" if cup.clock.paused else "tournament-status-round"
    left = int(cup.clock.remaining(now) // 60)
    return t(loc, key, round=number, rounds=bracket.total_rounds, minutes=left)


def standings_message(loc: str, scene: StandingsScene, png: bytes) -> dict[str, Any]:
    """The standings message's fields around the rendered image."""
    embed = discord.Embed(
        title=t(loc, "tournament-standings", name=scene.title), colour=discord.Colour.gold()
    )
    embed.description = "\n".join(scene.summary)[:4000]
    embed.set_image(url="attachment://standings.png")
    return {"embed": embed, "files": [png_file(png, "standings.png")]}


class TournamentPresenter:
    """The tournament service's sink: threads, the registration and standings messages.

    Both messages are ``LiveMessage``s: edits are coalesced, so when hands end at
    many tables at once only the newest standings are rendered (in the presenter's
    render thread) and sent.
    """

    def __init__(self, client: discord.Client, now: Callable[[], float], tables: Any) -> None:
        self.client = client
        self.now = now  # the table service's clock
        self.tables = tables  # the table presenter: its render thread and edit gap
        self.live: dict[tuple[int, str], LiveMessage] = {}
        # the tournament service's ``save_posted`` (set by the app once both exist)
        self.keep: Callable[[Cup], Coroutine[Any, Any, None]] | None = None
        self._keeping: set[asyncio.Task[None]] = set()

    async def stop(self, timeout: float) -> None:
        """At shutdown: no message is sent again, and one on its way gets its answer within
        ``timeout`` seconds (as ``Outlet.close`` does for tables): Discord posts it all
        the same, and its id must be kept, or the restarted bot posts a second one."""
        for live in self.live.values():
            live.stop()
        await finished(timeout, lives=self.live.values())

    async def kept(self, timeout: float) -> None:
        """At shutdown, before the store closes: wait (so long) for the ids being saved."""
        await finished(timeout, keeping=self._keeping)

    async def locale(self, cup: Cup) -> str:
        """The server's language: its setting, else its preferred locale."""
        setting = None
        service = getattr(self.tables, "service", None)
        if service is not None:
            try:
                setting = (await service.guild_settings(cup.guild_id)).timers.get("language")
            except Exception:
                log.warning("settings of guild %s unreadable", cup.guild_id)
        guild = self.client.get_guild(cup.guild_id)
        return pick(setting, guild.preferred_locale if guild else None)

    async def _channel(self, channel_id: int) -> Any:
        channel = self.client.get_channel(channel_id)
        if channel is None:
            channel = await self.client.fetch_channel(channel_id)
        return channel

    async def post_opening(self, cup: Cup, title: str) -> int:
        text = t(await self.locale(cup), "tournament-match-thread", title=title)
        target = functools.partial(self._channel, cup.channel_id)
        try:
            message = await send_once(target, {"content": text})
        except discord.Forbidden:
            raise refusal("tournament-no-threads") from None
        if message is None:  # the connection failed at every try: as any failure to open
            # a match, `/shengji tournament start` opens the round's matches left unopened
            raise ConnectionError(f"tournament {cup.id}: a match's first message was not posted")
        return int(message.id)

    async def open_place(self, cup: Cup, title: str, opening: int) -> int | None:
        try:
            return await thread_from(await self._channel(cup.channel_id), opening, title)
        except discord.Forbidden:
            raise refusal("tournament-no-threads") from None
        except discord.NotFound:  # the message was deleted: the service posts another
            return None

    async def match_opened(self, cup: Cup, game: Game, place_id: int) -> None:
        loc = await self.locale(cup)
        teams = [cup.teams[t] for t in game.teams]
        humans = [m for t in teams for m in t.members]
        a, b = (("🤖 " if t.computer else "") + f"**{t.name}**" for t in teams)  # as listed
        names = t(loc, "tournament-versus", a=a, b=b)
        text = t(
            loc, "tournament-match-opened", round=game.round_no, teams=names, team=teams[0].name
        )
        view = None
        if humans:
            mentions = " ".join(f"<@{m}>" for m in humans)
            minutes = cup.grace_seconds / 60
            text += "\n" + t(loc, "tournament-check-in", players=mentions, minutes=minutes)
            view = discord.ui.View(timeout=None)
            view.add_item(
                discord.ui.Button(
                    label=t(loc, "tournament-button-here"),
                    style=discord.ButtonStyle.success,
                    custom_id=format_id(CupComponent(cup.id, "here")),
                )
            )
        post: dict[str, Any] = {"content": text}
        if view is not None:
            post["view"] = view
        try:
            await send_once(functools.partial(self._channel, place_id), post)
        except discord.HTTPException:
            log.warning("could not post in the thread of tournament %s", cup.id)

    def _message(self, cup: Cup, key: str) -> LiveMessage:
        live = self.live.get((cup.id, key))
        if live is None:
            live = self.live[(cup.id, key)] = LiveMessage(
                functools.partial(self._channel, cup.channel_id),
                gap=getattr(self.tables, "edit_gap", 0.0),
                message_id=cup.messages.get(key),
            )
            live.on_posted = functools.partial(self._posted, cup, key)
        return live

    def _posted(self, cup: Cup, key: str, message_id: int) -> None:
        """A message's id kept with its tournament as soon as it is posted, not at the
        tournament's next change, which may come after a restart has posted it again; saved
        in the background, as a hand message's id is: its edits wait for no store write."""
        cup.messages[key] = message_id
        if self.keep is not None:
            in_background(self._keeping, self.keep(cup))

    async def changed(self, cup: Cup, note: str = "", **args: int | str) -> None:
        loc = await self.locale(cup)
        registering = cup.phase in ("registration", "closed")
        registration = self._message(cup, "registration")
        if registering or (cup.id, "started") not in self.live:
            if not registering:  # once, at the start: its buttons go grey
                self.live[(cup.id, "started")] = registration

            async def build_registration() -> dict[str, Any]:
                return {"embed": registration_embed(loc, cup), "view": registration_view(loc, cup)}

            registration.show(build_registration)
        if not registering:
            standings = self._message(cup, "standings")

            async def build_standings() -> dict[str, Any]:
                scene = standings_scene(loc, cup, self.now())
                png = await self.tables.off_loop(render_standings, scene)
                return standings_message(loc, scene, png)

            standings.show(build_standings)
        if note:
            if note == "tournament-over":  # listed as the language lists
                args = {**args, "places": podium_places(loc, cup)}
            text = t(loc, note, **args)
            if note == "tournament-round-started" and args.get("round") == 1:
                text += "\n" + draw_seed_text(loc, cup)
            try:
                await send_once(functools.partial(self._channel, cup.channel_id), {"content": text})
            except discord.HTTPException:
                log.warning("could not post in the channel of tournament %s", cup.id)
