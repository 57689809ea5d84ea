"""The one ``/shengji`` group every command module adds to, and what they share.

Each module of ``cogs`` (lobby, play, settings, records, and those other features
add) decorates its commands with ``@shengji.command``; ``cogs.install`` puts the
group on the bot's command tree once. Commands reach the table service and the
presenter through ``deps(interaction)``, i.e. through the client that received
the interaction, so the modules hold no state and several bots in one process
(the tests) never share a table.

Errors: a ``UserError`` from the service becomes its message as an ephemeral
reply; anything else is logged and the user gets a short apology. No traceback
ever reaches a user.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Collection, Coroutine, Iterable
from typing import TYPE_CHECKING, Any, Protocol, cast

import aiohttp
import discord
from discord import app_commands

from bot.service import UserError, store_passing

from .lang import error_text, say
from .live import LiveMessage, retried
from .options import forged_option, forged_reference
from .respond import ALREADY_ACKNOWLEDGED, defer_thinking, follow_up, send_callback

if TYPE_CHECKING:
    from bot.service import TableService
    from bot.tournament.service import TournamentService

    from .cupview import TournamentPresenter
    from .presenter import Presenter

# Discord's codes for a thread that takes no more of the bot's messages: archived, and
# locked (the bot may not manage threads: the permissions the README asks for)
THREAD_SHUT = (50083, 160005)
log = logging.getLogger("cogs")


class Deps(Protocol):
    """What a command needs from the client: the composition root provides it."""

    service: TableService
    presenter: Presenter
    tournaments: TournamentService
    tournament_presenter: TournamentPresenter


class CheckedGroup(app_commands.Group):
    """A group whose commands pass ``_not_too_fast`` first. discord.py runs only the
    nearest parent's check, so a nested group (``/shengji tournament``) is one too."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return await _not_too_fast(interaction)


shengji = CheckedGroup(
    name="shengji",
    description="Play 双升 (Shengji / Tractor) at this table",
    guild_only=True,
)


class Refused(app_commands.CheckFailure):
    """A command refused before it runs (too many too fast); ``original`` says why."""

    def __init__(self, original: UserError) -> None:
        super().__init__(str(original))
        self.original = original


class TooLate(app_commands.CheckFailure):
    """Acknowledged after Discord's three seconds (a bot too busy to answer in time): the
    interaction is gone, so the command does not run and nothing can be answered; Discord
    told the player it failed, and they try again. A warning, not a traceback."""


class Unacknowledged(app_commands.CheckFailure):
    """The acknowledgement itself failed: its connection dropped twice, or the bot is
    shutting down under it. Raised from the check as discord.py's own kind, so it reaches
    the command's error handler (anything else would end discord.py's task unretrieved),
    which treats ``original`` as it treats a command's failure (``handler_failed``)."""

    def __init__(self, original: Exception) -> None:
        super().__init__(repr(original))
        self.original = original


BAD_VALUE = "That didn't work: that value or button isn't one this command accepts."

# commands that touch the store (by qualified name, without "shengji "), and every
# /shengji tournament subcommand (each writes or renders before it answers): acknowledged
# before the store is (a slow write must not make Discord say "This interaction failed"
# for a change that was made; a read waiting behind a locked database must not either),
# then answered through the follow-up (``reply``). Their answers are ephemeral but the
# leaderboard's (``PUBLIC``): it is posted for the channel, and so are its refusals ("no
# finished hands yet"), since the first follow-up takes the acknowledgement's visibility.
DEFERRED = frozenset(
    {"new", "join", "leave", "addbot", "kick", "start", "abort", "play", "auto"}
    | {"settings", "prefs", "rules", "leaderboard", "stats", "history", "status"}
)
PUBLIC = frozenset({"leaderboard"})


def _deferred(name: str) -> bool:
    return name in DEFERRED or name.startswith("tournament ")


async def _not_too_fast(interaction: discord.Interaction) -> bool:
    """Every /shengji command counts against its user's limit (``Limits.commands``).

    A forged option value (``options.forged_option``) is refused before anything runs.
    """
    try:
        deps(interaction).service.note_command(interaction.user.id)
    except UserError as err:
        raise Refused(err) from None
    command = interaction.command
    if isinstance(command, app_commands.Command) and forged_option(command, interaction.data):
        raise Refused(UserError(BAD_VALUE, key="reply-bad-value"))
    name = "" if command is None else command.qualified_name.removeprefix("shengji ")
    if _deferred(name):
        try:  # one plain request (``cogs.respond``)
            await defer_thinking(interaction, ephemeral=name not in PUBLIC)
        except discord.NotFound as err:  # past Discord's 3 s: the interaction is gone
            raise TooLate(str(err)) from None
        except (aiohttp.ClientError, RuntimeError) as err:  # RuntimeError: "Session is closed"
            raise Unacknowledged(err) from None
    return True


