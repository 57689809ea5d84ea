"""What the monkey's people do: any slash command the bot synced, any click they can see.

Commands come from the tree the bot synced to the fake (a subcommand added to the bot
is typed here too, with no change), their options drawn within the schema: a choice
among the choices, a number within its range, a user among the server's members,
text that a person might type (the words a field takes, cards from the typist's own
hand or from nowhere, junk now and then). Clicks are on components of messages the
person sees: the table's thread and channels, their DMs, their own ephemeral answers,
newest likeliest; a menu gets a random selection within its bounds.
"""

from __future__ import annotations

import typing
from typing import Any

from bot.ai import suggest_cards
from bot.game.legal import play_options
from bot.rules import ALL_CARDS, Card, RuleSet, format_cards
from bot.service import Table
from cogs.prefs import WORDS
from cogs.settings import PLACES, TIMER_FIELDS
from fakediscord.driver import (
    BOOLEAN,
    INTEGER,
    NUMBER,
    STRING,
    USER,
    DriverError,
    InteractionHandle,
)
from fakediscord.state import Message, User

from .monkey_rig import Rig

JSON = dict[str, Any]
# how often each command is typed, against 1 for the others (tournaments rarer)
COMMAND_WEIGHTS = {
    "new": 4,
    "join": 4,
    "addbot": 4,
    "start": 4,
    "play": 6,
    "hand": 3,
    "hint": 2,
    "auto": 2,
    "leave": 1.5,
    "abort": 1,
}
TOURNAMENT_WEIGHT = 0.15
JUNK = ("", "?", "x" * 40, "1", "-5", "大", "none", "🂡", "AH AH AH", "0")
NAMES = ("Spring Cup", "周末赛", "a", "Finals 2", "🀄 open")
SETTING_WORDS = {
    "table_place": PLACES,
    "language": ("zh", "en", "auto", "fr"),
    "big_light_league": ("yes", "no", "on"),
    "think_ms": ("20", "30", "60", "10", "5000"),  # the expert thinks in real time: short
    "throw_penalty": ("0", "5", "10", "7", "-10"),
    "play_seconds": ("5", "30", "90", "4", "3601"),
    "kitty_seconds": ("5", "60", "120", "3"),
}
TIMER_WORDS = ("0", "0.5", "1", "5", "12", "-1", "abc", "100000")


def leaf_commands(rig: Rig) -> list[tuple[str, list[JSON]]]:
    """Every command a person can type here, with its options, from the synced tree."""
    leaves: list[tuple[str, list[JSON]]] = []

    def walk(name: str, options: list[JSON]) -> None:
        subs = [o for o in options if o.get("type") in (1, 2)]
        if not subs:
            leaves.append((name, options))
        for sub in subs:
            walk(f"{name} {sub['name']}", list(sub.get("options") or []))

    for command in rig.driver.commands_for(rig.world.tables).values():
        walk(command.name, list(command.raw.get("options") or []))
    return leaves


def weight(name: str) -> float:
    words = name.split()
    if "tournament" in words:
        return TOURNAMENT_WEIGHT
    return COMMAND_WEIGHTS.get(words[-1], 1.0)


def hand_of(table: Table | None, user: User) -> tuple[Card, ...]:
    if table is None or table.match is None:
        return ()
    seat = table.seat_of(user.id)
    return () if seat is None else tuple(table.match.hands[seat])


def cards_text(rig: Rig, user: User) -> str:
    """Cards as a player might type them: a legal play when it is theirs to make, else
    some of their own cards, else anything."""
    rng = rig.rng
    table = rig.main_table()
    hand = hand_of(table, user)
    good = good_cards(table, user)
    roll = rng.random()
    if good and roll < 0.7:
        return format_cards(rng.choice(good))
    if hand and roll < 0.9:
        return format_cards(rng.sample(hand, min(len(hand), rng.randint(1, 3))))
    if roll < 0.95:
        return rng.choice(JUNK) or "AH"
    return " ".join(str(rng.choice(ALL_CARDS)) for _ in range(rng.randint(1, 4)))


