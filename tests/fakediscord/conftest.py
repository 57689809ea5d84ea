"""Fixtures for the fake's own tests (the same ones other folders import)."""

from tests.fakediscord.fixtures import bot_client, driver, fake_discord, world  # noqa: F401
