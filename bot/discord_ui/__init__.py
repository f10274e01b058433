"""The Discord layer: messages, controls, replies and the publisher, used by the app and the cogs.

It reaches the running bot only through ``services(interaction)`` (a protocol), so it imports
neither the composition root (``app.py``) nor any cog. Modules: ``services`` (what the bot
provides), ``replies`` (answering people), ``messages`` (text and embeds), ``components``
(buttons, menus and their clicks), ``panels`` (each player's hand panel, edited in place),
``pictures`` (cards as pictures on panels and table messages), ``bidding`` (bid controls),
``confirm`` (the second step of what cannot be undone), ``lobby`` (the seat menu, swap requests,
invitations), ``reach`` (which table a click, form or command may reach: only one of its own guild
and channel), ``threads`` (tables in threads of their own), ``rules`` (``/rules`` pages),
``publisher`` (table messages, announcements, pings), ``fallback`` (answers to interactions no
item takes), ``limits`` (Discord's limits and the one check of everything sent), ``choices``
(slash-command choices).
"""

from bot.discord_ui import limits
from bot.discord_ui.bidding import ITEMS as BID_ITEMS
from bot.discord_ui.checks import check_length, missing_permissions, require_posting
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
from bot.discord_ui.confirm import ITEMS as CONFIRM_ITEMS
from bot.discord_ui.confirm import ask_to_end, ask_to_leave
from bot.discord_ui.fallback import on_interaction as answer_unhandled
from bot.discord_ui.messages import (
    ANNOUNCED,
    announcement,
    hand_text,
    options_text,
    private_lines,
    standings_text,
    table_content,
    table_embed,
)
from bot.discord_ui.publisher import DiscordPublisher
from bot.discord_ui.replies import (
    REFUSALS,
    answer_command_error,
    answering,
    answers_refusals,
    display_name,
    friendly,
    is_admin,
    refuse,
    reply,
)
from bot.discord_ui.rules import ITEMS as RULES_ITEMS
from bot.discord_ui.rules import rules_page
from bot.discord_ui.services import Services, services, services_of

__all__ = [
    "ANNOUNCED",
    "BID_ITEMS",
    "CONFIRM_ITEMS",
    "FAMILY_CHOICES",
    "ORDER_CHOICES",
    "REFUSALS",
    "RULES_ITEMS",
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
    "answer_unhandled",
    "answering",
    "answers_refusals",
    "ask_to_end",
    "ask_to_leave",
    "check_length",
    "display_name",
    "friendly",
    "hand_text",
    "hand_view",
    "is_admin",
    "limits",
    "missing_permissions",
    "options_text",
    "private_lines",
    "refuse",
    "reply",
    "require_posting",
    "rules_page",
    "send_hand",
    "services",
    "services_of",
    "standings_text",
    "table_content",
    "table_embed",
    "table_view",
]
