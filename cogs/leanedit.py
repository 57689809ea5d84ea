"""A message edited without parsing Discord's reply: what every live message's edit costs.

Discord answers an edit with the whole message, which discord.py decodes into objects
nobody here reads; at hundreds of tables that was a fifth of an edit's CPU
(``edit_message``, ``_unread``). A multipart edit (a panel with its image) goes out as
one body rather than a form written part by part (``multipart_body``).
"""

from __future__ import annotations

import contextvars
import random
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
import discord.http
import orjson
from discord.http import MultipartParameters, Route, handle_message_parameters

if TYPE_CHECKING:
    from .live import Place


async def edit_message(channel: Place, message_id: int, edit: dict[str, Any]) -> None:
    """``PartialMessage.edit`` without building discord.py's ``Message`` from the reply.

    Only the message id matters here, and reading the reply back into objects (a
    panel's holds every option of four menus) cost a busy bot about a fifth of
    an edit's CPU. The request is the one ``edit`` makes: the same parameters,
    the client's allowed mentions for new content, the view kept out of the store.
    """
    view = edit.get("view")
    if view is not None and view.is_dispatchable():  # one with callbacks: let discord.py keep it
        await channel.get_partial_message(message_id).edit(**edit)
        return
    state = channel._state
    if "view" in edit:
        state.prevent_view_updates_for(message_id)
    previous = state.allowed_mentions if "content" in edit else None
    with handle_message_parameters(**edit, previous_allowed_mentions=previous) as params:
        route = Route(
            "PATCH",
            "/channels/{channel_id}/messages/{message_id}",
            channel_id=channel.id,
            message_id=message_id,
        )
        if params.files:
            await _unread(state.http, route, multipart_body(params))
        else:
            body = aiohttp.BytesPayload(orjson.dumps(params.payload), content_type=_JSON)
            await _unread(state.http, route, body)


_JSON = "application/json"
#: set while ``_unread`` waits on discord.py's request (a task's own context)
_REPLY_UNREAD = contextvars.ContextVar("reply_unread", default=False)


async def _unread(http: discord.http.HTTPClient, route: Route, body: aiohttp.Payload) -> None:
    """``http.request(route, data=body)`` with a successful reply read but not parsed.

    Discord answers an edit with the whole message (a panel's: every option of four
    menus), which discord.py decodes and parses into a dict nobody here reads: a
    tenth of an edit's CPU on the event loop and hundreds of objects for the
    collector. discord.py reads replies through ``discord.http.json_or_text``; while
    this request runs, that answers a 2xx with an empty dict once the body is read
    (so the connection is reused). Everything else is discord.py's own: the
    rate-limit headers are read, a 429 or a 5xx gets its JSON and is waited for and
    retried, a refusal raises as before. The body is a payload (the JSON encoded
    once, by orjson), sent again as it is if discord.py retries.
    """
    _read_lean()
    token = _REPLY_UNREAD.set(True)
    try:
        await http.request(route, data=body)
    finally:
        _REPLY_UNREAD.reset(token)


def _read_lean() -> None:
    """Put ``json_or_text`` (see ``_unread``) in discord.http, once."""
    if getattr(discord.http.json_or_text, "lean", False):
        return
    parse = discord.http.json_or_text

    async def json_or_text(response: aiohttp.ClientResponse) -> dict[str, Any] | str:
        if _REPLY_UNREAD.get() and 200 <= response.status < 300:
            await response.read()
            return {}
        return await parse(response)

    json_or_text.lean = True  # type: ignore[attr-defined]
    discord.http.json_or_text = json_or_text


def multipart_body(params: MultipartParameters) -> aiohttp.BytesPayload:
    """The form discord.py would upload (``payload_json``, then ``files[n]``), as one body.

    discord.py hands aiohttp a form, which writes each part's boundary, headers and
    data to the socket as separate writes (a system call each, about ten for a panel
    with its hand image); one body goes out with its headers in one, and a retried
    request sends the same bytes again.
    """
    # not uuid4 (as aiohttp): its os.urandom hands the GIL to the render thread mid-edit
    boundary = f"{random.getrandbits(128):032x}"
    chunks: list[bytes] = []
    for part in params.multipart or ():
        name = part["name"]
        value = part["value"]
        if "filename" in part:
            filename = part["filename"].replace("\\", "\\\\").replace('"', '\\"')
            head = (
                f'Content-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
                f"Content-Type: {part.get('content_type', 'application/octet-stream')}\r\n"
            )
            value.seek(0)
            data = value.read()
        else:
            head = (
                f'Content-Disposition: form-data; name="{name}"\r\n'
                "Content-Type: application/json\r\n"
            )
            data = value.encode()
        chunks += (f"--{boundary}\r\n{head}\r\n".encode(), data, b"\r\n")
    chunks.append(f"--{boundary}--\r\n".encode())
    return aiohttp.BytesPayload(
        b"".join(chunks), content_type=f"multipart/form-data; boundary={boundary}"
    )
