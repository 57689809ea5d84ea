"""The composition root of the Discord bot (see ``app.client``)."""

from app.client import ShengjiBot, create_bot, run_discord

__all__ = ["ShengjiBot", "create_bot", "run_discord"]
