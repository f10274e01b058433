"""Answering people: ephemeral replies, refusals with player names, and who is asking."""

from __future__ import annotations

import contextlib
import functools
import inspect
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeVar

import discord
from discord import app_commands

from bot import render
from bot.discord_ui import limits
from bot.discord_ui.services import services
from bot.engine import EngineError
from bot.errors import Refusal
from bot.store import StoreUnavailable, write_patience

if TYPE_CHECKING:
    from bot.tables import Table

log = logging.getLogger(__name__)

# Everything the bot declines with a sentence for the person: its own refusals, the engine's, and
# a database that cannot take the change just now.
REFUSALS: tuple[type[Exception], ...] = (Refusal, EngineError, StoreUnavailable)

# How long a person's request may wait for a locked, full or read-only database: with the wait
# for the table (a computer's turn gives up after 0.5 s), the answer still beats Discord's 3 s.
CLICK_PATIENCE = 1.2
BUSY = {
    "locked": "Trick Night's database is busy (another program has it locked)",
    "read-only": "Trick Night's database cannot be written just now (its files are read-only)",
    "full": "Trick Night's database cannot grow just now (the disk is full)",
    "unreachable": "Trick Night's database server cannot be reached just now (it is restarting or down)",
    "connection lost": "Trick Night's database server lost its connection just now",
    "conflict": "Trick Night's database met a conflicting change",
}

CogT = TypeVar("CogT")
P = ParamSpec("P")


def friendly(table: Table | None, err: Exception) -> str:
    """The refusal's sentence, with seat numbers replaced by the players' names."""
    if isinstance(err, StoreUnavailable):
        busy = BUSY.get(err.reason, "Trick Night's database does not answer just now")
        return f"{busy}, so nothing was changed. Try again in a moment."
    text = str(err)
    if table is not None:
        text = render.name_seats(text, table.names())
    return limits.clip(text, limits.CONTENT)


async def reply(interaction: discord.Interaction, text: str | None, **kwargs: Any) -> None:
    """An ephemeral answer, whether or not the interaction was already answered (inside
    Discord's limits, checked before sending)."""
    limits.checked(content=text, **kwargs)
    if interaction.response.is_done():
        await interaction.followup.send(text or discord.utils.MISSING, ephemeral=True, **kwargs)
    else:
        await interaction.response.send_message(text, ephemeral=True, **kwargs)


async def refuse(interaction: discord.Interaction, err: Exception, table: Table | None = None) -> None:
    """Answer a refused request (one of ``REFUSALS``) ephemerally, with player names (of ``table``,
    else of the table in the channel it came from)."""
    if table is None:
        table = services(interaction).tables.table_here(interaction.channel_id, guild_id=interaction.guild_id)
    await reply(interaction, friendly(table, err))


OOPS = "Something went wrong on our side; nothing was changed. Try again."


async def answering(
    interaction: discord.Interaction, work: Callable[[], Awaitable[None]], table: Table | None = None
) -> None:
    """Run a component's handler so the click is always answered: a refusal gets its sentence,
    anything unexpected is logged and answered too (discord.py only logs errors of persistent
    items, which would leave the person with "This interaction failed")."""
    try:
        await work()
    except REFUSALS as err:
        await refuse(interaction, err, table)
    except Exception:
        log.exception("interaction failed")
        with contextlib.suppress(discord.HTTPException):
            await reply(interaction, OOPS)


def answers_refusals(
    func: Callable[Concatenate[CogT, discord.Interaction, P], Coroutine[Any, Any, None]],
) -> Callable[Concatenate[CogT, discord.Interaction, P], Coroutine[Any, Any, None]]:
    """Decorate a slash command so a refusal (one of ``REFUSALS``) becomes an ephemeral reply
    instead of an error; anything unexpected still reaches the tree's error handler."""

    @functools.wraps(func)
    async def wrapper(
        cog: CogT, interaction: discord.Interaction, /, *args: P.args, **kwargs: P.kwargs
    ) -> None:
        try:
            with write_patience(CLICK_PATIENCE):
                await func(cog, interaction, *args, **kwargs)
        except REFUSALS as err:
            await refuse(interaction, err)

    # discord.py reads the parameters from the signature; give it the resolved annotations.
    wrapper.__signature__ = inspect.signature(func, eval_str=True)  # type: ignore[attr-defined]
    return wrapper


async def answer_command_error(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
    """The command tree's error handler: refusals and missing rights get a sentence; anything
    else is logged and answered, so no command goes unanswered."""
    original = getattr(error, "original", error)
    if isinstance(original, REFUSALS):
        await refuse(interaction, original)
        return
    if isinstance(error, app_commands.NoPrivateMessage):
        await reply(interaction, "Tables live in server channels: use this command in a server.")
        return
    if isinstance(error, app_commands.MissingPermissions):
        await reply(interaction, "You need the Manage Server permission for that.")
        return
    log.error("command failed", exc_info=original)
    await reply(interaction, "Something went wrong on our side; nothing was changed.")


def display_name(interaction: discord.Interaction) -> str:
    user = interaction.user
    return getattr(user, "display_name", None) or user.name


def is_admin(interaction: discord.Interaction) -> bool:
    """Whether the person may manage the server (hosts' rights at any table, admin commands)."""
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and perms.manage_guild)