def good_cards(table: Table | None, user: User) -> list[tuple[Card, ...]]:
    """Plays (or a burial) the rules accept from ``user`` now: the suggestion first."""
    if table is None or table.match is None:
        return []
    seat = table.seat_of(user.id)
    match = table.match
    if seat is None or match.expecting() not in (("play", seat), ("bury", seat)):
        return []
    view = match.view(seat)
    return [tuple(suggest_cards(view)), *play_options(view, limit=12)]


def setting_value(rig: Rig, field: str | None) -> str:
    rng = rig.rng
    if rng.random() < 0.1 or field is None:
        return rng.choice(JUNK) or "x"
    if field in SETTING_WORDS:
        return rng.choice(SETTING_WORDS[field])
    if field in TIMER_FIELDS:
        return rng.choice(TIMER_WORDS)
    hint = typing.get_type_hints(RuleSet).get(field)
    words = [str(a).lower() for a in _literals(hint)] or ["yes", "no", "2", "none"]
    return rng.choice(words)


def _literals(hint: Any) -> list[Any]:
    if hint is bool:
        return ["yes", "no", "off"]
    found: list[Any] = []
    for arg in typing.get_args(hint) or ():
        found += _literals(arg) if typing.get_args(arg) else [arg]
    return [a for a in found if a is not type(None)]


def option_value(rig: Rig, user: User, name: str, opt: JSON, chosen: dict[str, Any]) -> Any:
    """A value a person could give ``opt`` (its choices, its range, words it takes)."""
    rng = rig.rng
    if opt.get("choices"):
        return rng.choice(opt["choices"])["value"]
    kind, key = opt["type"], opt["name"]
    if kind in (INTEGER, NUMBER):
        low = int(opt.get("min_value", 0))
        high = int(opt.get("max_value", low + 30))
        return rng.randint(low, min(high, low + (8 if key in ("count", "advance") else 30)))
    if kind == BOOLEAN:
        return rng.random() < 0.5
    if kind == USER:
        return rng.choice(rig.users)
    if kind != STRING:
        raise ValueError(f"the monkey cannot fill option {key!r} of type {kind}")
    if key == "cards":
        return cards_text(rig, user)[: opt.get("max_length", 200)]
    if key == "value" and name.endswith("prefs"):
        field = chosen.get("field")
        words = list(WORDS.get(field, {})) if isinstance(field, str) else []
        return rng.choice(words) if words and rng.random() < 0.9 else rng.choice(JUNK) or "x"
    if key == "value":
        return setting_value(rig, chosen.get("field"))[: opt.get("max_length", 100)]
    text = rng.choice(NAMES) if key in ("name", "team") else rng.choice(JUNK)
    return text[: opt.get("max_length", 100)] or "x"


def options_for(rig: Rig, user: User, name: str, schema: list[JSON]) -> dict[str, Any]:
    chosen: dict[str, Any] = {}
    for opt in schema:
        if opt.get("required") or rig.rng.random() < 0.5:
            chosen[opt["name"]] = option_value(rig, user, name, opt, chosen)
    return chosen


def command_channel(rig: Rig) -> Any:
    """Where a person types: mostly #tables, sometimes the table's thread or #general."""
    roll = rig.rng.random()
    threads = [c for c in rig.fake.threads(rig.world.tables) if not c.archived]
    if threads and roll < 0.25:
        return threads[-1]
    return rig.world.general if roll > 0.9 else rig.world.tables


def slash(rig: Rig, user: User, name: str, options: dict[str, Any], channel: Any = None) -> Any:
    channel = channel or command_channel(rig)
    shown = " ".join(f"{k}={getattr(v, 'name', v)!r}" for k, v in options.items())
    where = getattr(channel, "name", channel.id)
    rig.note(f"{user.name} /{name} {shown} in #{where}")
    return rig.driver.send_slash(name, user, channel, options)


