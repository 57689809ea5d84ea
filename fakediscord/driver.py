"""The user driver: plays the Discord client for simulated users.

A Discord client only lets a person invoke commands the bot synced, with the
options, choices and ranges the schema declares, and only click components on
messages the person can see. The driver enforces the same rules (raising
:class:`DriverError` at once, before anything reaches the bot) so a test cannot
send the bot an interaction no real user could send.

Every action returns an :class:`InteractionHandle` immediately after
INTERACTION_CREATE is dispatched; ``await handle`` waits until the bot has
acknowledged it (no sleeps: waits wake on state changes) and returns the handle.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from .errors import JSON
from .limits import BUTTON, SELECT_TYPES, STRING_SELECT
from .state import Channel, Command, Interaction, Message, Perm, Role, User

if TYPE_CHECKING:
    from .server import FakeDiscord

SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = range(3, 12)


class DriverError(Exception):
    """The simulated user tried something a Discord client would not allow."""


class InteractionFailed(AssertionError):
    """The bot did not acknowledge the interaction (timeout or rejected callback)."""


class InteractionHandle:
    """One interaction a simulated user started; await it for the bot's acknowledgement."""

    def __init__(self, fake: FakeDiscord, interaction: Interaction, timeout: float) -> None:
        self.fake = fake
        self.interaction = interaction
        self.timeout = timeout

    # ---- what the bot did
    @property
    def id(self) -> int:
        return self.interaction.id

    @property
    def user(self) -> User:
        return self.interaction.user

    @property
    def channel(self) -> Channel:
        return self.interaction.channel

    @property
    def acked(self) -> bool:
        return self.interaction.response_type is not None

    @property
    def response_type(self) -> int | None:
        """4 message, 5 deferred, 6 deferred update, 7 update, 8 autocomplete, 9 modal."""
        return self.interaction.response_type

    @property
    def message(self) -> Message | None:
        """The original response (types 4/5) or the updated component message (6/7)."""
        return self.interaction.original

    @property
    def ephemeral(self) -> bool:
        msg = self.interaction.original
        return bool(msg is not None and msg.ephemeral and self.response_type in (4, 5))

    @property
    def followups(self) -> list[Message]:
        return [m for m in self.interaction.followups if not m.deleted]

    @property
    def modal(self) -> JSON | None:
        return self.interaction.modal

    @property
    def choices(self) -> list[JSON] | None:
        return self.interaction.choices

    @property
    def ack_latency(self) -> float | None:
        """Real seconds the bot took to acknowledge (for load figures)."""
        return self.interaction.ack_latency

    @property
    def errors(self) -> list[tuple[int, JSON]]:
        """(status, body) of every refusal (a 4xx but 429) answered on this interaction's
        token; a 5xx or 429 is discord.py's to wait out and try again."""
        return list(self.interaction.errors)

    # ---- waiting
    def __await__(self) -> Generator[Any, None, InteractionHandle]:
        return self.wait_ack().__await__()

    async def wait_ack(
        self, timeout: float | None = None, *, allow_errors: bool = False
    ) -> InteractionHandle:
        """Wait until the bot acknowledged; fail fast if its callback was rejected."""
        inter = self.interaction

        def done() -> bool:
            return inter.response_type is not None or (bool(inter.errors) and not allow_errors)

        try:
            await self._wait(done, timeout)
        except TimeoutError:
            raise InteractionFailed(self._diagnose("was never acknowledged")) from None
        if inter.response_type is None:
            raise InteractionFailed(self._diagnose("was rejected"))
        return self

    async def wait_message(self, timeout: float | None = None) -> Message:
        """Wait for the visible response: type 4, or a type 5 defer once it was filled in."""
        await self.wait_ack(timeout)
        inter = self.interaction

        def ready() -> Message | None:
            msg = inter.original
            return msg if msg is not None and not msg.loading and not msg.deleted else None

        try:
            message: Message = await self._wait(ready, timeout)
        except TimeoutError:
            raise InteractionFailed(self._diagnose("has no response message")) from None
        return message

    async def wait_followups(self, count: int = 1, timeout: float | None = None) -> list[Message]:
        """Wait until at least ``count`` followups exist; returns them all."""
        await self.wait_ack(timeout)
        try:
            await self._wait(lambda: len(self.followups) >= count, timeout)
        except TimeoutError:
            raise InteractionFailed(self._diagnose(f"has fewer than {count} followups")) from None
        return self.followups

    async def wait_error(self, timeout: float | None = None) -> tuple[int, JSON]:
        """Wait for the first refusal (a 4xx but 429) answered on this interaction's token."""
        try:
            await self._wait(lambda: self.interaction.errors, timeout)
        except TimeoutError:
            raise InteractionFailed(self._diagnose("got no error")) from None
        return self.interaction.errors[0]

    async def _wait(self, predicate: Any, timeout: float | None) -> Any:
        # Only requests on this interaction's token can change what handles wait for,
        # so waiting on its own notifier keeps thousands of concurrent handles cheap.
        return await self.interaction.notifier.wait_for(predicate, timeout or self.timeout)

    def _diagnose(self, what: str) -> str:
        inter = self.interaction
        mine = [r for r in self.fake.requests if r.params.get("token") == inter.token]
        return (
            f"interaction {inter.id} ({inter.command_name() or inter.data.get('custom_id')}, "
            f"type {inter.type}) {what}; errors on its token: {inter.errors}; "
            f"its requests: {mine}; last 4xx overall: {self.fake.errors[-5:]}"
        )

    def __repr__(self) -> str:
        return f"<InteractionHandle {self.interaction!r}>"