async def refuse_forged_references(interaction: discord.Interaction) -> bool:
    """The command tree's check: a forged user, channel or role id gets the short "that
    didn't work" (``options.forged_reference``), and the command does not run; a forged
    autocompletion is left unanswered (it can only be answered with choices)."""
    kinds = (discord.InteractionType.application_command, discord.InteractionType.autocomplete)
    if interaction.type not in kinds or not forged_reference(interaction.data):
        return True
    if interaction.type is discord.InteractionType.application_command:
        junk = UserError(BAD_VALUE, key="reply-bad-value")
        await reply(interaction, await error_text(interaction, junk))
    return False


#: what ``Deps`` asks of a client (``isinstance`` against a runtime-checkable protocol
#: collects these names anew at every call: a few times per interaction, under load)
DEPS = tuple(Deps.__annotations__)


def deps(interaction: discord.Interaction) -> Deps:
    client = interaction.client
    if not all(hasattr(client, name) for name in DEPS):  # only a wired client has them
        raise TypeError(f"{type(client).__name__} does not provide the table service")
    return cast(Deps, client)


#: Discord's error code for a thread asked of a message that already has one
THREAD_ALREADY_CREATED = 160004


async def thread_from(channel: Any, message_id: int, name: str) -> int:
    """The thread opened from a message of ``channel``; its id, which is the message's.

    A thread takes its starter message's id, so a caller that saved the message's id
    first knows the thread even if it stopped before hearing back: asked again, Discord
    answers that the message already has a thread, and that thread is the answer. The
    same makes asking again safe when the connection dropped under the request
    (``live.retried``): whether or not it was made, one thread comes of it.
    """
    message = channel.get_partial_message(message_id)
    # a week, Discord's longest: idle that long (a lobby nobody came to), a table's
    # thread is archived and the table closes; a day closed lobbies left overnight
    opening = functools.partial(message.create_thread, name=name[:100], auto_archive_duration=10080)
    try:
        thread = await retried(opening, f"thread {message_id}")
    except discord.HTTPException as err:
        if err.code == THREAD_ALREADY_CREATED:
            return message_id
        raise
    return int(thread.id)


def in_background(keeping: set[asyncio.Task[None]], work: Coroutine[Any, Any, None]) -> None:
    """Run ``work`` without waiting for it; its task is held in ``keeping`` until done,
    since the event loop keeps only a weak reference to a task."""
    task = asyncio.get_running_loop().create_task(work)
    keeping.add(task)
    task.add_done_callback(keeping.discard)


async def finished(
    timeout: float | None,
    *,
    lives: Iterable[LiveMessage] = (),
    keeping: Collection[asyncio.Task[None]] = (),
) -> None:
    """At a stop, before the connection or the store they use closes: wait, ``timeout``
    seconds at most, for the requests of ``lives`` on their way (stopped, they send no
    more), then for the work started ``in_background`` with ``keeping``."""

    async def settled() -> None:
        await asyncio.gather(*(live.settle() for live in lives))
        if keeping:
            await asyncio.wait(set(keeping))

    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(settled(), timeout)


def ephemeral(text: str) -> dict[str, Any]:
    return {"content": text[:2000], "ephemeral": True}


async def reply(interaction: discord.Interaction, text: str) -> None:
    """An ephemeral answer, whether or not the interaction was acknowledged already."""
    try:
        if not interaction.response.is_done() and await _respond(interaction, text):
            return
        await follow_up(interaction, text[:2000], ephemeral=True)
    except (discord.HTTPException, aiohttp.ClientError):
        log.warning("could not answer interaction %s", interaction.id)
    except RuntimeError:  # "Session is closed": the bot is shutting down under the answer
        if not interaction.client.is_closed():
            raise
        log.warning("shutting down: interaction %s not answered", interaction.id)


