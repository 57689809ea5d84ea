"""The moves that carry a tournament in #general forward, so that a monkey's run plays cups.

Random ``/shengji tournament`` commands seldom line up into a tournament that starts, so
now and then a step does the next useful thing for the cup in #general: Alice (who may
manage the server) opens one with short rounds; people without a team pair up, partners
confirm, computer teams fill the draw, and Alice starts it. Once it runs, the step plays
on at one of its match tables (in their threads) as ``bench.monkey_play`` does at the
table in #tables, or lets time pass between rounds. The random commands, clicks,
restarts and stalls of the other steps reach these tables and the cup as well.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from bot.service import Table
from bot.tournament.cup import Cup, slot_key
from fakediscord.state import User

from .monkey_checks import Broken
from .monkey_moves import NAMES, slash
from .monkey_play import done, play_on
from .monkey_rig import Rig

ROUND_MINUTES = (1, 10, 60)  # a short round ends matches by its clock, a long one by play
GRACE_MINUTES = (1, 5)
TEAMS = 4  # the draw the step fills to before it starts the cup


async def cup_progress(rig: Rig) -> None:
    cup = rig.live.tournaments.cups.get(rig.world.general.id)
    if cup is None:
        await create(rig)
        return
    rig.cup_ids.add(cup.id)
    if cup.phase in ("registration", "closed"):
        await register_next(rig, cup)
    elif cup.phase == "running":
        await play_cup(rig, cup)


async def create(rig: Rig) -> None:
    rng = rig.rng
    options = {
        "name": rng.choice(NAMES),
        "round_minutes": rng.choice(ROUND_MINUTES),
        "advance": 2,
        "podium": rng.choice((1, 2, 3)),
        "grace_minutes": rng.choice(GRACE_MINUTES),
    }
    await typed(rig, rig.users[0], "create", options)


async def register_next(rig: Rig, cup: Cup) -> None:
    """A partner confirms, two people without a team pair up, computers fill the draw,
    or the cup starts: the first of these that is left to do."""
    rng = rig.rng
    pending = [t for t in cup.teams if not t.computer and not t.confirmed]
    free = [u for u in rig.users if cup.team_of(u.id) is None]
    if pending:
        partner = rig.user(pending[0].members[1])
        if partner is not None:
            await typed(rig, partner, "confirm", {})
            return
    if cup.phase == "registration" and len(free) >= 2 and rng.random() < 0.7:
        captain, partner = rng.sample(free, 2)
        await typed(rig, captain, "register", {"partner": partner})
    elif cup.phase == "registration" and len(cup.teams) < TEAMS:
        level = rng.choice(("easy", "normal"))
        await typed(rig, rig.users[0], "addbots", {"count": TEAMS - len(cup.teams), "level": level})
    else:
        await typed(rig, rig.users[0], "start", {})


async def play_cup(rig: Rig, cup: Cup) -> None:
    """The next move at one of the cup's match tables; time passes when none is live."""
    tables = [t for t in match_tables(rig, cup) if t.match is not None and not t.closed]
    if not tables:
        await rig.tick(rig.rng.choice((1, 6, 31)))
        return
    table = rig.rng.choice(tables)
    await play_on(rig, table, rig.fake.channels[table.channel_id])


def match_tables(rig: Rig, cup: Cup) -> list[Table]:
    tables = rig.live.service.tables
    found = [tables.get(slot.place_id) for slot in cup.slots.values() if not slot.done]
    return [t for t in found if t is not None]


async def typed(rig: Rig, user: User, sub: str, options: dict[str, Any]) -> None:
    """``/shengji tournament sub`` in #general, acknowledged and its answer read (the next
    step builds on what it did)."""
    handle = slash(rig, user, f"shengji tournament {sub}", options, rig.world.general)
    await (await done(rig, handle)).wait_message()


def idle_round(cup: Cup) -> int | None:
    """The number of the cup's round when none of its matches is being played (each one
    decided, or not given its table yet): the cup then has to move on by itself."""
    current = cup.bracket.current if cup.bracket is not None else None
    if cup.phase != "running" or current is None:
        return None
    undecided = [cup.slots.get(slot_key(g)) for g in current.games if g.outcome is None]
    if any(slot is not None and not slot.done for slot in undecided):
        return None
    return current.number


async def cup_moves_on(rig: Rig, wait: float) -> None:
    """A cup none of whose matches is being played opens its round's tables, the next
    round, or its podium, within ``wait`` real seconds; no match has two live tables."""
    cup = rig.live.tournaments.cups.get(rig.world.general.id)
    live = Counter(
        (t.meta["tournament"], t.meta["round"], t.meta["match"])
        for t in rig.tables()
        if "tournament" in t.meta and not t.closed
    )
    twice = [key for key, n in live.items() if n > 1]
    if twice:
        raise Broken(f"(tournament, round, match) with two live tables: {twice}")
    number = None if cup is None else idle_round(cup)
    if cup is None or number is None:
        return
    try:
        await rig.fake.wait_for(lambda: idle_round(cup) != number, timeout=wait)
    except TimeoutError:
        slots = {key: slot.done for key, slot in cup.slots.items()}
        raise Broken(
            f"tournament {cup.id} froze in round {number}: no match played, {wait} s on "
            f"(phase {cup.phase}, slots done {slots}, openings {cup.openings}, "
            f"tasks {[str(t.get_coro()) for t in cup.tasks if not t.done()]})"
        ) from None
