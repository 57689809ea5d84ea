"""Interaction followups and the original response, through the webhook."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import errors as E
from .. import limits
from ..http import Req
from ..limits import EPHEMERAL, Limits
from ..state import Interaction, Message

if TYPE_CHECKING:
    from ..server import FakeDiscord


def register(fake: FakeDiscord) -> None:
    r = fake.route

    @r("POST", "/webhooks/{application_id}/{token}", auth=False)
    async def followup(req: Req) -> tuple[int, Any]:
        inter = interaction_for_webhook(fake, req)
        limits.check_files([len(u.data) for u in req.uploads])
        payload = req.json or {}
        limits.check_message(payload, len(req.uploads))
        original = inter.original
        fake.check_thread_post(inter.channel)
        if original is not None and original.loading and original not in inter.followups:
            # The first followup after a "thinking" defer replaces the placeholder.
            fake.apply_edit(original, payload, req.uploads)
            inter.followups.append(original)
            fake.emit_update(original)
            message = original
        else:
            ephemeral = bool(int(payload.get("flags") or 0) & EPHEMERAL)
            message = fake.new_message(
                inter.channel,
                payload,
                req.uploads,
                interaction=inter,
                ephemeral_for=inter.user.id if ephemeral else None,
                mtype=0,
            )
            fake.store_message(message)
            inter.followups.append(message)
            fake.emit_create(message)
        if req.query.get("wait") in ("1", "true", "True"):
            return 200, message.payload()
        return 204, None

    async def get_webhook_message(req: Req) -> tuple[int, Any]:
        inter = interaction_for_webhook(fake, req)
        return 200, interaction_message(fake, inter, req.params["message_id"]).payload()

    async def edit_webhook_message(req: Req) -> tuple[int, Any]:
        inter = interaction_for_webhook(fake, req)
        message = interaction_message(fake, inter, req.params["message_id"])
        fake.check_thread_edit(inter.channel)
        fake.apply_edit(message, req.json or {}, req.uploads)
        fake.emit_update(message)
        return 200, message.payload()

    async def delete_webhook_message(req: Req) -> tuple[int, Any]:
        inter = interaction_for_webhook(fake, req)
        message = interaction_message(fake, inter, req.params["message_id"])
        fake.delete_message(message)
        return 204, None

    for path in ("/webhooks/{application_id}/{token}/messages/{message_id}",):
        r("GET", path, auth=False)(get_webhook_message)
        r("PATCH", path, auth=False)(edit_webhook_message)
        r("DELETE", path, auth=False)(delete_webhook_message)


def interaction_for_webhook(fake: FakeDiscord, req: Req) -> Interaction:
    inter = fake.interactions_by_token.get(req.params["token"])
    if inter is None or req.id("application_id") != fake.application_id:
        raise E.unknown_webhook()
    if fake.clock.time() - inter.created_at > Limits.TOKEN_SECONDS:
        raise E.invalid_webhook_token()
    if inter.response_type is None:
        # The followup webhook only exists once the interaction is acknowledged.
        raise E.unknown_webhook()
    inter.requests += 1
    return inter


def interaction_message(fake: FakeDiscord, inter: Interaction, message_id: str) -> Message:
    if message_id == "@original":
        msg = inter.original
    else:
        msg = fake.messages.get(int(message_id)) if message_id.isdigit() else None
        if msg is not None and msg is not inter.original and msg not in inter.followups:
            msg = None
    if msg is None or msg.deleted:
        raise E.unknown_message()
    return msg
