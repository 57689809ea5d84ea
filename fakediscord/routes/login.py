"""Login and the application: ``/users/@me``, application info, ``/gateway[/bot]``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..http import Req

if TYPE_CHECKING:
    from ..server import FakeDiscord


def register(fake: FakeDiscord) -> None:
    r = fake.route

    @r("GET", "/users/@me")
    async def me(req: Req) -> tuple[int, Any]:
        return 200, fake.bot_user.payload() | {
            "verified": True,
            "mfa_enabled": False,
            "locale": "en-US",
            "email": None,
        }

    async def app_info(req: Req) -> tuple[int, Any]:
        return 200, {
            "id": str(fake.application_id),
            "name": fake.bot_user.name,
            "icon": None,
            "description": "",
            "summary": "",
            "type": None,
            "hook": True,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "flags": fake.application_flags,
            "owner": fake.owner.payload(),
            "team": None,
            "bot": fake.bot_user.payload(),
            "rpc_origins": [],
            "tags": [],
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "role_connections_verification_url": None,
            "approximate_guild_count": len(fake.guilds),
            "integration_types_config": {},
        }

    r("GET", "/oauth2/applications/@me")(app_info)
    r("GET", "/applications/@me")(app_info)

    @r("GET", "/gateway", auth=False)
    async def gateway(req: Req) -> tuple[int, Any]:
        return 200, {"url": fake.gateway_url}

    @r("GET", "/gateway/bot")
    async def gateway_bot(req: Req) -> tuple[int, Any]:
        return 200, {
            "url": fake.gateway_url,
            "shards": fake.shards,
            "session_start_limit": {
                "total": 1000,
                "remaining": 999,
                "reset_after": 0,
                "max_concurrency": 1,
            },
        }
