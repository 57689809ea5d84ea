"""Users and the bot's DM channels."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import errors as E
from ..http import Req

if TYPE_CHECKING:
    from ..server import FakeDiscord


def register(fake: FakeDiscord) -> None:
    r = fake.route

    @r("GET", "/users/{user_id}")
    async def get_user(req: Req) -> tuple[int, Any]:
        user = fake.users.get(req.id("user_id"))
        if user is None:
            raise E.unknown_user()
        return 200, user.payload()

    @r("POST", "/users/@me/channels")
    async def create_dm(req: Req) -> tuple[int, Any]:
        body = req.json or {}
        user = fake.users.get(int(body.get("recipient_id", 0)))
        if user is None:
            raise E.invalid_form_body(
                {
                    "recipient_id": {
                        "_errors": [E.err("NUMBER_TYPE_COERCE", "Value is not snowflake.")]
                    }
                }
            )
        return 200, fake.dm_channel(user).payload()