def random_slash(rig: Rig, user: User) -> InteractionHandle:
    leaves = leaf_commands(rig)
    name, schema = rig.rng.choices(leaves, [weight(n) for n, _ in leaves])[0]
    # the cup step's tournament is in #general: half the tournament commands go there
    cup = "tournament" in name.split() and rig.rng.random() < 0.5
    channel = rig.world.general if cup else None
    return slash(rig, user, name, options_for(rig, user, name, schema), channel)


def random_autocomplete(rig: Rig, user: User) -> InteractionHandle:
    typed = cards_text(rig, user)[: rig.rng.randint(0, 6)]
    rig.note(f"{user.name} types /shengji play cards:{typed!r} (autocomplete)")
    return rig.driver.autocomplete(
        "shengji play", user, command_channel(rig), "cards", {"cards": typed}
    )


# ---------------------------------------------------------------------------- clicks
def seen_by(rig: Rig, user: User) -> list[Message]:
    """Messages with components ``user`` can see now, oldest first."""
    found: list[Message] = []
    for channel in rig.fake.channels.values():
        if channel.guild_id != rig.world.guild.id or channel.deleted or channel.archived:
            continue
        found += rig.fake.visible_to(user, channel)
    found += rig.fake.dms(user)
    return sorted((m for m in found if clickable(m)), key=lambda m: m.id)


def clickable(message: Message) -> list[JSON]:
    return [
        c
        for row in message.components
        for c in row.get("components", [])
        if c.get("type") in (2, 3, 5) and not c.get("disabled") and c.get("style") not in (5, 6)
    ]


def click_any(rig: Rig, user: User, message: Message) -> InteractionHandle:
    component = rig.rng.choice(clickable(message))
    return press(rig, user, message, component)


def press(rig: Rig, user: User, message: Message, component: JSON) -> InteractionHandle:
    """The click on a button, or a random choice in a menu, within its bounds."""
    rng = rig.rng
    custom_id = component["custom_id"]
    if component["type"] == 2:
        rig.note(f"{user.name} clicks {custom_id} ({component.get('label', '')!r}) on {message.id}")
        return rig.driver.click(message, custom_id, user)
    low = component.get("min_values", 1)
    if component["type"] == 5:  # a user menu (a tournament's partner)
        values: list[Any] = rng.sample(rig.users, max(1, low))
    else:
        options = [o["value"] for o in component.get("options", [])]
        high = min(component.get("max_values", 1), len(options))
        values = rng.sample(options, rng.randint(low, max(low, min(high, 4))))
    shown = [getattr(v, "name", v) for v in values]
    rig.note(f"{user.name} picks {shown} in {custom_id} on {message.id}")
    return rig.driver.select(message, custom_id, values, user)


def burst(rig: Rig) -> list[InteractionHandle]:
    """Two to four at once, each sent before any is answered (two people's commands
    crossing, one person's double submit): a command or a click each, and now and then
    the same button clicked twice (a double click). What the client refuses is noted."""
    rng = rig.rng
    rig.note("at once:")
    handles: list[InteractionHandle] = []
    for user in rng.choices(rig.users, k=rng.randint(2, 4)):
        try:
            if rng.random() < 0.5:
                handles.append(random_slash(rig, user))
                continue
            message = recent_message(rig, user)
            if message is None:
                continue
            component = rng.choice(clickable(message))
            handles.append(press(rig, user, message, component))
            if component["type"] == 2 and rng.random() < 0.3:
                handles.append(press(rig, user, message, component))
        except DriverError as err:
            rig.note(f"  (the client refuses: {err})")
    return handles


def random_click(rig: Rig, user: User) -> InteractionHandle | None:
    message = recent_message(rig, user)
    return None if message is None else click_any(rig, user, message)


def recent_message(rig: Rig, user: User) -> Message | None:
    """One of the last twelve messages with components ``user`` sees, newest likeliest."""
    messages = seen_by(rig, user)[-12:]
    if not messages:
        return None
    return rig.rng.choices(messages, range(1, len(messages) + 1))[0]
