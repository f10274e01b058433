"""Every interaction answered: a click or form no handler will take gets an ephemeral explanation.

discord.py silently drops a component whose custom id matches no registered item (``garbage``,
``tn:hand:7x``), or whose id is not on the message it came from, and a form nobody waits for (one
opened before a restart). The person would see "This interaction failed". ``on_interaction`` runs
for every interaction after discord.py has dispatched it: it routes our own forms (stateless, by
custom id) and answers whatever no item will. The items themselves never raise from
``from_custom_id`` and answer every click (``replies.answering``), so "will be handled" is exact.
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import discord

from bot.discord_ui import bidding
from bot.discord_ui.replies import reply

log = logging.getLogger(__name__)

UNKNOWN_CONTROL = (
    "I don't recognise that control: it may come from an old message or be damaged. Nothing was "
    "changed. Use /hand for your hand and choices, or /table status to post the table again."
)
FOREIGN_CONTROL = "That control is not one of Trick Night's, so I can't act on it. Nothing was changed."
UNKNOWN_FORM = "I don't recognise that form any more. Nothing was changed. Use /hand for your choices now."

FormHandler = Callable[[discord.Interaction, re.Match[str]], Awaitable[None]]
# Our forms, answered here by custom id so they keep working across restarts.
FORMS: tuple[tuple[re.Pattern[str], FormHandler], ...] = ((bidding.FORM, bidding.submit_bid),)


async def on_interaction(interaction: discord.Interaction) -> None:
    """The client's ``on_interaction`` listener: route our forms, answer the unanswerable."""
    try:
        if interaction.type is discord.InteractionType.modal_submit:
            await answer_form(interaction)
        elif interaction.type is discord.InteractionType.component and not will_be_handled(interaction):
            custom_id = dict(interaction.data or {}).get("custom_id")
            ours = isinstance(custom_id, str) and custom_id.startswith("tn:")
            await reply(interaction, UNKNOWN_CONTROL if ours else FOREIGN_CONTROL)
    except Exception:
        log.exception("could not answer an interaction")
        with contextlib.suppress(Exception):
            await reply(interaction, "Something went wrong on our side; nothing was changed.")


async def answer_form(interaction: discord.Interaction) -> None:
    custom_id = dict(interaction.data or {}).get("custom_id")
    if isinstance(custom_id, str):
        for pattern, handler in FORMS:
            match = pattern.fullmatch(custom_id)
            if match is not None:
                await handler(interaction, match)
                return
    await reply(interaction, UNKNOWN_FORM)


def _view_store(client: discord.Client) -> Any:
    # discord.py offers no public way to ask what it will dispatch a custom id to; its view store
    # is the only exact answer (discord.py is pinned to 2.7 in pyproject.toml).
    return getattr(getattr(client, "_connection", None), "_view_store", None)


def _components(components: list[Any]) -> Iterator[Any]:
    for component in components:
        children = getattr(component, "children", None)
        if children is not None:
            yield from _components(list(children))
        else:
            yield component


def will_be_handled(interaction: discord.Interaction) -> bool:
    """Whether discord.py will hand this component interaction to one of the bot's items: a
    view bound to the message, or a registered persistent item whose template matches an id that
    is on the message (discord.py's own two conditions)."""
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id, kind = data.get("custom_id"), data.get("component_type")
    message = interaction.message
    if not isinstance(custom_id, str) or message is None:
        return False
    store = _view_store(interaction.client)
    bound: dict[Any, dict[Any, Any]] = getattr(store, "_views", None) or {}
    if any((kind, custom_id) in bound.get(key, {}) for key in (message.id, None)):
        return True
    patterns: dict[re.Pattern[str], Any] = getattr(store, "_dynamic_items", None) or {}
    if not any(pattern.fullmatch(custom_id) for pattern in patterns):
        return False
    return any(
        getattr(component, "custom_id", None) == custom_id and component.type.value == kind
        for component in _components(list(message.components))
    )
