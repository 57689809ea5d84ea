"""Computer players on the leaderboards: each level plays at its own fixed rating, and
only people are ranked."""

from __future__ import annotations

from bot.rules import RuleSet
from bot.store import SeatInfo, Store

from .helpers import GUILD, HUMANS


async def test_a_win_beside_an_easy_partner_counts_more_than_beside_an_expert(
    store: Store,
) -> None:
    ann, bo, _, di = HUMANS
    ed, fay, gus = (
        SeatInfo.human(105, "Ed"),
        SeatInfo.human(106, "Fay"),
        SeatInfo.human(107, "Gus"),
    )
    for channel, level, (first, second, fourth) in (
        (1, "easy", (ann, bo, di)),
        (2, "expert", (ed, fay, gus)),
    ):
        seats = [first, second, SeatInfo.bot(f"Bot {level}", level), fourth]
        table = await store.create_table(GUILD, channel, 1, RuleSet(), 1, seats, 0, 0.0)
        await store.record_match_end(table, 0, 1.0)  # seats 0 and 2 win
    with_easy = await store.player_stats(GUILD, 101)
    with_expert = await store.player_stats(GUILD, 105)
    assert with_easy is not None and with_expert is not None
    # the weaker the partner, the more of the win is the person's
    assert with_easy.mu > with_expert.mu
    # the computer players hold no row: the leaderboards list people only
    board = await store.leaderboard(GUILD, "rating", limit=50)
    assert {row.user_id for row in board} == {101, 102, 104, 105, 106, 107}
    assert not any(row.name.startswith("Bot") for row in board)
