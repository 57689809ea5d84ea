"""How fast a busy bot edits (issue 14): when it counts as crowded, and how long a
table's messages then wait between edits.

Split from ``cogs.outlet`` because this is measured policy, not Discord I/O: each
number below was chosen against ``bench.load_bench`` at hundreds of tables and will
change with the next measurement, while the outlet's requests and its handling of
Discord's refusals do not. Pure: the outlet asks at each edit (a ``LiveMessage``'s
gap) with its own counts, and tests set the numbers on this module.
"""

from __future__ import annotations

#: seconds a turn waits, its panel shown, before the "your turn" DM is posted (``SeatPanels``)
PING_AFTER = 10.0
#: renders queued or running from which the render thread counts as crowded (hundreds of
#: tables at once): the tables' own messages then give way to the players' panels
CROWDED = 16
#: live tables in this process from which it counts as crowded too: the images got cheap
#: enough that the render thread no longer backs up at 400 tables, but sending every
#: table's every edit then kept the bot busy (6.6 requests a play instead of 3.4, ack p99
#: 750 ms, turn p99 2.5 s) and would run far past Discord's global limit of 50 requests a
#: second; past this many tables the tables' own messages give way to the players' panels
CROWDED_TABLES = 100
#: seconds between edits of a waiting player's DM panel in the deal and the bidding,
#: while crowded (bids are made from the panel while the cards arrive)
CROWDED_GAP = 3.0
#: seconds after an edit of a message in a table's place (the deal and table messages)
#: before the next, while crowded: the thread is the spectators' view (the players play
#: from their panels, which carry the trick in words), its picture is redrawn at most
#: every 5 s then (``cogs.handposts.TABLE_PICTURE_EVERY``) and its text went at every
#: other play at 3 s (0.7 of a play's 5 requests at 400 tables); a warning for a player
#: whose DMs are closed is not held back (``HandPosts._show_table``)
CROWDED_PLACE_GAP = 5.0
#: seconds between edits of the DM panel of a player waiting while the tricks are played,
#: while crowded: at hundreds of tables the panel of a player who just played (their hand
#: shrank) and of one waiting (the trick goes on) were edited once or twice more per turn
#: than the panel of the player to act, most of the DM edits; with this gap those states
#: go with the player's next "your turn" panel (it preempts the wait) when turns come
#: round within it. Their play is confirmed at once by its reply, the trick is followed
#: on the table's message; the deal and the bidding keep ``CROWDED_GAP`` (bids are
#: made from the panel while the cards arrive).
CROWDED_PANEL_GAP = 6.0


def crowded(rendering: int, tables: int) -> bool:
    """Renders backing up, or more live tables than the bot edits at full pace."""
    return rendering >= CROWDED or tables >= CROWDED_TABLES


def place_gap(edit_gap: float, crowded: bool) -> float:
    """After an edit of a message in a table's place (the deal and table messages)
    with a newer state waiting: ``edit_gap``, and ``CROWDED_PLACE_GAP`` at least while
    crowded, so that at hundreds of tables the tables' text edits (a request and a
    text each) leave more of the bot to the players' panels; the newest state wins
    at each edit."""
    return max(edit_gap, CROWDED_PLACE_GAP) if crowded else edit_gap


def panel_gap(crowded: bool, playing: bool) -> float:
    """Between two edits of a player's DM panel: none, but while crowded
    ``CROWDED_GAP`` in the deal and bidding and ``CROWDED_PANEL_GAP`` once the
    tricks are played (``playing``); the panel of the player to act (and a click's)
    preempts the wait, so only the panels of players waiting give way."""
    if not crowded:
        return 0.0
    return CROWDED_PANEL_GAP if playing else CROWDED_GAP
