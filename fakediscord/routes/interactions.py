"""The interaction callback (types 4-9)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from .. import errors as E
from .. import limits
from ..errors import JSON, DiscordError
from ..http import LOADING, Req, Upload
from ..limits import EPHEMERAL, Limits
from ..state import Interaction, Message

if TYPE_CHECKING:
    from ..server import FakeDiscord


def register(fake: FakeDiscord) -> None:
    r = fake.route

    @r("POST", "/interactions/{interaction_id}/{token}/callback", auth=False)
    async def callback(req: Req) -> tuple[int, Any]:
        inter = fake.interactions_by_token.get(req.params["token"])
        if inter is None or inter.id != req.id("interaction_id"):
            raise E.unknown_interaction()
        inter.requests += 1
        late = fake.faults.take_late_ack()
        if late:
            await fake.clock.advance(late)
        if inter.response_type is not None:
            raise E.already_acknowledged()
        if fake.clock.time() - inter.created_at > Limits.FIRST_RESPONSE_SECONDS:
            raise E.unknown_interaction()
        callback = respond(fake, inter, req)
        # Discord answers the callback object only when asked (``?with_response=true``,
        # as discord.py always does); otherwise 204 with no body
        if req.query.get("with_response") in ("1", "true", "True"):
            return 200, callback
        return 204, None


def respond(fake: FakeDiscord, inter: Interaction, req: Req) -> JSON:
    """Apply an interaction callback (types 4–9) and build the callback object."""
    body = req.json or {}
    rtype = body.get("type")
    data = body.get("data") or {}
    is_component = inter.type == 3 or (inter.type == 5 and inter.message is not None)
    valid = {
        2: {4, 5, 9},
        3: {4, 5, 6, 7, 9},
        4: {8},
        5: {4, 5, 6, 7} if inter.message is not None else {4, 5},
    }[inter.type]
    if rtype not in valid:
        raise E.invalid_form_body(
            {
                "type": {
                    "_errors": [
                        E.err(
                            "INTERACTION_RESPONSE_TYPE_INVALID",
                            f"Interaction response type {rtype} is not valid "
                            f"for interaction type {inter.type}",
                        )
                    ]
                }
            }
        )
    if rtype in (4, 5):
        fake.check_thread_post(inter.channel)
    elif rtype == 7:
        fake.check_thread_edit(inter.channel)
    message: Message | None = None
    errs = E.FormErrors()
    if rtype == 4:
        limits.check_files([len(u.data) for u in req.uploads])
        limits.check_message(data, len(req.uploads), path=("data",))
        ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL)
        message = fake.new_message(
            inter.channel,
            data,
            req.uploads,
            interaction=inter,
            ephemeral_for=inter.user.id if ephemeral else None,
            mtype=20 if inter.type == 2 else 0,
        )
        fake.store_message(message)
        inter.original = message
    elif rtype == 5:
        ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL)
        message = Message(
            id=fake.ids.next(),
            channel_id=inter.channel.id,
            guild_id=inter.guild_id,
            author=fake.bot_user,
            created_at=fake.clock.time(),
            flags=LOADING | (EPHEMERAL if ephemeral else 0),
            type=20 if inter.type == 2 else 0,
            ephemeral_for=inter.user.id if ephemeral else None,
            interaction=inter,
            webhook_id=fake.application_id,
            application_id=fake.application_id,
        )
        fake.store_message(message)
        inter.original = message
    elif rtype == 6:
        assert is_component
        inter.original = inter.message
    elif rtype == 7:
        assert inter.message is not None
        limits.check_files([len(u.data) for u in req.uploads])
        apply_edit_data(fake, inter.message, data, req.uploads)
        inter.original = inter.message
        message = inter.message
    elif rtype == 8:
        limits.check_autocomplete(errs, data)
    elif rtype == 9:
        limits.check_modal(errs, data)
    errs.raise_if_any()
    inter.response_type = rtype
    inter.response_data = data
    inter.acked_at = fake.clock.time()
    inter.acked_perf = time.perf_counter()
    if rtype in (4, 5) and message is not None:
        fake.emit_create(message)
    elif rtype == 7 and message is not None:
        fake.emit_update(message)
    fake.notifier.notify()
    answer: JSON = {
        "interaction": {
            "id": str(inter.id),
            "type": inter.type,
            "response_message_id": str(message.id) if message else None,
            "response_message_loading": rtype == 5,
            "response_message_ephemeral": bool(message and message.ephemeral),
        }
    }
    if message is not None:
        answer["resource"] = {"type": rtype, "message": message.payload()}
    return answer


def apply_edit_data(fake: FakeDiscord, message: Message, data: JSON, uploads: list[Upload]) -> None:
    try:
        fake.apply_edit(message, data, uploads)
    except DiscordError as exc:
        if exc.errors:
            exc.errors = {"data": exc.errors}
        raise
