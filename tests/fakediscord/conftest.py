"""Fixtures for the fake's own tests (the same ones other folders import)."""

from fakediscord.fixtures import bot_client, driver, fake_discord, world  # noqa: F401
