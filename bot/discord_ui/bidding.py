"""Bid controls that reach every legal bid in at most three clicks, however long the ladder.

A select holds 25 options, and some auctions allow a hundred bids (double-deck 50-500, partnership
auction 100-1000), so long ladders get a row of buttons instead: the lowest legal bid, the lowest
legal bids at least +10 and +50 above it, and **Other bid…**, which opens a form where any amount
can be typed (two clicks); the engine judges the amount like any other bid. Short ladders (pitch)
keep one button per bid.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot import render
from bot.bid_menu import amounts, ladder_hint, quick_bids
from bot.discord_ui import limits
from bot.discord_ui.reach import on_table
from bot.discord_ui.services import services
from bot.errors import Refusal
from bot.tables import Table

FORM_PREFIX = "tn:bidform:"
FORM = re.compile(r"tn:bidform:(?P<tid>\d+):(?P<ver>\d+)")
AMOUNT_FIELD = "amount"


def add_bid_controls(ui: discord.ui.View, table: Table, view: dict[str, Any], legal_bids: list[str]) -> None:
    """The seat's bid buttons: every bid when they fit in a row, else the quick bids and
    **Other bid…** (one row either way)."""
    from bot.discord_ui.components import ActButton  # the table's own action button

    bids = amounts(legal_bids)
    shown = bids if len(bids) <= limits.ROW_BUTTONS else quick_bids(bids)
    for amount in shown:
        action = f"bid {amount}"
        ui.add_item(ActButton(table.id, table.version, action, label=render.action_label(view, action)))
    if len(shown) < len(bids):
        ui.add_item(OtherBidButton(table.id, table.version))


class OtherBidButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"tn:bidamt:(?P<tid>\d+):(?P<ver>\d+)"
):
    """**Other bid…**: opens a form for any amount (checked by the engine when sent). On a hand
    panel in the table's channel: only clicks from there count (``reach``)."""

    def __init__(self, table_id: int, version: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Other bid…", style=discord.ButtonStyle.secondary,
                custom_id=f"tn:bidamt:{table_id}:{version}",
            )
        )  # fmt: skip
        self.table_id = table_id
        self.version = version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> OtherBidButton:
        return cls(int(match["tid"]), int(match["ver"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work(table: Table) -> None:
            manager = services(interaction).tables
            seat, view = manager.view_for(table, interaction.user.id)
            if self.version != table.version:
                raise Refusal(
                    "That button is out of date: the game has moved on. Use /hand for your hand now."
                )
            bids = amounts(view["legal"])
            if not bids or seat not in view["to_act"]:
                raise Refusal("You cannot bid now.")
            form = BidForm(table.id, table.version, view, bids)
            limits.check(modal=form)
            await interaction.response.send_modal(form)

        await on_table(interaction, self.table_id, work)


class BidForm(discord.ui.Modal):
    """The **Other bid…** form. Its submission is answered by ``submit_bid`` (routed by its custom
    id), so a form opened before a restart still works."""

    def __init__(self, table_id: int, version: int, view: dict[str, Any], bids: list[int]) -> None:
        low, high = render.bid_text(view, bids[0]), render.bid_text(view, bids[-1])
        super().__init__(
            title=limits.clip(f"Your bid ({low} to {high})", limits.MODAL_TITLE),
            custom_id=f"{FORM_PREFIX}{table_id}:{version}",
            timeout=600,
        )
        self.amount: discord.ui.TextInput[Any] = discord.ui.TextInput(
            label="Amount",
            custom_id=AMOUNT_FIELD,
            placeholder=limits.clip(f"Next bids: {ladder_hint(view, bids)}", limits.INPUT_PLACEHOLDER),
            min_length=1,
            max_length=12,
        )
        self.add_item(self.amount)


def submitted_amount(interaction: discord.Interaction) -> str:
    """The text typed in the form's amount field ("" if absent)."""
    data: dict[str, Any] = dict(interaction.data or {})
    for row in data.get("components") or []:
        children = row.get("components") or ([row["component"]] if "component" in row else [])
        for child in children:
            if child.get("custom_id") == AMOUNT_FIELD:
                return str(child.get("value") or "")
    return ""


async def submit_bid(interaction: discord.Interaction, match: re.Match[str]) -> None:
    """Take the typed bid: the engine accepts it or explains which bids are legal. The form was
    opened from a hand panel in the table's channel, so it is sent from there: its table is
    reached like a control's (``reach``)."""
    from bot.discord_ui.components import act_and_answer

    table_id, version = int(match["tid"]), int(match["ver"])

    async def work(table: Table) -> None:
        text = submitted_amount(interaction).strip().replace(",", "")
        if not text.isdigit():
            raise Refusal(f"Type a number, such as 250 (not {limits.clip(text, 20)!r}). Nothing was changed.")
        await act_and_answer(interaction, table, f"bid {int(text)}", version)

    await on_table(interaction, table_id, work)


ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (OtherBidButton,)
