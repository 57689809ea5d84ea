from fakediscord.fixtures import bot_client, driver, fake_discord, world  # noqa: F401

from .helpers import shengji  # noqa: F401
