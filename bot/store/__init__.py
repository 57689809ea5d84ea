"""Records, leaderboards and restart-proof tables in one SQLite file.

Only plain data crosses this boundary (``bot.game`` and ``bot.rules`` values and
the dataclasses in ``models``); nothing here knows about Discord::

    store = await Store.open("data/shengji.db")
    table = await store.create_table(guild, channel, host, rules, seed, seats, None, now)
    events = match.apply(seat, action)
    await store.append_action(table, match.seq, seat, action_to_dict(action), now)
    ...
    for live in await store.live_tables():   # after a restart
        match = await store.restore(live)

Schema changes are numbered scripts in ``data/migrations`` applied at ``open``.
"""

from .leases import Lease, LeaseGroup, LeaseKeeper, LeaseLost, table_resource
from .migrations import LATEST_VERSION
from .models import (
    METRICS,
    ConnectionLost,
    GuildSettings,
    HandPlayer,
    HandRecord,
    LeaderRow,
    Leaver,
    LiveTable,
    MatchSummary,
    PlayerStats,
    ReplaySource,
    SeatInfo,
    SequenceError,
    StoreError,
)
from .prefs import UserPrefs
from .restore import restore_match, shard_of
from .simulate import SimulationResult, computer_action, simulate, simulate_into
from .store import Store

__all__ = [
    "LATEST_VERSION",
    "METRICS",
    "ConnectionLost",
    "GuildSettings",
    "HandPlayer",
    "HandRecord",
    "LeaderRow",
    "Lease",
    "LeaseGroup",
    "LeaseKeeper",
    "LeaseLost",
    "Leaver",
    "LiveTable",
    "MatchSummary",
    "PlayerStats",
    "ReplaySource",
    "SeatInfo",
    "SequenceError",
    "SimulationResult",
    "Store",
    "StoreError",
    "UserPrefs",
    "computer_action",
    "restore_match",
    "shard_of",
    "simulate",
    "simulate_into",
    "table_resource",
]
