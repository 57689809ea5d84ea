"""The Discord layer: the ``/shengji`` commands, the component router and the presenter.

Commands are split by job, each module adding to the one ``/shengji`` group of
``cogs.common``: ``lobby`` (open, seat, start, end), ``play`` (hand panel, bids,
/play, hints, 托管), ``settings`` (rules and server settings), ``records``
(leaderboard, stats, history), ``review`` (the post-hand review), ``status`` (the
process, for admins) and ``components`` (routes every button and menu, ids decoded
by ``cogs.ids``). ``presenter`` turns table updates into messages. A feature adds
its own module and lists it in ``COMMAND_MODULES``.
"""

from __future__ import annotations

import importlib

from discord.ext import commands

COMMAND_MODULES = (
    "cogs.lobby",
    "cogs.play",
    "cogs.settings",
    "cogs.records",
    "cogs.tournament",
    "cogs.prefs",
    "cogs.review",
    "cogs.status",
)


async def install(bot: commands.Bot) -> None:
    """Put the ``/shengji`` group and the component router on ``bot``."""
    for name in COMMAND_MODULES:
        importlib.import_module(name)  # each module decorates its commands onto the group
    from .common import refuse_forged_references, shengji
    from .components import Router
    from .prefs import ClientLocales
    from .tournament import TournamentRouter

    bot.tree.add_command(shengji)
    # discord.py reads user, channel and role ids before any command's own check: a
    # forged one is refused here, before it can raise inside the tree
    bot.tree.interaction_check = refuse_forged_references  # type: ignore[method-assign]
    await bot.add_cog(ClientLocales())
    await bot.add_cog(Router())
    await bot.add_cog(TournamentRouter())
