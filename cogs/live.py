"""Messages edited in place, with edits coalesced: the Discord I/O of the presenter.

A ``LiveMessage`` is one message the bot keeps current (the lobby, a hand's deal and
table messages, a player's hand panel). ``show`` hands it a builder for the newest
state; at most one request for the message is in flight, and while it is, newer states
replace each other, so when plays come faster than Discord accepts edits only the latest
state is drawn and sent. ``gap`` spaces a message's edits: after an edit the next waits
``gap`` seconds (a function gives it as things stand), so a message is edited at most
once a gap (Discord allows about five edits per five seconds in a channel); a
``preempt`` state (the panel of the player to act) ends that wait at once. The builder
runs just before sending, so a superseded state is never rendered at all.

The first ``show`` posts the message; an edit refused because the message was deleted
posts it again. A builder may name its files with ``files_key`` (compared with ``==``,
say the image's bytes): an edit whose key equals the one last sent leaves the
attachments as they are instead of uploading the same picture again, and ``on_sent``
(a function) is called once the state is through. ``on_posted`` is told the id of each
message posted: the presenter keeps a hand's messages' ids with the table, so a
restarted bot edits them. Discord errors never escape: ``on_error`` decides (the
presenter closes the table when its place is gone, or marks DMs closed); it returns True
when the target refuses for good, and the message then stops (told, not reaching back
into the message: a callback holding its message would make every DM message a cycle
left to the garbage collector). An edit goes out through ``cogs.leanedit``, which does
not parse Discord's reply.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import aiohttp
import discord
import discord.http

from .leanedit import edit_message

log = logging.getLogger(__name__)
R = TypeVar("R")

# a 429 that outlasts discord.py's own five retries: tried again after these waits (s)
RATE_LIMIT_WAITS = (1.0, 2.0, 4.0)
# a request whose connection dropped (aiohttp's ServerDisconnectedError on a keep-alive
# connection Discord closed, a reset, a timeout) is tried again after these waits when
# that is safe: an edit, or a post Discord keeps once by its nonce; the newest state
# goes, so a hand's last state is not left unshown until the next play
NETWORK_WAITS = (0.5, 2.0, 5.0)
#: what a request whose connection failed raises (discord.py retries none of them)
NETWORK_ERRORS = (aiohttp.ClientError, OSError, TimeoutError)


def retry_wait(err: discord.HTTPException, attempt: int) -> float | None:
    """Seconds before trying again a request refused with ``err``, or None to give up."""
    if err.status != 429 or attempt >= len(RATE_LIMIT_WAITS):
        return None
    return RATE_LIMIT_WAITS[attempt]


Build = Callable[[], Awaitable[dict[str, Any] | None]]
#: where a message lives: a channel, a thread or a DM, each able to address a message by id
Place = (
    discord.TextChannel
    | discord.Thread
    | discord.DMChannel
    | discord.VoiceChannel
    | discord.StageChannel
    | discord.PartialMessageable
)
Target = Callable[[], Awaitable[Place]]
#: told of a refusal; True: the target refuses for good (closed DMs), the message stops
OnError = Callable[[discord.HTTPException], Awaitable[bool | None]]


#: the longest nonce Discord takes (characters)
NONCE_MAX = 25


async def retried(call: Callable[[], Awaitable[R]], what: str) -> R:
    """``call()``, made again after each of ``NETWORK_WAITS`` while its connection fails;
    the last failure raises. Only for a request that is safe to repeat (an edit, a post
    under a nonce, a thread asked of a message)."""
    for wait in NETWORK_WAITS:
        try:
            return await call()
        except NETWORK_ERRORS as err:
            log.info("%s not sent (%r): trying again", what, err)
            await asyncio.sleep(wait)
    return await call()


async def send_once(target: Target, kwargs: dict[str, Any]) -> discord.Message | None:
    """Post one message that is not kept current (a summary, a notice, a DM), riding out
    a dropped connection as a ``LiveMessage`` does: under a nonce Discord enforces, it is
    tried again (``retried``) without a risk of two. After the last wait it is given up
    with a warning (None): the caller must go on to its next update. Discord's refusals
    (``discord.HTTPException``) are the caller's to judge."""
    nonce = f"sj{secrets.token_hex(8)}"
    post = {**kwargs, "nonce": nonce}

    async def send() -> discord.Message:
        for file in post.get("files", ()):
            file.reset()  # its bytes were read by a failed attempt
        channel = await target()
        return await channel.send(**post)

    try:
        return await retried(send, f"message {nonce}")
    except NETWORK_ERRORS as err:
        log.warning("message %s not sent (%r)", nonce, err)
        return None


