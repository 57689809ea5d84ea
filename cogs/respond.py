"""The two requests every deferred ``/shengji`` command makes, each as one plain POST.

Issue 14 (load): a command such as ``/shengji play`` is acknowledged as "thinking"
(``cogs.common._not_too_fast``) and answered by a follow-up (``cogs.common.reply``):
two of a play's five Discord requests, both on the event loop. discord.py sends
them through its webhook adapter, which around the HTTP request itself asks Discord
for the callback's response object (``?with_response=1``) and builds a ``Message``
from it, builds a ``Webhook`` for the follow-up and a second ``Message`` from its
reply, takes a lock per token and reads both replies' JSON: as much CPU again as
aiohttp's request (py-spy at 200 tables, samples holding the GIL: 16.7% of the event
loop's thread for the two, 7% of it discord.py's own). Nothing of that is used: the
bot never reads either reply. Here each is one POST of pre-encoded JSON through the
client's own aiohttp session, the acknowledgement without ``with_response`` (Discord
then answers 204 with no body) and the follow-up's reply read and dropped (a
follow-up always returns its message).

The same requests and payloads as discord.py's (the client's allowed mentions
included); a refusal raises discord.py's exceptions (``NotFound``, ``Forbidden``,
``HTTPException``) as its adapter would, and a 429 or a 5xx is handed to discord.py's
path, which waits and retries. discord.py keeps whether an interaction was answered
in ``InteractionResponse._response_type`` (what ``is_done`` reads) and the client's
session in ``Interaction._session``: ``LEAN`` checks both at import, and should a new
discord.py drop them every call goes through discord.py as before (``tests/cogs/
test_lean_responses.py`` fails first, saying so).

Autocompletions (``suggestions``) send their own answer too, through discord.py, so
that one whose connection dropped is sent again like an acknowledgement
(``send_callback``) rather than logged by discord.py as an error.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar
from urllib.parse import quote

import aiohttp
import discord
import orjson
from discord import app_commands
from discord.http import Route, json_or_text

#: the callback body of a "thinking" acknowledgement (type 5), ephemeral or not
_THINKING = {True: orjson.dumps({"type": 5, "data": {"flags": 64}}), False: b'{"type":5}'}
_JSON = {"Content-Type": "application/json"}
_EPHEMERAL = 64
R = TypeVar("R")
RESEND_AFTER = 0.5  # seconds before an answer whose connection failed is sent again
ALREADY_ACKNOWLEDGED = 40060  # Discord's code: "Interaction has already been acknowledged"
Suggest = Callable[[discord.Interaction, str], Coroutine[Any, Any, list[app_commands.Choice[str]]]]
SUGGESTED = discord.InteractionResponseType.autocomplete_result
log = logging.getLogger(__name__)


def _lean_possible() -> bool:
    """Whether this discord.py keeps what the plain requests rely on (see the docstring)."""
    slots = getattr(discord.InteractionResponse, "__slots__", ())
    return "_response_type" in slots and "_session" in getattr(discord.Interaction, "__slots__", ())


LEAN = _lean_possible()


async def defer_thinking(interaction: discord.Interaction, *, ephemeral: bool = True) -> None:
    """``interaction.response.defer(ephemeral=..., thinking=True)``, as one plain POST."""
    response = interaction.response
    if not LEAN:
        await response.defer(ephemeral=ephemeral, thinking=True)
        return
    if response.is_done():
        raise discord.InteractionResponded(interaction)
    token = quote(interaction.token, safe="")
    url = f"{Route.BASE}/interactions/{interaction.id}/{token}/callback"
    post = functools.partial(_post, interaction, url, _THINKING[ephemeral])
    if await send_callback(post) is False:  # a 429 or a 5xx: discord.py waits and retries
        try:
            await response.defer(ephemeral=ephemeral, thinking=True)
        except discord.HTTPException as err:
            if err.code != ALREADY_ACKNOWLEDGED:
                raise
            # by a first try whose connection dropped after it landed (seed 10735)
    response._response_type = discord.InteractionResponseType.deferred_channel_message


async def send_callback(send: Callable[[], Awaitable[R]]) -> R | None:
    """An interaction's callback (its acknowledgement, an answer, suggestions), sent, and
    sent again ``RESEND_AFTER`` later, within Discord's three seconds, if its connection
    dropped: Discord takes it, or says the interaction was acknowledged already, by the
    lost one, which had landed (None). Refusals of the first try are the caller's."""
    try:
        return await send()
    except aiohttp.ClientError:
        await asyncio.sleep(RESEND_AFTER)
    try:
        return await send()
    except discord.HTTPException as err:
        if err.code != ALREADY_ACKNOWLEDGED:
            raise
        return None