async def _respond(interaction: discord.Interaction, text: str) -> bool:
    """Answer as the interaction's response; False when the bot could not know it was
    acknowledged already (an acknowledgement whose connection dropped had landed: Discord
    says so), and the answer must follow instead. A response whose own connection dropped
    is sent again: "acknowledged already" then means the lost one had landed."""
    answer = functools.partial(interaction.response.send_message, **ephemeral(text))
    try:
        await send_callback(answer)
    except discord.HTTPException as err:
        if err.code != ALREADY_ACKNOWLEDGED:
            raise
        return False
    return True


def cut_off(interaction: discord.Interaction, what: str) -> bool:
    """Whether the bot is shutting down under an interaction that then failed: what it
    did is committed, but its answer can no longer go out (the HTTP session and the
    store are closing), so it is a line, not a traceback. A command's and a click's
    alike: a click answered as a deploy stops the bot is as ordinary as a command."""
    if not interaction.client.is_closed():
        return False
    log.warning("%s not answered: the bot is shutting down", what)
    return True


async def connection_lost(interaction: discord.Interaction, what: str, err: BaseException) -> bool:
    """Whether an interaction failed because a request to Discord lost its connection
    (aiohttp's ``ServerDisconnectedError`` on a keep-alive connection Discord closed, a
    reset): Discord's weather, not a bug, so a warning line, not a traceback. Whatever
    the command did is committed or not by then, and its answer is lost; the person is
    told so once more, in a new request, rather than left with "thinking…" or a
    "something went wrong" that would blame the bot. discord.py retries none of these:
    a post may have been made before its connection failed, so the command is not run
    again."""
    if not isinstance(err, aiohttp.ClientError):
        return False
    log.warning("%s: its answer was lost on the way to Discord (%r)", what, err)
    await reply(interaction, await say(interaction, "reply-connection-lost"))
    return True


def place_shut(what: str, err: BaseException) -> bool:
    """Whether Discord refused an answer because its thread was locked or archived after
    the acknowledgement: Discord refuses any answer there, and the person's client shows
    "thinking" for good (discord/discord-api-docs#6884). A line, not a traceback."""
    if not isinstance(err, discord.HTTPException) or err.code not in THREAD_SHUT:
        return False
    log.warning("%s: Discord refused the answer, its thread shut: %s", what, err)
    return True


async def store_busy(interaction: discord.Interaction, what: str, err: BaseException) -> bool:
    """Whether the store refused a write in passing outside a table's own writes (which
    pause the table): another process holding SQLite's lock, a full disk, a dropped
    database connection. A warning, and the person reads that it was not saved."""
    if not store_passing(err):
        return False
    log.warning("%s: the store refused it in passing (%r)", what, err)
    await reply(interaction, await say(interaction, "service-not-saved"))
    return True


async def handler_failed(interaction: discord.Interaction, where: str, err: BaseException) -> None:
    """The last word on an interaction whose handler raised something unforeseen: a line
    when the bot is shutting down, Discord dropped the answer or the store was busy, else
    a traceback in the log and "something went wrong" to the person (what it did is
    committed or not; the game is safe either way)."""
    if cut_off(interaction, where) or place_shut(where, err):
        return
    if await connection_lost(interaction, where, err):
        return
    if await store_busy(interaction, where, err):
        return
    log.error("%s failed", where, exc_info=err)
    await reply(interaction, await say(interaction, "reply-failed"))


def is_admin(interaction: discord.Interaction) -> bool:
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and (perms.administrator or perms.manage_guild))


def name_of(user: discord.abc.User) -> str:
    return (getattr(user, "display_name", None) or user.name)[:32]


def place_of(interaction: discord.Interaction) -> int:
    """The channel whose table a command is about (a table's thread counts as its channel)."""
    return deps(interaction).service.channel_of(interaction.channel_id or 0)


@shengji.error
async def on_command_error(
    interaction: discord.Interaction, error: app_commands.AppCommandError
) -> None:
    original = getattr(error, "original", error)
    if isinstance(original, UserError):
        await reply(interaction, await error_text(interaction, original))
        return
    if isinstance(error, Unacknowledged):
        await handler_failed(interaction, f"command {interaction.id}", error.original)
        return
    if isinstance(error, TooLate):
        log.warning("interaction %s acknowledged too late, not run: %s", interaction.id, error)
        return
    if isinstance(error, app_commands.CheckFailure):
        await reply(interaction, await say(interaction, "reply-no-permission"))
        return
    await handler_failed(interaction, f"command {interaction.id}", original)
