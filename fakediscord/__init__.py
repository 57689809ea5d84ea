"""fakediscord: a loopback fake of the Discord API for end-to-end tests and load.

See ``README.md`` in this folder for the driver API, fixtures, limits and faults.
"""

from .clock import VirtualClock
from .driver import DriverError, InteractionFailed, InteractionHandle, UserDriver
from .errors import DiscordError, leaf_codes
from .harness import (
    HarnessBot,
    RunningBot,
    ShardedHarnessBot,
    World,
    point_discord_py_at,
    populate,
    running_bot,
    start_bot,
)
from .limits import Limits
from .server import FakeDiscord, RequestRecord
from .state import Attachment, Channel, Guild, Intents, Message, Perm, Role, User

__all__ = [
    "Attachment",
    "Channel",
    "DiscordError",
    "DriverError",
    "FakeDiscord",
    "Guild",
    "HarnessBot",
    "Intents",
    "InteractionFailed",
    "InteractionHandle",
    "Limits",
    "Message",
    "Perm",
    "RequestRecord",
    "Role",
    "RunningBot",
    "ShardedHarnessBot",
    "User",
    "UserDriver",
    "VirtualClock",
    "World",
    "leaf_codes",
    "point_discord_py_at",
    "populate",
    "running_bot",
    "start_bot",
]
