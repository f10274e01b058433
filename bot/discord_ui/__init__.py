"""The Discord layer: messages, controls, replies and the publisher, used by the app and the cogs.

It reaches the running bot only through ``services(interaction)`` (a protocol), so it imports
neither the composition root (``app.py``) nor any cog. Modules: ``services`` (what the bot
provides), ``replies`` (answering people), ``messages`` (text and embeds), ``components``
(buttons, menus and their clicks), ``publisher`` (table messages, announcements, pings),
``choices`` (slash-command choices).
"""

from bot.discord_ui.choices import FAMILY_CHOICES, ORDER_CHOICES, VARIANT_CHOICES
from bot.discord_ui.components import (
    TABLE_ITEMS,
    ActButton,
    ActSelect,
    LobbyButton,
    SeatButton,
    act_and_answer,
    hand_view,
    send_hand,
    table_view,
)
from bot.discord_ui.messages import (
    ANNOUNCED,
    announcement,
    hand_text,
    options_text,
    private_lines,
    table_content,
    table_embed,
)
from bot.discord_ui.publisher import DiscordPublisher
from bot.discord_ui.replies import (
    REFUSALS,
    answer_command_error,
    answers_refusals,
    display_name,
    friendly,
    is_admin,
    refuse,
    reply,
)
from bot.discord_ui.services import Services, services, services_of

__all__ = [
    "ANNOUNCED",
    "FAMILY_CHOICES",
    "ORDER_CHOICES",
    "REFUSALS",
    "TABLE_ITEMS",
    "VARIANT_CHOICES",
    "ActButton",
    "ActSelect",
    "DiscordPublisher",
    "LobbyButton",
    "SeatButton",
    "Services",
    "act_and_answer",
    "announcement",
    "answer_command_error",
    "answers_refusals",
    "display_name",
    "friendly",
    "hand_text",
    "hand_view",
    "is_admin",
    "options_text",
    "private_lines",
    "refuse",
    "reply",
    "send_hand",
    "services",
    "services_of",
    "table_content",
    "table_embed",
    "table_view",
]
