"""Application commands, global and per guild: list, bulk PUT, POST, GET/PATCH/DELETE."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import errors as E
from .. import limits
from ..errors import JSON, DiscordError
from ..http import Req
from ..limits import Limits
from ..state import Command

if TYPE_CHECKING:
    from ..server import FakeDiscord


def register(fake: FakeDiscord) -> None:
    r = fake.route

    def app_guild(req: Req) -> int | None:
        if req.id("application_id") != fake.application_id:
            raise E.missing_access()
        if "guild_id" not in req.params:
            return None
        gid = req.id("guild_id")
        if gid not in fake.guilds:
            raise E.missing_access()
        return gid

    def commands_in(gid: int | None) -> list[Command]:
        return [c for c in fake.commands.values() if c.guild_id == gid]

    def store(gid: int | None, raw: JSON, prev: Command | None) -> Command:
        """A new version of a command; one replacing ``prev`` keeps its id."""
        cmd = Command(
            prev.id if prev else fake.ids.next(),
            fake.application_id,
            gid,
            dict(raw),
            fake.ids.next(),
        )
        fake.commands[cmd.id] = cmd
        return cmd

    async def list_commands(req: Req) -> tuple[int, Any]:
        return 200, [c.payload() for c in commands_in(app_guild(req))]

    async def put_commands(req: Req) -> tuple[int, Any]:
        gid = app_guild(req)
        body = req.json if req.json is not None else []
        limits.check_command_list(body)
        old = {(c.name, c.type): c for c in commands_in(gid)}
        for c in old.values():
            del fake.commands[c.id]
        result = []
        for raw in body:
            cmd = store(gid, raw, old.get((raw["name"], raw.get("type", 1))))
            result.append(cmd.payload())
        fake.notifier.notify()
        return 200, result

    async def post_command(req: Req) -> tuple[int, Any]:
        gid = app_guild(req)
        raw = req.json or {}
        errs = E.FormErrors()
        limits.check_command(errs, raw)
        errs.raise_if_any()
        existing = {(c.name, c.type): c for c in commands_in(gid)}
        prev = existing.get((str(raw.get("name")), int(raw.get("type", 1))))
        if prev is None:
            same_type = [c for c in existing.values() if c.type == raw.get("type", 1)]
            cap = (
                Limits.CHAT_INPUT_COMMANDS
                if raw.get("type", 1) == 1
                else Limits.CONTEXT_MENU_COMMANDS
            )
            if len(same_type) >= cap:
                raise DiscordError(
                    400,
                    E.MAX_APPLICATION_COMMANDS,
                    f"Maximum number of application commands reached ({cap})",
                )
        else:
            del fake.commands[prev.id]
        cmd = store(gid, raw, prev)
        fake.notifier.notify()
        return (200 if prev else 201), cmd.payload()

    def one_command(req: Req) -> Command:
        gid = app_guild(req)
        cmd = fake.commands.get(req.id("command_id"))
        if cmd is None or cmd.guild_id != gid:
            raise DiscordError(404, E.UNKNOWN_APPLICATION_COMMAND, "Unknown application command")
        return cmd

    async def get_command(req: Req) -> tuple[int, Any]:
        return 200, one_command(req).payload()

    async def patch_command(req: Req) -> tuple[int, Any]:
        cmd = one_command(req)
        merged = dict(cmd.raw) | dict(req.json or {})
        errs = E.FormErrors()
        limits.check_command(errs, merged)
        errs.raise_if_any()
        cmd.raw = merged
        cmd.version = fake.ids.next()
        return 200, cmd.payload()

    async def delete_command(req: Req) -> tuple[int, Any]:
        cmd = one_command(req)
        del fake.commands[cmd.id]
        return 204, None

    for base in (
        "/applications/{application_id}/commands",
        "/applications/{application_id}/guilds/{guild_id}/commands",
    ):
        r("GET", base)(list_commands)
        r("PUT", base)(put_commands)
        r("POST", base)(post_command)
        r("GET", base + "/{command_id}")(get_command)
        r("PATCH", base + "/{command_id}")(patch_command)
        r("DELETE", base + "/{command_id}")(delete_command)
