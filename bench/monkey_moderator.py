"""A moderator: now and then someone who runs the server changes a table's place mid-game.

One step does one of what a server's moderators do to channels and threads, each a
fake's fault (``fakediscord.world``), aimed at a table that is open now (a tournament's
match tables among them), or at #tables where tables open:

- archive a table's thread, or lock it (the bot without Manage Threads, as the README
  invites it, until a later step gives the bot's permissions in #tables back), or delete
  it: the table closes and its players are told, once (its place is gone: ``cogs.outlet``);
- take the bot's Send Messages in #tables (once in two Send Messages in Threads too, so
  in the tables' threads as well) for a moment of real
  time (0.2-2 s, the computer players moving on meanwhile), then give it back: a table
  that tried to post in that moment closes and says so where it can;
- take its Create Public Threads in #tables for the same moment: a table opened then
  plays in the channel itself.

The bot must ride each out with every invariant kept: nothing logged at ERROR, no error
shown, every interaction answered, no open table frozen past its timer.
"""

from __future__ import annotations

import asyncio

from fakediscord.state import Perm

from .monkey_rig import Rig

ACTS = ("archive", "lock", "delete", "no_send", "no_threads")
MOMENTS = (0.2, 0.5, 1.0, 2.0)  # real seconds a permission stays taken


async def moderate(rig: Rig) -> None:
    rng = rig.rng
    act = rng.choice(ACTS)
    threads = [
        channel
        for table in rig.tables()
        if not table.closed
        and (channel := rig.fake.channels.get(table.channel_id)) is not None
        and channel.is_thread
        and not channel.deleted
    ]
    if act in ("archive", "lock", "delete") and threads:
        thread = rng.choice(threads)
        rig.note(f"a moderator {act}s the thread {thread.name!r}")
        if act == "archive":
            rig.fake.archive_thread(thread, lock=rng.random() < 0.3)
        elif act == "lock":  # the bot as the README invites it: no Manage Threads
            rig.fake.revoke_permissions(rig.world.tables, Perm.MANAGE_THREADS)
            rig.fake.lock_thread(thread)
        else:
            rig.fake.delete_channel(thread)
        return
    if act not in ("no_send", "no_threads"):  # no thread to act on: a permission
        act = rng.choice(("no_send", "no_threads"))
    perm = Perm.CREATE_PUBLIC_THREADS if act == "no_threads" else Perm.SEND_MESSAGES
    if act == "no_send" and rng.random() < 0.5:
        perm |= Perm.SEND_MESSAGES_IN_THREADS
        act = "no_send_anywhere"
    moment = rng.choice(MOMENTS)
    rig.note(f"a moderator takes the bot's {act} in #tables for {moment} s")
    rig.fake.revoke_permissions(rig.world.tables, perm)
    try:
        await asyncio.sleep(moment)
    finally:
        rig.fake.restore_permissions(rig.world.tables)
