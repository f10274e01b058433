"""What the Discord layer needs from the running bot, named by a protocol instead of the bot class.

The composition root (``app.py``) builds a client that carries these services; the cogs and
components reach them through ``services(interaction)``, so nothing here imports the bot class.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, cast

import discord

if TYPE_CHECKING:
    from bot.discord_ui.publisher import DiscordPublisher
    from bot.store import Store
    from bot.tables import TableManager


class Services(Protocol):
    """The table manager, the store and the publisher (which keeps the hand panels) of the running
    bot."""

    tables: TableManager
    store: Store
    publisher: DiscordPublisher


def services_of(client: discord.Client) -> Services:
    """The services of a client built by the composition root (they exist once setup has run)."""
    return cast("Services", client)


def services(interaction: discord.Interaction) -> Services:
    """The services of the bot an interaction came to."""
    return services_of(interaction.client)