def suggestions(suggest: Suggest) -> Suggest:
    """An autocompletion that sends its own answer: one whose connection dropped is sent
    again (``send_callback``), and one lost still is a warning (the person sees no
    suggestions until their next keystroke asks again), where discord.py, sending it
    after the callback, would log "Ignoring exception in autocomplete" at ERROR."""

    @functools.wraps(suggest)
    async def answered(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        choices = await suggest(interaction, current)
        try:
            await send_callback(functools.partial(interaction.response.autocomplete, choices))
        except (aiohttp.ClientError, discord.HTTPException) as err:
            log.warning("suggestions for %s lost on the way (%r)", interaction.user.id, err)
        except RuntimeError:  # "Session is closed": the bot is shutting down under them
            if not interaction.client.is_closed():
                raise
            log.warning("shutting down: suggestions for %s not sent", interaction.user.id)
        if LEAN and not interaction.response.is_done():  # lost, or landed unheard
            interaction.response._response_type = SUGGESTED  # discord.py sends no other
        return choices

    return answered


async def follow_up(interaction: discord.Interaction, content: str, *, ephemeral: bool) -> None:
    """``interaction.followup.send(content, ephemeral=...)``, as one plain POST.

    A follow-up whose connection failed (aiohttp's ``ServerDisconnectedError``: Discord
    closed a keep-alive connection) is sent again once, as an edit of the original
    response when that is a "thinking" acknowledgement: the first follow-up of one *is*
    its message, so the edit gives the same answer whether or not the lost POST had
    landed, and never a second message. Any other follow-up is not sent twice."""
    try:
        await _follow_up(interaction, content, ephemeral=ephemeral)
    except aiohttp.ClientError:
        thinking = discord.InteractionResponseType.deferred_channel_message
        if interaction.response.type is not thinking:
            raise
        await asyncio.sleep(RESEND_AFTER)
        await interaction.edit_original_response(content=content)


async def _follow_up(interaction: discord.Interaction, content: str, *, ephemeral: bool) -> None:
    if not LEAN:
        await interaction.followup.send(content, ephemeral=ephemeral)
        return
    payload: dict[str, Any] = {"content": content, "tts": False}
    if ephemeral:
        payload["flags"] = _EPHEMERAL
    mentions = interaction.client.allowed_mentions
    if mentions is not None:
        payload["allowed_mentions"] = mentions.to_dict()
    token = quote(interaction.token, safe="")
    url = f"{Route.BASE}/webhooks/{interaction.application_id}/{token}?wait=1"
    if not await _post(interaction, url, orjson.dumps(payload)):
        await interaction.followup.send(content, ephemeral=ephemeral)


async def _post(interaction: discord.Interaction, url: str, body: bytes) -> bool:
    """POST ``body``; True once Discord took it, False for discord.py to try (a 429 or a
    5xx: its adapter waits and retries). Any other refusal raises as discord.py would."""
    http = interaction.client.http
    session: aiohttp.ClientSession = interaction._session
    async with session.post(
        url, data=body, headers=_JSON, proxy=http.proxy, proxy_auth=http.proxy_auth
    ) as reply:
        if reply.status < 300:
            await reply.read()  # the follow-up's message: read so the connection is reused
            return True
        data = await json_or_text(reply)
    if reply.status == 429 or reply.status >= 500:
        return False
    if reply.status == 403:
        raise discord.Forbidden(reply, data)
    if reply.status == 404:
        raise discord.NotFound(reply, data)
    raise discord.HTTPException(reply, data)
