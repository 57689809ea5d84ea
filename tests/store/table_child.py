"""A table process for the crash test: ``python -m tests.store.table_child DB SEED TABLES``.

Opens the store, creates ``TABLES`` live tables on channels 1..TABLES and plays them
with computer players, one action per table in turn, exactly as the service does:
apply, ``append_action`` (committed), ``record_hand`` at each hand's end, and
``save_snapshot`` once the next hand has started. After every commit it prints
``index seq phase hand_no hash`` and flushes, so the parent knows which states
reached the disk before it kills us.
"""

from __future__ import annotations

import asyncio
import random
import sys
import time

from bot.game import Match, action_to_dict
from bot.rules import RuleSet
from bot.store import Store, computer_action

from .helpers import GUILD, HUMANS, state_hash


async def main(path: str, seed: int, count: int) -> None:
    store = await Store.open(path)
    rules = RuleSet()
    tables = []
    for i in range(count):
        match = Match.new(seed + i, rules)
        table = await store.create_table(
            GUILD, 1 + i, 101, rules, seed + i, HUMANS, None, time.time()
        )
        tables.append((table, match, random.Random(seed + i)))
        print(f"table {i} {table}", flush=True)
    while True:
        for i, (table, match, rng) in enumerate(tables):
            step = computer_action(match, rng)
            if step is None:
                continue
            seat, action = step
            events = match.apply(seat, action)
            await store.append_action(table, match.seq, seat, action_to_dict(action), time.time())
            if any(e.kind == "hand_scored" for e in events):
                assert match.result is not None
                await store.record_hand(table, match.result, match.tricks, HUMANS, time.time())
            if any(e.kind == "hand_started" for e in events):
                await store.save_snapshot(table, match.seq, match.to_dict())
            print(f"{i} {match.seq} {match.phase} {match.hand_no} {state_hash(match)}", flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