#: marks a state that only changes the message (``LiveMessage.amend``): never posted anew
PARTIAL = "partial"


def as_edit(kwargs: dict[str, Any]) -> dict[str, Any]:
    """Message kwargs for ``send`` turned into kwargs for ``edit`` (files become attachments)."""
    out = dict(kwargs)
    out.pop(PARTIAL, None)
    files = out.pop("files", None)
    if files is not None:
        out["attachments"] = files
    out.pop("allowed_mentions", None)
    return out


class LiveMessage:
    """One message kept showing the latest state it was given."""

    def __init__(
        self,
        target: Target,
        *,
        gap: float | Callable[[], float] = 0.0,
        on_error: OnError | None = None,
        message_id: int | None = None,
        on_posted: Callable[[int], None] | None = None,
    ) -> None:
        self.target = target
        # posts carry it (and their count), to be posted once even when sent again: its own,
        # unless the caller gives one that outlives the process (a hand's messages)
        self.nonce = f"sj{secrets.token_hex(8)}"
        self.gap = gap
        self.on_error = on_error
        self.message_id = message_id
        self.on_posted = on_posted
        self.posts = 0
        self._earlier = False  # the last post gave back an earlier message (its nonce)
        self.stopped = False  # the target refuses for good (DMs closed), or ``stop``
        self._files_key: object = None  # what the message's attachments show, if named
        self._latest: Build | None = None
        self._changes: dict[str, Any] = {}  # ``amend``'s, carried by every state sent
        self._alone: Build | None = None  # the edit of only those changes, while waiting
        self._task: asyncio.Task[None] | None = None
        self._building: asyncio.Future[dict[str, Any] | None] | None = None
        self._urgent = False  # a preempting state was shown: it ends the wait between edits
        self._resting: asyncio.Future[None] | None = None  # that wait, while it lasts
        self._retrying = False  # the wait is a retry's (a preempting state does not end it)
        self._flushed = True  # the latest state is sent (or none was shown): only the gap is left
        self._settling: list[asyncio.Future[None]] = []  # ``settle`` calls waiting for that

    def show(self, build: Build, *, preempt: bool = False) -> None:
        """Make ``build``'s state the one to show next (replacing any not yet sent).

        ``preempt``: a state someone is waiting for (the panel of the player to
        act). An older state still being built (its render queued behind others)
        is abandoned rather than waited for. Only such states preempt, so a
        message shown faster than it can be built still gets sent.
        """
        self._latest = build
        self._flushed = False
        if preempt:
            self._urgent = True
            if self._resting is not None and not self._retrying:
                _wake(self._resting)
            if self._building is not None:
                self._building.cancel()
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())

    def amend(self, changes: dict[str, Any]) -> None:
        """Send ``changes`` (``{"view": None}``: the buttons go) with every state from now
        on: with the one waiting, not over it (which would drop it: a trick's last play),
        else alone as an edit of the message as it stands; nothing if never posted."""
        self._changes = {**self._changes, **changes}
        idle = self._task is None or self._task.done()
        if self._latest is None and (self.message_id is not None or not idle):
            self._alone = functools.partial(ready, {PARTIAL: True})
            self.show(self._alone)

    def _again(self, build: Build) -> None:
        """Send ``build``'s state again, unless a newer one (not only changes) waits."""
        if self._latest is None or self._latest is self._alone:
            self._latest = build

    def stop(self) -> None:
        """Send nothing more: the states queued, and the one being built, are dropped, and
        the wait before the next edit ends; only a request already on its way is answered
        (what ``settle`` then waits for, at a shutdown)."""
        self.stopped = True
        self._latest = None
        if self._building is not None:
            self._building.cancel()
        if self._resting is not None:
            _wake(self._resting)

    async def settle(self) -> None:
        """Wait until the latest state has been sent (or has failed), not for the gap
        after it: a plain future woken by ``_run``, not ``asyncio.wait`` on an event's
        task and the message's (a task, two callbacks and a set at every human turn)."""
        while self._task is not None and not self._task.done() and not self._flushed:
            waiter = asyncio.get_running_loop().create_future()
            self._settling.append(waiter)
            await waiter

    def _failed(self, err: Exception) -> None:
        """Log a state (or its refusal's handling) that failed, in its ``except`` block: at
        shutdown as a line of its own, else with the traceback. Never raised: it would end
        this message's task with nothing to retrieve its exception."""
        if self.stopped or (isinstance(err, RuntimeError) and "closed" in str(err)):
            log.info("live message %s dropped at shutdown", self.message_id)  # still queued
        else:
            log.exception("live message %s failed", self.message_id)

    def _wake_settling(self) -> None:
        waiters, self._settling = self._settling, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

    async def _run(self) -> None:
        try:
            await self._edits()
        finally:  # stopped, failed or cancelled: nothing to wait for any more
            self._wake_settling()

    async def _edits(self) -> None:
        refused = 0  # 429s in a row that outlasted discord.py's own retries
        dropped = 0  # requests in a row whose connection failed
        while self._latest is not None and not self.stopped:
            build, self._latest = self._latest, None
            self._urgent = False  # one shown while this is built or sent ends the gap after it
            try:
                self._building = asyncio.ensure_future(build())
                try:
                    kwargs = await self._building
                except asyncio.CancelledError:
                    task = asyncio.current_task()
                    if self._building.cancelled() and not (task and task.cancelling()):
                        continue  # preempted by a newer state: build that one instead
                    raise
                finally:
                    self._building = None
                if kwargs is not None and not self.stopped:
                    await self._send({**kwargs, **self._changes})
                if self._earlier:  # an earlier post came back: this state again, as an edit
                    self._earlier = False
                    self._again(build)
                refused = dropped = 0
            except discord.HTTPException as err:
                wait = None if self.stopped else retry_wait(err, refused)
                if wait is not None:  # rate limited: this state again, unless a newer one came
                    refused += 1
                    self._again(build)
                    await self._rest(wait, retry=True)
                elif err.status >= 500 and await self._dropped(build, dropped, err):
                    dropped += 1  # a 503 (discord.py tries none again), as a dropped connection
                elif self.on_error is not None:
                    try:
                        self.stopped = bool(await self.on_error(err)) or self.stopped
                    except Exception as failed:  # its own post failed: the client closing
                        self._failed(failed)
                else:
                    log.warning("live message %s: %s", self.message_id, err)
            except NETWORK_ERRORS as err:
                if await self._dropped(build, dropped, err):
                    dropped += 1
                else:
                    log.warning("live message %s not sent: %r", self.message_id, err)
            except Exception as err:
                self._failed(err)
            if self._latest is None:
                self._flushed = True
                self._wake_settling()
            gap = self.gap() if callable(self.gap) else self.gap
            if gap > 0 and not self.stopped and not self._urgent:
                # at most one edit a gap, unless the player to act is waiting for this one
                await self._rest(gap)

    async def _dropped(self, build: Build, dropped: int, err: Exception) -> bool:
        """After the ``dropped``-th failure in a row of a request that may be sent again:
        the state again (unless a newer one came) after the next of ``NETWORK_WAITS``."""
        if not self._repeatable() or dropped >= len(NETWORK_WAITS) or self.stopped:
            return False
        log.info("live message %s not sent (%r): trying again", self.message_id, err)
        self._again(build)
        await self._rest(NETWORK_WAITS[dropped], retry=True)
        return True

    async def _rest(self, gap: float, *, retry: bool = False) -> None:
        """Wait ``gap`` seconds, or until a preempting state is shown (not in a ``retry``'s
        wait: it would be refused again) or ``stop``: a future and a timer, not ``wait_for``
        (a task, a timeout and a cancellation at every edit)."""
        loop = asyncio.get_running_loop()
        self._resting = resting = loop.create_future()
        self._retrying = retry
        timer = loop.call_later(gap, _wake, resting)
        try:
            await resting
        finally:
            timer.cancel()
            self._resting = None

    def _repeatable(self) -> bool:
        """Whether sending again is safe: an edit, or a post Discord keeps once by its nonce."""
        return self.message_id is not None or self._post_nonce() is not None

    def _post_nonce(self) -> str | None:
        """The next post's nonce: with the count of posts, so a message deleted by someone
        is posted anew; none when too long (Discord would refuse the message itself)."""
        nonce = f"{self.nonce}.{self.posts}"
        return nonce if len(nonce) <= NONCE_MAX else None

    async def _send(self, kwargs: dict[str, Any]) -> None:
        sent = kwargs.pop("on_sent", None)
        await self._post_or_edit(kwargs)
        if sent is not None and not self._earlier:
            sent()

    async def _post_or_edit(self, kwargs: dict[str, Any]) -> None:
        key = kwargs.pop("files_key", None)
        channel = await self.target()
        if self.message_id is not None:
            edit = as_edit(kwargs)
            if key is not None and key == self._files_key:
                edit.pop("attachments", None)  # the same picture is already there
            self._files_key = None  # unknown until this edit is through
            try:
                await edit_message(channel, self.message_id, edit)
                self._files_key = key if "files" in kwargs else None
                return
            except discord.NotFound:
                self.message_id = None  # deleted by someone: post it again
        if kwargs.pop(PARTIAL, False):
            return  # only a change to a message that is not there (``amend``)
        self._files_key = None
        # with a nonce Discord enforces, a post made before (by a bot that crashed before
        # it could keep the message's id, or whose connection dropped) comes back instead
        # of a second message
        nonce = self._post_nonce()
        post: dict[str, Any] = kwargs if nonce is None else {**kwargs, "nonce": nonce}
        message = await channel.send(**post)
        self.posts += 1
        self.message_id = message.id
        if self.on_posted is not None:
            self.on_posted(message.id)
        if (
            nonce is not None
            and message.content.strip() != str(kwargs.get("content", message.content)).strip()
        ):
            self._earlier = True  # that earlier post, showing an earlier state
            return
        self._files_key = key if "files" in kwargs else None

    async def delete(self) -> None:
        """Delete the message (if it was posted); a message already gone is fine. A
        dropped connection is tried again (``retried``: a repeated delete finds it gone),
        then given up with a warning: the caller (a closing table, a turn notice) goes on."""
        await self.settle()
        if self.message_id is None:
            return
        message_id, self.message_id = self.message_id, None

        async def delete() -> None:
            channel = await self.target()
            await channel.get_partial_message(message_id).delete()

        try:
            await retried(delete, f"the deletion of message {message_id}")
        except discord.NotFound:
            pass
        except (discord.HTTPException, *NETWORK_ERRORS) as err:
            log.warning("could not delete message %s: %r", message_id, err)


def _wake(resting: asyncio.Future[None]) -> None:
    if not resting.done():
        resting.set_result(None)


async def ready(kwargs: dict[str, Any]) -> dict[str, Any]:
    """A builder for a state that needs no rendering."""
    return kwargs