class UserDriver:
    """Sends interactions as simulated users, obeying the schema the bot synced."""

    def __init__(self, fake: FakeDiscord, *, timeout: float = 10.0) -> None:
        self.fake = fake
        self.timeout = timeout

    async def wait_for_response(
        self, handle: InteractionHandle, timeout: float | None = None
    ) -> InteractionHandle:
        """Same as ``await handle``: wait until the bot acknowledged the interaction."""
        return await handle.wait_ack(timeout)

    # ------------------------------------------------------------------ schema
    def commands_for(self, channel: Channel) -> dict[str, Command]:
        """Chat-input commands a user sees in ``channel`` (guild ones shadow global ones)."""
        found: dict[str, Command] = {}
        for cmd in self.fake.commands.values():
            if cmd.type != 1 or cmd.guild_id is not None:
                continue
            contexts = cmd.raw.get("contexts")
            if channel.is_dm:
                if contexts is not None and 1 not in contexts:
                    continue
                if contexts is None and cmd.raw.get("dm_permission") is False:
                    continue
            elif contexts is not None and 0 not in contexts:
                continue
            found[cmd.name] = cmd
        if channel.guild_id is not None:
            for cmd in self.fake.commands.values():
                if cmd.type == 1 and cmd.guild_id == channel.guild_id:
                    found[cmd.name] = cmd
        return found

    def _resolve_command(
        self, name: str, user: User, channel: Channel
    ) -> tuple[Command, list[str], list[JSON]]:
        parts = name.strip().lstrip("/").split()
        if not parts:
            raise DriverError("empty command name")
        commands = self.commands_for(channel)
        cmd = commands.get(parts[0])
        if cmd is None:
            raise DriverError(
                f"/{parts[0]} is not a synced command here; synced: {sorted(commands)}"
            )
        perms = cmd.raw.get("default_member_permissions")
        if perms is not None and channel.guild_id is not None:
            have = self.fake.permissions(user, channel)
            if int(perms) & ~have:
                raise DriverError(f"{user.name} lacks permissions to see /{cmd.name}")
        schema = list(cmd.raw.get("options") or [])
        for part in parts[1:]:
            sub = next(
                (
                    o
                    for o in schema
                    if o.get("name") == part and o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP)
                ),
                None,
            )
            if sub is None:
                raise DriverError(f"/{cmd.name} has no subcommand {part!r}")
            schema = list(sub.get("options") or [])
        if any(o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in schema):
            subs = [o["name"] for o in schema]
            raise DriverError(f"/{name} needs a subcommand: {subs}")
        return cmd, parts[1:], schema

    def _wrap(self, schema_root: Command, path: list[str], leaf: list[JSON]) -> list[JSON]:
        """Nest leaf options inside the subcommand group/subcommand options."""
        options = leaf
        node_opts = list(schema_root.raw.get("options") or [])
        chain: list[JSON] = []
        for part in path:
            node = next(o for o in node_opts if o["name"] == part)
            chain.append(node)
            node_opts = list(node.get("options") or [])
        for node in reversed(chain):
            options = [{"type": node["type"], "name": node["name"], "options": options}]
        return options

    # ------------------------------------------------------------------ option values
    def _option_value(
        self, opt: JSON, value: Any, resolved: dict[str, dict[str, JSON]], channel: Channel
    ) -> Any:
        otype = opt["type"]
        name = opt["name"]
        if otype == STRING:
            if not isinstance(value, str):
                raise DriverError(f"option {name!r} takes a string, got {value!r}")
            lo, hi = opt.get("min_length", 0), opt.get("max_length", 6000)
            if not lo <= len(value) <= hi:
                raise DriverError(f"option {name!r} must be {lo}–{hi} characters")
        elif otype in (INTEGER, NUMBER):
            if (
                isinstance(value, bool)
                or not isinstance(value, int | float)
                or (otype == INTEGER and not isinstance(value, int))
            ):
                raise DriverError(f"option {name!r} takes a number, got {value!r}")
            if "min_value" in opt and value < opt["min_value"]:
                raise DriverError(f"option {name!r} must be ≥ {opt['min_value']}")
            if "max_value" in opt and value > opt["max_value"]:
                raise DriverError(f"option {name!r} must be ≤ {opt['max_value']}")
        elif otype == BOOLEAN:
            if not isinstance(value, bool):
                raise DriverError(f"option {name!r} takes a bool, got {value!r}")
        elif otype in (USER, MENTIONABLE) and isinstance(value, User):
            self._resolve_user(value, resolved, channel)
            return str(value.id)
        elif otype in (ROLE, MENTIONABLE) and isinstance(value, Role):
            resolved.setdefault("roles", {})[str(value.id)] = value.payload()
            return str(value.id)
        elif otype == CHANNEL and isinstance(value, Channel):
            types = opt.get("channel_types")
            if types and value.type not in types:
                raise DriverError(f"option {name!r} takes channel types {types}")
            data: JSON = {
                "id": str(value.id),
                "name": value.name,
                "type": value.type,
                "permissions": str(self.fake.permissions(self.fake.bot_user, value)),
            }
            if value.is_thread:
                data.update(
                    parent_id=str(value.parent_id),
                    thread_metadata={
                        "archived": False,
                        "auto_archive_duration": 1440,
                        "locked": False,
                        "archive_timestamp": value.payload()["thread_metadata"][
                            "archive_timestamp"
                        ],
                    },
                )
            resolved.setdefault("channels", {})[str(value.id)] = data
            return str(value.id)
        elif otype == ATTACHMENT:
            if isinstance(value, bytes):
                value = ("upload.bin", value)
            if not (isinstance(value, tuple) and len(value) == 2):
                raise DriverError(f"option {name!r} takes bytes or (filename, bytes)")
            att = self.fake.new_attachment(value[0], value[1], channel)
            resolved.setdefault("attachments", {})[str(att.id)] = att.payload()
            return str(att.id)
        else:
            raise DriverError(f"option {name!r} (type {otype}) cannot take {value!r}")
        allowed = opt.get("choices")
        if allowed and value not in [c["value"] for c in allowed]:
            raise DriverError(
                f"option {name!r} must be one of {[c['value'] for c in allowed]}, got {value!r}"
            )
        return value

    def _resolve_user(
        self, user: User, resolved: dict[str, dict[str, JSON]], channel: Channel
    ) -> None:
        resolved.setdefault("users", {})[str(user.id)] = user.payload()
        guild = self.fake.guild_of(channel)
        if guild is not None and user.id in guild.members:
            member = guild.members[user.id].payload(self.fake.permissions(user, channel))
            member.pop("user")
            resolved.setdefault("members", {})[str(user.id)] = member

    def _build_options(
        self,
        schema: list[JSON],
        given: Mapping[str, Any],
        channel: Channel,
        resolved: dict[str, dict[str, JSON]],
        focused: str | None,
    ) -> list[JSON]:
        by_name = {o["name"]: o for o in schema}
        for key in given:
            if key not in by_name:
                raise DriverError(f"unknown option {key!r}; the command has {list(by_name)}")
        if focused is not None and focused not in by_name:
            raise DriverError(f"unknown focused option {focused!r}")
        out: list[JSON] = []
        for opt in schema:
            name = opt["name"]
            if name == focused:
                if not opt.get("autocomplete"):
                    raise DriverError(f"option {name!r} has no autocomplete")
                out.append(
                    {
                        "type": opt["type"],
                        "name": name,
                        "value": str(given.get(name, "")),
                        "focused": True,
                    }
                )
                continue
            if name not in given:
                if opt.get("required") and focused is None:
                    raise DriverError(f"missing required option {name!r}")
                continue
            value = self._option_value(opt, given[name], resolved, channel)
            out.append({"type": opt["type"], "name": name, "value": value})
        return out

    # ------------------------------------------------------------------ actions
    def send_slash(
        self, name: str, user: User, channel: Channel, options: Mapping[str, Any] | None = None
    ) -> InteractionHandle:
        """``/name [sub [subsub]]`` with ``options`` as a user would type them.

        ``name`` may include subcommand group and subcommand (``"shengji new"``).
        Raises :class:`DriverError` for unknown commands/options, missing required
        options, wrong types, values outside choices or ranges.
        """
        self._check_can_use(user, channel)
        cmd, path, schema = self._resolve_command(name, user, channel)
        resolved: dict[str, dict[str, JSON]] = {}
        leaf = self._build_options(schema, options or {}, channel, resolved, None)
        return self._start(2, user, channel, self._command_data(cmd, path, leaf, resolved))

    def autocomplete(
        self,
        name: str,
        user: User,
        channel: Channel,
        focused: str,
        options: Mapping[str, Any] | None = None,
    ) -> InteractionHandle:
        """The user is typing in option ``focused`` (its text is ``options[focused]``)."""
        self._check_can_use(user, channel)
        cmd, path, schema = self._resolve_command(name, user, channel)
        given = dict(options or {})
        given.setdefault(focused, "")
        resolved: dict[str, dict[str, JSON]] = {}
        leaf = self._build_options(schema, given, channel, resolved, focused)
        return self._start(4, user, channel, self._command_data(cmd, path, leaf, resolved))

    def _command_data(
        self, cmd: Command, path: list[str], leaf: list[JSON], resolved: dict[str, dict[str, JSON]]
    ) -> JSON:
        data: JSON = {
            "id": str(cmd.id),
            "name": cmd.name,
            "type": 1,
            "options": self._wrap(cmd, path, leaf),
        }
        if resolved:
            data["resolved"] = resolved
        if cmd.guild_id is not None:
            data["guild_id"] = str(cmd.guild_id)
        return data

    def click(self, message: Message | int, custom_id: str, user: User) -> InteractionHandle:
        """Press the button ``custom_id`` on ``message``."""
        msg = self._visible_message(message, user)
        comp = self._component(msg, custom_id)
        if comp.get("type") != BUTTON:
            raise DriverError(f"{custom_id!r} is not a button (type {comp.get('type')})")
        if comp.get("style") in (5, 6):
            raise DriverError(f"{custom_id!r} is a link/premium button; it sends no interaction")
        return self._start(
            3,
            user,
            self.fake.channels[msg.channel_id],
            {"custom_id": custom_id, "component_type": BUTTON},
            msg,
        )

    def select(
        self, message: Message | int, custom_id: str, values: Iterable[Any], user: User
    ) -> InteractionHandle:
        """Choose ``values`` in the select ``custom_id`` on ``message``.

        String selects take option values; user/role/channel selects take
        :class:`User`/:class:`Role`/:class:`Channel` objects.
        """
        msg = self._visible_message(message, user)
        comp = self._component(msg, custom_id)
        channel = self.fake.channels[msg.channel_id]
        data = self._select_data(comp, list(values), channel)
        return self._start(3, user, channel, data, msg)

    def _select_data(self, comp: JSON, values: list[Any], channel: Channel) -> JSON:
        ctype = comp.get("type")
        custom_id = comp.get("custom_id")
        if ctype not in SELECT_TYPES:
            raise DriverError(f"{custom_id!r} is not a select menu (type {ctype})")
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise DriverError(f"{custom_id!r} takes {lo}–{hi} values, got {len(values)}")
        data: JSON = {"custom_id": custom_id, "component_type": ctype}
        if ctype == STRING_SELECT:
            allowed = [o["value"] for o in comp.get("options") or []]
            bad = [v for v in values if v not in allowed]
            if bad:
                raise DriverError(f"{bad} are not options of {custom_id!r} ({allowed})")
            data["values"] = list(values)
            return data
        resolved: dict[str, dict[str, JSON]] = {}
        ids = []
        for v in values:
            if isinstance(v, User) and ctype in (5, 7):
                self._resolve_user(v, resolved, channel)
            elif isinstance(v, Role) and ctype in (6, 7):
                resolved.setdefault("roles", {})[str(v.id)] = v.payload()
            elif isinstance(v, Channel) and ctype == 8:
                resolved.setdefault("channels", {})[str(v.id)] = {
                    "id": str(v.id),
                    "name": v.name,
                    "type": v.type,
                    "permissions": "0",
                }
            else:
                raise DriverError(f"{v!r} cannot be chosen in select type {ctype}")
            ids.append(str(v.id))
        data["values"] = ids
        data["resolved"] = resolved
        return data

    def submit_modal(
        self, opened_by: InteractionHandle, user: User, values: Mapping[str, Any]
    ) -> InteractionHandle:
        """Fill in and submit the modal the bot opened in answer to ``opened_by``.

        ``values`` maps text-input custom_ids to strings (selects inside labels
        take lists of option values). Required inputs must be filled and lengths
        respected, as the Discord client enforces.
        """
        modal = opened_by.modal
        if modal is None:
            raise DriverError(f"{opened_by!r} did not open a modal")
        if user is not opened_by.user:
            raise DriverError("only the user who opened a modal can submit it")
        given = dict(values)
        channel = opened_by.channel
        components: list[JSON] = []
        for comp in modal.get("components") or []:
            if comp.get("type") == 1:
                inner = comp["components"][0]
                components.append(
                    {
                        "type": 1,
                        "id": comp.get("id"),
                        "components": [self._submitted(inner, given, channel)],
                    }
                )
            elif comp.get("type") == 18:
                components.append(
                    {
                        "type": 18,
                        "id": comp.get("id"),
                        "component": self._submitted(comp["component"], given, channel),
                    }
                )
            else:
                components.append({"type": comp.get("type"), "id": comp.get("id")})
        if given:
            raise DriverError(f"the modal has no inputs {sorted(given)}")
        data = {"custom_id": modal["custom_id"], "components": components}
        source = opened_by.interaction.message
        return self._start(5, user, opened_by.channel, data, source)

    def _submitted(self, comp: JSON, given: dict[str, Any], channel: Channel) -> JSON:
        custom_id = str(comp.get("custom_id"))
        ctype = comp.get("type")
        if ctype == 4:
            value = given.pop(custom_id, comp.get("value") or "")
            if not isinstance(value, str):
                raise DriverError(f"text input {custom_id!r} takes a string")
            if comp.get("required", True) and not value:
                raise DriverError(f"text input {custom_id!r} is required")
            lo, hi = comp.get("min_length", 0), comp.get("max_length", 4000)
            if value and not lo <= len(value) <= hi:
                raise DriverError(f"text input {custom_id!r} takes {lo}–{hi} characters")
            return {"type": 4, "id": comp.get("id"), "custom_id": custom_id, "value": value}
        if ctype in SELECT_TYPES:
            chosen = given.pop(custom_id, [])
            data = self._select_data(comp, list(chosen), channel)
            return {
                "type": ctype,
                "id": comp.get("id"),
                "custom_id": custom_id,
                "values": data["values"],
            }
        raise DriverError(f"the driver cannot fill modal component type {ctype}")

    def say(self, user: User, channel: Channel, content: str) -> Message:
        """A plain user message (MESSAGE_CREATE; content only with the MESSAGE_CONTENT intent).

        As on Discord, writing in an archived (unlocked) thread unarchives it.
        """
        fake = self.fake
        if channel.is_thread and channel.archived and not channel.locked:
            fake.update_thread(channel, archived=False)
        self._check_can_use(user, channel)
        msg = Message(
            id=fake.ids.next(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=user,
            created_at=fake.clock.time(),
            content=content,
        )
        fake.store_message(msg)
        payload = msg.payload()
        guild = fake.guild_of(channel)
        if guild is not None:
            member = guild.members[user.id].payload()
            member.pop("user")
            payload["member"] = member
        mentions_bot = fake.bot_user.mention in content
        for session in fake.gateway.sessions_for(channel.guild_id):
            intent = 1 << 9 if channel.guild_id else 1 << 12
            if not session.intents & intent:
                continue
            data = payload
            if not (session.intents & (1 << 15) or channel.is_dm or mentions_bot):
                data = payload | {"content": "", "embeds": [], "attachments": [], "components": []}
            fake.gateway._dispatch_to(session, "MESSAGE_CREATE", data)
        fake.gateway.events.append(("MESSAGE_CREATE", payload))
        fake.notifier.notify()
        return msg

    # ------------------------------------------------------------------ helpers
    def _check_can_use(self, user: User, channel: Channel) -> None:
        if channel.deleted:
            raise DriverError(f"channel {channel.name} was deleted")
        if channel.is_dm:
            if channel.recipient is not user:
                raise DriverError(f"{user.name} is not in that DM")
            return
        guild = self.fake.guild_of(channel)
        if guild is None or user.id not in guild.members:
            raise DriverError(f"{user.name} is not a member of that guild")
        perms = self.fake.permissions(user, channel)
        if not perms & Perm.VIEW_CHANNEL:
            raise DriverError(f"{user.name} cannot see #{channel.name}")
        if channel.locked and not perms & Perm.MANAGE_THREADS:
            raise DriverError(f"thread {channel.name} is locked")
        if channel.archived:
            # Discord's client offers no commands or components in an archived thread.
            raise DriverError(f"thread {channel.name} is archived")

    def _visible_message(self, message: Message | int, user: User) -> Message:
        msg = message if isinstance(message, Message) else self.fake.messages.get(message)
        if msg is None or msg.deleted:
            raise DriverError(f"message {message!r} does not exist (or was deleted)")
        if msg.ephemeral_for is not None and msg.ephemeral_for != user.id:
            raise DriverError(f"{user.name} cannot see another user's ephemeral message")
        self._check_can_use(user, self.fake.channels[msg.channel_id])
        return msg

    def _component(self, msg: Message, custom_id: str) -> JSON:
        comp = msg.find_component(custom_id)
        if comp is None:
            raise DriverError(
                f"message {msg.id} has no component {custom_id!r}; it has {msg.custom_ids()}"
            )
        if comp.get("disabled"):
            raise DriverError(f"{custom_id!r} is disabled")
        return comp

    def _start(
        self, itype: int, user: User, channel: Channel, data: JSON, message: Message | None = None
    ) -> InteractionHandle:
        inter = self.fake.new_interaction(
            type=itype, user=user, channel=channel, data=data, message=message
        )
        return InteractionHandle(self.fake, inter, self.timeout)
