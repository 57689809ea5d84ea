"""The hand's messages in the table's place: the deal message, the table message, the summary.

Which of them an update redraws, and when, is ``cogs.presenter``'s; this room draws them:
the deal message (the deal, the bids in order or the kitty draw, the trump, the burial,
the overcall round) redrawn at most every ``DEAL_EDIT_EVERY`` seconds while cards are
dealt, the one table message of a hand (the current trick as a picture, and the strip),
whose picture gives way first under load, and the hand's summary with the kitty (see
``cogs.presenter`` for the budget of messages a hand and the pacing under load).
"""

from __future__ import annotations

import asyncio
import functools
from typing import Any

from bot.game import SeatView
from bot.service import Table, Update
from bot.store import UserPrefs
from renderers import render_kitty, render_summary, render_table

from .live import ready
from .messages import (
    deal_content,
    last_trick_scene,
    old_panel_line,
    summary_content,
    summary_scenes,
    table_content,
    table_scene,
)
from .review import review_buttons
from .tableview import names_of, png, table_buttons
from .turnnotices import TurnNotices

DEAL_EDIT_EVERY = 2.5  # seconds between deal-progress redraws of the deal message and panels
#: seconds between the deal's progress redraws (the deal message and the players' panels)
#: while crowded (``cogs.pacing``), instead of ``DEAL_EDIT_EVERY``: each redraw was a new
#: hand image and a DM edit for every human, six or seven a hand each before any card is
#: played. A player whose panel would offer other bids (a card they may bid with arrived)
#: is not kept waiting: their panel is redrawn at that deal step (``_refresh_panels``)
CROWDED_DEAL_EVERY = 6.0
#: with the render thread crowded (``cogs.pacing.CROWDED``: hundreds of tables), the table
#: message's picture is redrawn at most every TABLE_PICTURE_EVERY seconds
TABLE_PICTURE_EVERY = 5.0


class HandPosts(TurnNotices):
    """The deal, table and summary messages of the hand under way."""

    def _show_deal(self, table: Table, update: Update, *, force: bool) -> bool:
        """The deal message: the deal, the bids in order, then the trump and the bury.

        Deal progress redraws at most every ``DEAL_EDIT_EVERY`` seconds (while crowded
        ``CROWDED_DEAL_EVERY``); returns whether it redrew (the hand panels
        follow the same pace).
        """
        public = update.public
        ui = self.ui(table)
        if public is None:
            return False
        loop = asyncio.get_running_loop()
        done = public.dealt >= public.deal_total
        every = CROWDED_DEAL_EVERY if self.crowded() else DEAL_EDIT_EVERY
        if not force and not done and loop.time() - ui.deal_edited < every:
            return False
        ui.deal_edited = loop.time()
        if ui.deal is None:
            ui.deal = self._hand_live(table, public.hand_no, "deal")
        loc = self.locale(table)
        names = names_of(update.seats)
        content = deal_content(public, names, update.deadline, loc)
        # the buttons are on the hand's newest message: here until the table message
        buttons = table_buttons(table.id, table.rules.assistance, loc) if ui.table is None else None
        ui.deal.show(functools.partial(ready, {"content": content, "view": buttons}))
        return True

    def _show_table(self, table: Table, update: Update, extra: str = "") -> None:
        """The hand's one table message: the trick image and the strip, edited in place."""
        public = update.public
        if public is None or public.trump is None:
            return
        ui = self.ui(table)
        if ui.table is None:
            ui.table = self._hand_live(table, public.hand_no, "table")
            if ui.deal is not None:  # its buttons move to the table message
                ui.deal.amend({"view": None})
        names = names_of(update.seats)
        loc = self.locale(table)
        seats, notes, closed = tuple(table.seats), tuple(ui.trick_notes), set(ui.dm_closed)

        async def build() -> dict[str, Any]:
            # Made here, for a state that is sent: a busy table's edits are coalesced
            # and most of its states are replaced before they go (the inputs are
            # this moment's, copied above).
            content = table_content(
                public,
                names,
                seats,
                notes=notes,
                dm_closed=closed,
                deadline=update.deadline,
                played_for=update.actor if update.auto else None,
                extra=extra,
                loc=loc,
            )
            buttons = table_buttons(table.id, table.rules.assistance, loc)
            kwargs: dict[str, Any] = {"content": content, "view": buttons}
            # A busy render thread (many tables) redraws the picture only when a
            # trick is complete; the text, always current, carries the plays between.
            # A crowded one (hundreds of tables) at most every TABLE_PICTURE_EVERY s.
            # The scene is made only for a picture drawn (most edits under load have none).
            now = asyncio.get_running_loop().time()
            final = not public.trick and bool(public.tricks)  # the scene shows a finished trick
            paced = self.crowded() and now - ui.table_drawn < TABLE_PICTURE_EVERY
            busy = self.rendering > 0 and not (final and not paced)
            scene = None if busy and ui.table_image else table_scene(public, names, loc)
            if scene is not None:
                ui.table_image = True
                ui.table_drawn = now
                tricks = (scene.trick, scene.last) if scene.last else (scene.trick,)
                shown = [c for trick in tricks for cards in trick.plays.values() for c in cards]
                image = await self.render(
                    render_table, scene, None, shown, loc, table=table, hand=public.hand_no
                )
                kwargs["files"] = [png(image, "table.png")]
            return kwargs

        ui.table.show(build, preempt=bool(extra))  # a warning (DMs closed) is not held back

    async def _summary(self, table: Table, update: Update) -> None:
        """The hand's summary in the thread; the hand's panels shrink to its result now,
        not at the next hand: until then they would show a finished trick's "waiting"."""
        public = update.public
        assert public is not None and public.last_result is not None
        ui = self.ui(table)
        if ui.table is not None:
            await ui.table.settle()
        result = public.last_result
        await self._collapse_panels(
            table, functools.partial(old_panel_line, public.hand_no + 1, result)
        )
        names = names_of(update.seats)
        loc = self.locale(table)
        scene, kitty = summary_scenes(result, public, names, loc)
        hand = result.hand_no
        summary_png = await self.render(
            render_summary, scene, None, [], loc, table=table, hand=hand
        )
        kitty_png = await self.render(
            render_kitty, kitty, None, list(result.kitty), loc, table=table, hand=hand
        )
        extra: dict[str, Any] = {}
        if table.rules.assistance == "full":  # seed 000's rules allow no looking back
            extra["view"] = review_buttons(table.id, result.hand_no, loc)
        await self._post(
            table,
            content=summary_content(result, names, update.deadline, loc),
            files=[png(summary_png, "summary.png"), png(kitty_png, "kitty.png")],
            **extra,
        )

    async def last_trick_image(
        self, table: Table, view: SeatView, loc: object, prefs: UserPrefs
    ) -> bytes | None:
        """The last trick for one viewer (an ephemeral reply), labelled in their language
        and drawn as they chose (theme, four colours)."""
        scene = last_trick_scene(view, names_of(tuple(table.seats)), loc)
        if scene is None:
            return None
        shown = [c for cards in scene.trick.plays.values() for c in cards]
        return await self.render(
            render_table, scene, None, shown, loc, prefs, table=table, hand=view.hand_no
        )
