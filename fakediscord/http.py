"""The HTTP side of the fake: what a request looks like to a route handler, and the log.

Kept apart from :mod:`.server` so the route modules in :mod:`.routes` can use these
types without importing the server.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import orjson
from aiohttp import web

from . import errors as E

LOADING = 1 << 7
API_PREFIX = "/api/v10"


@dataclass
class Upload:
    """One ``files[n]`` part of a multipart request."""

    field: str
    filename: str
    data: bytes


@dataclass
class RequestRecord:
    """One HTTP request the bot made, and what the fake answered."""

    method: str
    path: str
    route: str | None
    params: dict[str, str]
    query: dict[str, str]
    json: Any
    uploads: list[Upload]
    at: float
    status: int = 0
    response: Any = None
    fault: str | None = None
    channel_id: int | None = None

    @property
    def error_code(self) -> int | None:
        """Discord's JSON error code, for 4xx/5xx answers."""
        if isinstance(self.response, dict):
            return self.response.get("code")
        return None

    def __repr__(self) -> str:
        return f"<{self.method} {self.path} -> {self.status} {self.error_code or ''}>"


@dataclass
class Req:
    """What a route handler sees."""

    record: RequestRecord
    params: dict[str, str]
    query: dict[str, str]
    json: Any
    uploads: list[Upload] = field(default_factory=list)

    def id(self, name: str) -> int:
        try:
            return int(self.params[name])
        except ValueError:
            raise E.invalid_form_body(
                {
                    name: {
                        "_errors": [
                            E.err(
                                "NUMBER_TYPE_COERCE",
                                f'Value "{self.params[name]}" is not snowflake.',
                            )
                        ]
                    }
                }
            ) from None


Handler = Callable[[Req], Awaitable[tuple[int, Any]]]


@dataclass
class Route:
    method: str
    template: str
    regex: re.Pattern[str]
    handler: Handler
    auth: bool


def compile_template(template: str) -> re.Pattern[str]:
    """``/channels/{channel_id}`` -> a regex with a named group per placeholder."""
    parts = re.split(r"\{(\w+)\}", template)
    pattern = "".join(
        re.escape(p) if i % 2 == 0 else f"(?P<{p}>[^/]+)" for i, p in enumerate(parts)
    )
    return re.compile(f"^{pattern}$")


def loads(raw: bytes | str) -> Any:
    """A request's JSON (``ValueError`` if it is not JSON)."""
    return orjson.loads(raw)


def dumps(body: Any) -> bytes:
    """JSON for an answer or a gateway event, by orjson (the fake's every response:
    ``json`` took a tenth of the fake's CPU); ``json`` for what orjson refuses
    (integers past 64 bits, keys that are not strings), which a test may send on
    purpose."""
    try:
        return orjson.dumps(body)
    except TypeError:
        return json.dumps(body).encode()


def json_response(status: int, body: Any, headers: dict[str, str] | None = None) -> web.Response:
    # Exactly "application/json": discord.py compares the header verbatim.
    hdrs = {"Content-Type": "application/json"}
    if headers:
        hdrs.update(headers)
    return web.Response(status=status, body=dumps(body), headers=hdrs)
