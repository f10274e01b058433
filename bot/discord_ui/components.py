"""The controls on table messages and private hands, and the answers to their clicks.

- The public table message carries lobby buttons or a **Show my hand** button (``table_view``).
- The private hand: every click of **Show my hand** (or ``/hand``) answers with a *new*
  ephemeral message holding the hand and buttons for exactly the seat's legal actions. Clicking one
  of those answers the click itself (a fresh token), never an old ephemeral.
- Every button is a ``DynamicItem`` whose custom id carries the table id (and the game version for
  actions), so buttons keep working after a restart and stale clicks are recognised. The custom-id
  templates must never change: buttons on old messages rely on them.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot import render
from bot.ai import levels
from bot.discord_ui.messages import hand_text
from bot.discord_ui.replies import REFUSALS, display_name, is_admin, refuse, reply
from bot.discord_ui.services import services
from bot.tables import StaleAction, Table, TableError

log = logging.getLogger(__name__)


# ----- views ---------------------------------------------------------------------------------------------
def table_view(table: Table) -> discord.ui.View | None:
    """The public message's components for the table's status."""
    view = discord.ui.View(timeout=None)
    if table.status == "lobby":
        view.add_item(LobbyButton(table.id, "join"))
        view.add_item(LobbyButton(table.id, "leave"))
        for level in levels(table.family):
            view.add_item(LobbyButton(table.id, f"add-{level}"))
        view.add_item(LobbyButton(table.id, "start"))
        return view
    if table.status == "playing":
        view.add_item(SeatButton(table.id, "hand"))
        if any(seat is not None and seat.away for seat in table.seats):
            view.add_item(SeatButton(table.id, "back"))
        return view
    return None


CARD_KINDS = ("meld", "bury", "give", "exchange")
ROWS = 5
SELECT_MAX = 25


def hand_view(table: Table, seat: int, view: dict[str, Any]) -> discord.ui.View:
    """Controls for the seat's legal actions: cards (buttons, illegal ones disabled, or a select of
    the legal plays), then bids, card actions (meld, bury, give, exchange) and simple choices,
    each as buttons when they fit in one row, else as a select."""
    ui = discord.ui.View(timeout=None)
    version = table.version
    sitter = table.seats[seat]
    if sitter is not None and sitter.away:
        ui.add_item(SeatButton(table.id, "back"))
        return ui
    legal: list[str] = view["legal"]

    def label(action: str) -> str:
        return render.action_label(view, action)

    plays = [a for a in legal if a.startswith("play ")]
    bids = [a for a in legal if a.startswith("bid ")]
    card_actions = [a for a in legal if a.split(" ", 1)[0] in CARD_KINDS]
    simple = [a for a in legal if a not in plays and a not in bids and a not in card_actions]
    groups = [
        (name, group) for name, group in (("bid", bids), ("card", card_actions), ("do", simple)) if group
    ]
    card_rows = ROWS - len(groups)
    own_cards = list(view["hand"])
    table_cards = view.get("table")
    if isinstance(table_cards, list) and seat < len(table_cards):
        own_cards += table_cards[seat]
    counts: dict[str, int] = {}
    for code in own_cards:
        counts[code] = counts.get(code, 0) + 1
    cards = list(counts) + [a[5:] for a in plays if a[5:] not in counts]
    if cards and len(cards) <= card_rows * 5:
        for code in cards:
            action = f"play {code}"
            text = render.pretty(code) + (f" ×{counts[code]}" if counts.get(code, 0) > 1 else "")
            ui.add_item(ActButton(table.id, version, action, label=text, disabled=action not in legal))
    elif plays:
        ui.add_item(ActSelect(table.id, version, plays, render_label=label, group="play"))
    for name, group in groups:
        if len(group) <= 5:
            for action in group:
                ui.add_item(ActButton(table.id, version, action, label=label(action)))
        else:
            ui.add_item(ActSelect(table.id, version, group[:SELECT_MAX], render_label=label, group=name))
    return ui


# ----- answering clicks ----------------------------------------------------------------------------
async def on_table(
    interaction: discord.Interaction, table_id: int, work: Callable[[Table], Awaitable[None]]
) -> None:
    """Run a component's handler for its table. Refusals get a clear ephemeral reply and change
    nothing; anything unexpected is logged and answered too (discord.py only logs DynamicItem
    errors, which would leave the click unanswered)."""
    manager = services(interaction).tables
    try:
        await work(manager.get(table_id))
    except REFUSALS as err:
        await refuse(interaction, err, manager.by_id.get(table_id))
    except Exception:
        log.exception("interaction failed")
        await reply(interaction, "Something went wrong on our side; nothing was changed. Try again.")


async def send_hand(interaction: discord.Interaction, table: Table) -> None:
    """A new ephemeral message with the user's hand and controls (never an edit of an old one)."""
    seat, view = services(interaction).tables.view_for(table, interaction.user.id)
    await reply(interaction, hand_text(table, seat, view), view=hand_view(table, seat, view))


async def act_and_answer(
    interaction: discord.Interaction, table: Table, action: str, version: int | None
) -> None:
    """Take the action; answer the click by updating the ephemeral it came from with the new hand."""
    manager = services(interaction).tables
    try:
        result = await manager.act(table, interaction.user.id, action, version)
    except StaleAction as err:
        seat, view = manager.view_for(table, interaction.user.id)
        await reply(
            interaction, f"{err}\n\n{hand_text(table, seat, view)}", view=hand_view(table, seat, view)
        )
        return
    if result.view is None:  # the action ended the game
        shown = render.action_label(table.game.public_view() if table.game else {}, action)
        await interaction.response.edit_message(content=f"You: {shown}. The game is over.", view=None)
        return
    seat, view = result.seat, result.view
    label = render.action_label(view, str(result.action))
    content = f"You: {label}.\n\n{hand_text(table, seat, view)}"
    if interaction.message is not None and interaction.message.flags.ephemeral:
        await interaction.response.edit_message(content=content, view=hand_view(table, seat, view))
    else:
        await reply(interaction, content, view=hand_view(table, seat, view))


