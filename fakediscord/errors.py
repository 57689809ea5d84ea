"""Discord's error shapes, so the fake fails exactly the way production does.

Discord answers a bad request with a JSON body ``{"code": int, "message": str}``
and, for code 50035 ("Invalid Form Body"), a nested ``errors`` tree that mirrors
the request body: dict keys for object fields, *string* indices for array
items, and an ``_errors`` list of ``{"code", "message"}`` at each failing leaf.
discord.py reads that tree to build ``HTTPException.text``, so the tree has to be
right for error messages in the bot's logs to be useful.
"""

from __future__ import annotations

import math
from typing import Any

JSON = dict[str, Any]


class DiscordError(Exception):
    """An HTTP error the fake answers with (status, JSON code, message, errors tree)."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        errors: JSON | None = None,
        *,
        extra: JSON | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors
        self.extra = extra or {}
        self.headers = headers or {}

    def body(self) -> JSON:
        """The JSON body Discord would send."""
        body: JSON = {"message": self.message, "code": self.code}
        if self.errors:
            body["errors"] = self.errors
        body.update(self.extra)
        return body


# ---- JSON error codes (https://discord.com/developers/docs/topics/opcodes-and-status-codes)
UNKNOWN_CHANNEL = 10003
UNKNOWN_GUILD = 10004
UNKNOWN_MESSAGE = 10008
UNKNOWN_USER = 10013
UNKNOWN_WEBHOOK = 10015
UNKNOWN_APPLICATION_COMMAND = 10063
UNKNOWN_INTERACTION = 10062
MAX_APPLICATION_COMMANDS = 30032
REQUEST_ENTITY_TOO_LARGE = 40005
INTERACTION_ALREADY_ACKNOWLEDGED = 40060
MISSING_ACCESS = 50001
CANNOT_EXECUTE_ON_DM = 50003
CANNOT_SEND_EMPTY_MESSAGE = 50006
CANNOT_SEND_TO_USER = 50007
CANNOT_EDIT_OTHER_USERS_MESSAGE = 50005
MISSING_PERMISSIONS = 50013
INVALID_WEBHOOK_TOKEN = 50027
INVALID_CHANNEL_TYPE = 50024
INVALID_FORM_BODY = 50035
THREAD_ARCHIVED = 50083
THREAD_ALREADY_CREATED = 160004
THREAD_LOCKED = 160005


def unknown_channel() -> DiscordError:
    return DiscordError(404, UNKNOWN_CHANNEL, "Unknown Channel")


def unknown_message() -> DiscordError:
    return DiscordError(404, UNKNOWN_MESSAGE, "Unknown Message")


def unknown_user() -> DiscordError:
    return DiscordError(404, UNKNOWN_USER, "Unknown User")


def unknown_guild() -> DiscordError:
    return DiscordError(404, UNKNOWN_GUILD, "Unknown Guild")


def unknown_webhook() -> DiscordError:
    return DiscordError(404, UNKNOWN_WEBHOOK, "Unknown Webhook")


def unknown_interaction() -> DiscordError:
    return DiscordError(404, UNKNOWN_INTERACTION, "Unknown interaction")


def already_acknowledged() -> DiscordError:
    return DiscordError(
        400, INTERACTION_ALREADY_ACKNOWLEDGED, "Interaction has already been acknowledged."
    )


def invalid_webhook_token() -> DiscordError:
    return DiscordError(401, INVALID_WEBHOOK_TOKEN, "Invalid Webhook Token")


def missing_access() -> DiscordError:
    return DiscordError(403, MISSING_ACCESS, "Missing Access")


def missing_permissions() -> DiscordError:
    return DiscordError(403, MISSING_PERMISSIONS, "Missing Permissions")


def cannot_execute_on_dm() -> DiscordError:
    return DiscordError(403, CANNOT_EXECUTE_ON_DM, "Cannot execute action on a DM channel")


def invalid_channel_type() -> DiscordError:
    return DiscordError(400, INVALID_CHANNEL_TYPE, "Cannot execute action on this channel type")


def thread_archived() -> DiscordError:
    # Discord documents 50083 as "Operation cannot be performed on an archived thread";
    # the answers bots report carry this shorter wording.
    return DiscordError(400, THREAD_ARCHIVED, "Thread is archived")


def thread_locked() -> DiscordError:
    return DiscordError(400, THREAD_LOCKED, "Thread is locked")


def cannot_send_to_user() -> DiscordError:
    return DiscordError(403, CANNOT_SEND_TO_USER, "Cannot send messages to this user")


def empty_message() -> DiscordError:
    return DiscordError(400, CANNOT_SEND_EMPTY_MESSAGE, "Cannot send an empty message")


def entity_too_large() -> DiscordError:
    return DiscordError(413, REQUEST_ENTITY_TOO_LARGE, "Request entity too large")


def too_many_requests(
    retry_after: float, *, is_global: bool = False, headers: dict[str, str] | None = None
) -> DiscordError:
    """A 429 as Discord's API answers it: with ``Via`` (without it discord.py assumes a
    Cloudflare ban and raises), ``retry_after`` in the body and ``Retry-After`` in seconds."""
    return DiscordError(
        429,
        0,
        "You are being rate limited.",
        extra={"retry_after": round(retry_after, 3), "global": is_global},
        headers={
            "Via": "1.1 google",
            "Retry-After": str(max(1, math.ceil(retry_after))),
            "X-RateLimit-Scope": "global" if is_global else "user",
            **({"X-RateLimit-Global": "true"} if is_global else {}),
            **(headers or {}),
        },
    )


def unauthorized() -> DiscordError:
    return DiscordError(401, 0, "401: Unauthorized")


def invalid_form_body(errors: JSON) -> DiscordError:
    return DiscordError(400, INVALID_FORM_BODY, "Invalid Form Body", errors)


# ---- leaf errors of the 50035 tree (codes and messages as Discord words them)
def err(code: str, message: str) -> JSON:
    return {"code": code, "message": message}


def max_length(n: int) -> JSON:
    return err("BASE_TYPE_MAX_LENGTH", f"Must be {n} or fewer in length.")


def min_length(n: int) -> JSON:
    return err("BASE_TYPE_MIN_LENGTH", f"Must be {n} or more in length.")


def bad_length(lo: int, hi: int) -> JSON:
    return err("BASE_TYPE_BAD_LENGTH", f"Must be between {lo} and {hi} in length.")


def required() -> JSON:
    return err("BASE_TYPE_REQUIRED", "This field is required")


def number_max(n: int) -> JSON:
    return err("NUMBER_TYPE_MAX", f"int value should be less than or equal to {n}.")


def number_min(n: int) -> JSON:
    return err("NUMBER_TYPE_MIN", f"int value should be greater than or equal to {n}.")


def choices(values: tuple[Any, ...]) -> JSON:
    return err("BASE_TYPE_CHOICES", f"Value must be one of {values}.")


class FormErrors:
    """Accumulates leaf errors by path and renders Discord's nested tree.

    ``add(("components", 0, "components", 1, "label"), max_length(80))`` becomes
    ``{"components": {"0": {"components": {"1": {"label": {"_errors": [...]}}}}}}``.
    """

    def __init__(self) -> None:
        self._tree: JSON = {}

    def add(self, path: tuple[str | int, ...], error: JSON) -> None:
        node = self._tree
        for key in path:
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append(error)

    def __bool__(self) -> bool:
        return bool(self._tree)

    @property
    def tree(self) -> JSON:
        return self._tree

    def raise_if_any(self) -> None:
        if self._tree:
            raise invalid_form_body(self._tree)


def leaf_codes(tree: JSON, prefix: str = "") -> dict[str, list[str]]:
    """Flatten an ``errors`` tree to ``{"components.0.label": ["BASE_TYPE_MAX_LENGTH"]}``.

    Tests use this to assert on a path without spelling out the whole tree.
    """
    out: dict[str, list[str]] = {}
    for key, value in tree.items():
        if key == "_errors":
            out[prefix] = [e["code"] for e in value]
            continue
        sub = f"{prefix}.{key}" if prefix else key
        out.update(leaf_codes(value, sub))
    return out
