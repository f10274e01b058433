"""A second step for what cannot be undone: declaring out, conceding, throwing in, leaving a
running game and ending a table.

The hand shows **Declare out…** (or **Concede…**, **Throw in…**) on a row of its own, away from
the cards; clicking it opens a separate ephemeral question that states the consequence, with
**Yes** and **Cancel**. The consequence comes from the engine itself (``bot.irreversible``, which
the terminal asks too). **Yes** carries the game's version, so once the game has moved on it changes
nothing and says so.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot import render
from bot.discord_ui import limits
from bot.discord_ui.reach import on_table
from bot.discord_ui.replies import answering, is_admin, reply
from bot.discord_ui.services import services
from bot.engine import EngineError
from bot.errors import Refusal
from bot.irreversible import IRREVERSIBLE, question
from bot.tables import StaleAction, Table

TABLE_OPS = ("leave", "end")
CANCEL = "cancel"
ASK_LABELS = {"declare-out": "Declare out…", "concede": "Concede…", "throw-in": "Throw in…"}
YES_LABELS = {
    "declare-out": "Yes, declare out",
    "concede": "Yes, concede",
    "throw-in": "Yes, throw in",
    "leave": "Yes, leave the game",
    "end": "Yes, end the table",
}
OUT_OF_DATE = "That question is out of date: the game has moved on, and nothing was changed."


# ----- the question ---------------------------------------------------------------------------------
def consequence(table: Table, seat: int, action: str) -> str:
    """The question for an irreversible game action, with what it would do (the terminal asks the
    same, ``bot.irreversible``); a refusal if the engine would not take it now."""
    if table.game is None:
        raise Refusal("The game has not started yet.")
    try:
        return question(table.game, seat, action)
    except EngineError as err:
        raise Refusal(render.name_seats(str(err), table.names())) from None


def question_view(table_id: int, version: int, op: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ConfirmButton(table_id, version, op))
    view.add_item(ConfirmButton(table_id, version, CANCEL))
    return view


async def ask(interaction: discord.Interaction, table_id: int, version: int, op: str, question: str) -> None:
    """Ask the question in a new ephemeral message (apart from the hand and its cards)."""
    await reply(interaction, question, view=question_view(table_id, version, op))


async def ask_to_leave(interaction: discord.Interaction, table: Table) -> None:
    await ask(
        interaction, table.id, 0, "leave",
        f"Leave the {table.title} game? A computer plays your seat for the rest of the game, and "
        "you cannot take it back.",
    )  # fmt: skip


async def ask_to_end(interaction: discord.Interaction, table: Table) -> None:
    services(interaction).tables.check_may_end(table, interaction.user.id, is_admin=is_admin(interaction))
    what = (
        "The game stops now and no result is recorded." if table.status == "playing" else "The lobby closes."
    )
    await ask(interaction, table.id, 0, "end", f"End the {table.title} table? {what}")


def add_ask_buttons(ui: discord.ui.View, table: Table, actions: list[str]) -> None:
    """The irreversible actions' buttons, on a row of their own after everything else."""
    used = len(ui.to_components())
    row = used if used < limits.ROWS else None
    for action in actions:
        ui.add_item(AskButton(table.id, table.version, action, row=row))


# ----- the buttons ----------------------------------------------------------------------------------
class AskButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tn:ask:(?P<tid>\d+):(?P<ver>\d+):(?P<action>[a-z-]+)",
):
    """**Declare out…** / **Concede…** / **Throw in…** on the hand: asks before doing. On a hand
    panel in the table's channel: only clicks from there count (``reach``)."""

    def __init__(self, table_id: int, version: int, action: str, *, row: int | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=ASK_LABELS.get(action, "…"), style=discord.ButtonStyle.danger,
                custom_id=f"tn:ask:{table_id}:{version}:{action}",
            ),
            row=row,
        )  # fmt: skip
        self.table_id, self.version, self.action = table_id, version, action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> AskButton:
        return cls(int(match["tid"]), int(match["ver"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work(table: Table) -> None:
            if self.action not in IRREVERSIBLE:
                raise Refusal(
                    "That button is not one I know. Nothing was changed; use /hand for your choices."
                )
            seat, _ = services(interaction).tables.view_for(table, interaction.user.id)
            if self.version != table.version:
                raise StaleAction(OUT_OF_DATE + " Use /hand for your hand now.")
            await ask(
                interaction, table.id, table.version, self.action, consequence(table, seat, self.action)
            )

        await on_table(interaction, self.table_id, work)


class ConfirmButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tn:confirm:(?P<tid>\d+):(?P<ver>\d+):(?P<op>[a-z-]+)",
):
    """**Yes, …** or **Cancel** under a question. Game actions carry the version they were asked
    at; leaving and ending (version 0) do not depend on the moment. The question answers a click or
    command (``/table leave``, ``/table end``) in the table's channel, so it is there: only clicks
    from there count (``reach``); **Cancel** reaches no table."""

    def __init__(self, table_id: int, version: int, op: str) -> None:
        cancel = op == CANCEL
        super().__init__(
            discord.ui.Button(
                label="Cancel" if cancel else YES_LABELS.get(op, "Yes"),
                style=discord.ButtonStyle.secondary if cancel else discord.ButtonStyle.danger,
                custom_id=f"tn:confirm:{table_id}:{version}:{op}",
            )
        )  # fmt: skip
        self.table_id, self.version, self.op = table_id, version, op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ConfirmButton:
        return cls(int(match["tid"]), int(match["ver"]), match["op"])

    async def callback(self, interaction: discord.Interaction) -> None:
        if self.op == CANCEL:  # changes nothing at any table: no table to reach

            async def cancel() -> None:
                await settle(interaction, "Cancelled: nothing was changed.")

            await answering(interaction, cancel)
            return
        manager = services(interaction).tables

        async def work(table: Table) -> None:
            if self.op not in IRREVERSIBLE + TABLE_OPS:
                raise Refusal("That button is not one I know. Nothing was changed.")
            user = interaction.user.id
            if self.op == "leave":
                await manager.leave(table, user)
                await settle(interaction, "You left the table: a computer plays your seat now.")
            elif self.op == "end":
                await manager.end(table, user, is_admin=is_admin(interaction))
                await settle(interaction, f"The {table.title} table is ended. No result is recorded.")
            else:
                try:
                    result = await manager.act(table, user, self.op, self.version)
                except StaleAction:
                    await settle(interaction, OUT_OF_DATE)
                    return
                done = render.action_label(result.view or {}, str(result.action))
                after = " The game is over." if result.view is None else ""
                await settle(interaction, f"You: {done}.{after}")

        await on_table(interaction, self.table_id, work)


async def settle(interaction: discord.Interaction, text: str) -> None:
    """Replace the question (and its buttons) with what happened."""
    await interaction.response.edit_message(**limits.checked(content=text, view=None))


ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (AskButton, ConfirmButton)