# ----- components ------------------------------------------------------------------------------------
LOBBY_LABELS = {
    "join": ("Join", discord.ButtonStyle.success),
    "leave": ("Leave", discord.ButtonStyle.secondary),
    "start": ("Start", discord.ButtonStyle.primary),
}


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"tn:lobby:(?P<tid>\d+):(?P<op>[a-z-]+)"
):
    """Join / Leave / Add computer / Start on a lobby message."""

    def __init__(self, table_id: int, op: str) -> None:
        if op.startswith("add-"):
            level = op[4:]
            label, style = f"Add computer ({level})", discord.ButtonStyle.secondary
        else:
            label, style = LOBBY_LABELS[op]
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"tn:lobby:{table_id}:{op}"))
        self.table_id = table_id
        self.op = op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LobbyButton:
        return cls(int(match["tid"]), match["op"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work(table: Table) -> None:
            manager = services(interaction).tables
            user = interaction.user.id
            if self.op == "join":
                seat = await manager.join(table, user, display_name(interaction))
                await reply(interaction, f"You took seat {seat + 1} at the {table.title} table.")
            elif self.op == "leave":
                await manager.leave(table, user)
                await reply(interaction, "You left the table.")
            elif self.op == "start":
                await manager.start(table, user, is_admin=is_admin(interaction))
                await reply(interaction, "The game has started. Click **Show my hand** to see your cards.")
            else:
                seat = await manager.add_computer(table, user, self.op[4:])
                await reply(interaction, f"A computer player ({self.op[4:]}) sits in seat {seat + 1}.")

        await on_table(interaction, self.table_id, work)


SEAT_BUTTONS = {
    "hand": ("Show my hand", discord.ButtonStyle.primary),
    "back": ("Take my seat back", discord.ButtonStyle.success),
}


class SeatButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"tn:(?P<op>hand|back):(?P<tid>\d+)"
):
    """**Show my hand** (each click answers with a new ephemeral message) and **Take my seat back**
    (for a player whose seat a computer took over after the turn timer ran out)."""

    def __init__(self, table_id: int, op: str) -> None:
        label, style = SEAT_BUTTONS[op]
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"tn:{op}:{table_id}"))
        self.table_id = table_id
        self.op = op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> SeatButton:
        return cls(int(match["tid"]), match["op"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work(table: Table) -> None:
            if self.op == "back":
                await services(interaction).tables.take_back(table, interaction.user.id)
            await send_hand(interaction, table)

        await on_table(interaction, self.table_id, work)


class ActButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tn:act:(?P<tid>\d+):(?P<ver>\d+):(?P<action>[a-z0-9 -]+)",
):
    """One legal action (a card, a bid, pass…) for the game state with this version."""

    def __init__(self, table_id: int, version: int, action: str, *, label: str | None = None,
                 disabled: bool = False) -> None:  # fmt: skip
        style = discord.ButtonStyle.secondary if action.startswith("play ") else discord.ButtonStyle.primary
        if action in ("declare-out", "concede", "throw-in"):
            style = discord.ButtonStyle.danger
        super().__init__(
            discord.ui.Button(
                label=label or action, style=style, disabled=disabled,
                custom_id=f"tn:act:{table_id}:{version}:{action.lower()}",
            )
        )  # fmt: skip
        self.table_id = table_id
        self.version = version
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ActButton:
        return cls(int(match["tid"]), int(match["ver"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work(table: Table) -> None:
            await act_and_answer(interaction, table, self.action, self.version)

        await on_table(interaction, self.table_id, work)


SELECT_PLACEHOLDER = {
    "play": "Play a card…",
    "bid": "Bid…",
    "card": "Choose cards…",
    "do": "Choose…",
}


class ActSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"tn:sel:(?P<tid>\d+):(?P<ver>\d+)(?::(?P<group>[a-z]+))?",
):
    """A menu of legal actions, for when there are too many for buttons. ``group`` keeps the custom
    ids of several menus on one message apart (``play``, ``bid``, ``card``, ``do``)."""

    def __init__(
        self,
        table_id: int,
        version: int,
        actions: list[str] | None = None,
        render_label: Callable[[str], str] | None = None,
        group: str | None = None,
    ) -> None:
        options = [
            discord.SelectOption(label=(render_label or str)(a)[:100], value=a) for a in (actions or [])[:25]
        ]
        super().__init__(
            discord.ui.Select(custom_id=f"tn:sel:{table_id}:{version}" + (f":{group}" if group else ""),
                              placeholder=SELECT_PLACEHOLDER.get(group or "", "Choose…"),
                              options=options or [discord.SelectOption(label="—", value="-")])
        )  # fmt: skip
        self.table_id = table_id
        self.version = version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ActSelect:
        return cls(int(match["tid"]), int(match["ver"]), group=match["group"])

    async def callback(self, interaction: discord.Interaction) -> None:
        data: dict[str, Any] = dict(interaction.data or {})
        values: list[str] = list(data.get("values") or [])

        async def work(table: Table) -> None:
            if not values:
                raise TableError("Choose one option from the menu.")
            await act_and_answer(interaction, table, str(values[0]), self.version)

        await on_table(interaction, self.table_id, work)


TABLE_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    LobbyButton, SeatButton, ActButton, ActSelect,
)  # fmt: skip
