"""The controls on table messages and private hands, and the answers to their clicks.

- The public table message carries lobby buttons or a **Show my hand** button (``table_view``).
- The private hand panel (``panels``): **Show my hand**, ``/hand`` or a turn ping's button opens
  one ephemeral message with the hand and buttons for exactly the seat's legal actions; a click in
  it is answered by editing it, and the publisher edits it when the player's turn comes again. A
  player's new panel replaces the old one, so each player has one.
- Every button is a ``DynamicItem`` whose custom id carries the table id (and the game version for
  actions), so buttons keep working after a restart and stale clicks are recognised. The custom-id
  templates must never change: buttons on old messages rely on them. A click reaches the table its
  custom id names only from that table's guild and channel (``reach.on_table``).
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any

import discord

from bot import render
from bot.ai import levels
from bot.discord_ui import limits
from bot.discord_ui.bidding import add_bid_controls
from bot.discord_ui.confirm import add_ask_buttons, ask_to_leave
from bot.discord_ui.lobby import SeatSelect, bring_in
from bot.discord_ui.messages import hand_text
from bot.discord_ui.panels import delete_panel, untracked
from bot.discord_ui.pictures import HAND_FILE, as_file, hand_picture
from bot.discord_ui.reach import on_table
from bot.discord_ui.replies import display_name, is_admin, reply
from bot.discord_ui.services import services
from bot.irreversible import IRREVERSIBLE
from bot.levels import OFFERED, level_name
from bot.pictures import Rendered
from bot.store import PlayerPrefs
from bot.tables import StaleAction, Table, TableError

log = logging.getLogger(__name__)


# ----- views ---------------------------------------------------------------------------------------------
def table_view(table: Table) -> discord.ui.View | None:
    """The public message's components for the table's status."""
    view = discord.ui.View(timeout=None)
    if table.status == "lobby":
        view.add_item(LobbyButton(table.id, "join"))
        view.add_item(LobbyButton(table.id, "leave"))
        for level in OFFERED.values():  # "random" is for tests only
            if level in levels(table.family):
                view.add_item(LobbyButton(table.id, f"add-{level}"))
        view.add_item(LobbyButton(table.id, "start"))
        view.add_item(SeatSelect(table.id, table))
        return untracked(view)
    if table.status == "playing":
        view.add_item(SeatButton(table.id, "hand"))
        if any(seat is not None and seat.away for seat in table.seats):
            view.add_item(SeatButton(table.id, "back"))
        return untracked(view)
    return None


CARD_KINDS = ("meld", "bury", "give", "exchange", "discard", "keep")
MORE_GROUPS = ("card", "more", "rest")
"""Select groups for card actions beyond one select's 25 options (ten-point pitch: the pitcher
chooses six of 27 cards)."""
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
    risky = [a for a in simple if a in IRREVERSIBLE]  # asked about first, on a row of their own
    simple = [a for a in simple if a not in risky]
    card_chunks = [card_actions[i : i + SELECT_MAX] for i in range(0, len(card_actions), SELECT_MAX)]
    groups = [
        (name, group)
        for name, group in (
            ("bid", bids),
            *zip(MORE_GROUPS, card_chunks, strict=False),
            ("do", simple),
            ("risky", risky),
        )
        if group
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
        row, first = len(ui.to_components()), len(ui.children)
        if name == "bid":
            add_bid_controls(ui, table, view, group)
        elif name == "risky":
            add_ask_buttons(ui, table, group)
        elif len(group) <= 5:
            for action in group:
                ui.add_item(ActButton(table.id, version, action, label=label(action)))
        else:
            ui.add_item(ActSelect(table.id, version, group[:SELECT_MAX], render_label=label, group=name))
        on_row(ui, ui.children[first:], row)
    return ui


def on_row(ui: discord.ui.View, items: list[discord.ui.Item[Any]], row: int) -> None:
    """Put ``items`` (one group, at most a row) on ``row``: discord.py would otherwise fill the
    gaps of earlier rows, mixing a group's buttons with the cards."""
    if row >= ROWS:
        return
    for item in items:
        ui.remove_item(item)
        item.row = row
        ui.add_item(item)


# ----- answering clicks ----------------------------------------------------------------------------
@dataclass
class PanelMessage:
    """What a hand panel shows: text, controls and, for a player who wants pictures, the hand."""

    content: str
    view: discord.ui.View
    picture: Rendered | None = None

    def files(self) -> list[discord.File]:
        return [as_file(self.picture, HAND_FILE)] if self.picture is not None else []


@dataclass
class PanelNow:
    """A seat's panel as it should show the table at ``version``: text and controls, and the hand
    picture drawn (or, with ``picture_due``, to be drawn after the panel lock is released)."""

    message_id: int
    user_id: int
    version: int
    view: dict[str, Any]
    message: PanelMessage
    prefs: PlayerPrefs | None = None
    picture_due: bool = False


def panel_message(table: Table, seat: int, view: dict[str, Any], note: str | None = None) -> PanelMessage:
    """A hand panel's text and controls for ``view`` (the seat's view at ``table.version``: build
    this before any ``await``, which lets the game move on); its picture is ``drawn_hand``'s."""
    text = hand_text(table, seat, view)
    return PanelMessage(f"{note}\n\n{text}" if note else text, hand_view(table, seat, view))


async def drawn_hand(view: dict[str, Any], seat: int, prefs: PlayerPrefs | None) -> Rendered | None:
    """The seat's hand picture if ``prefs`` ask for pictures and it could be drawn."""
    if prefs is None or not prefs.pictures:
        return None
    try:
        return await hand_picture(view, seat, four_colour=prefs.four_colour)
    except Exception:  # a picture is a nicety: the panel goes out as text
        log.exception("the hand picture could not be drawn")
        return None


def panel_lock(interaction: discord.Interaction, table: Table) -> AbstractAsyncContextManager[Any]:
    """The user's panel lock at this table (nothing to hold for someone without a seat: they are
    refused before anything is shown)."""
    seat = table.seat_of(interaction.user.id)
    if seat is None:
        return contextlib.nullcontext()
    return services(interaction).publisher.panels.lock(table, seat)


FollowUp = Callable[[], Awaitable[None]]
"""What is left to do after a click is answered, once the panel lock is released."""


async def nothing_more() -> None:
    """The follow-up of an answer that leaves nothing to do."""


async def show_panel(
    interaction: discord.Interaction, table: Table, seat: int, view: dict[str, Any],
    note: str | None = None, *, seen: bool = False,
) -> FollowUp:  # fmt: skip
    """Answer with the seat's hand panel: a click in a panel edits that panel; anything else
    (Show my hand, /hand, a turn ping's button) opens a new ephemeral one, and the player's
    previous panel is deleted if it still can be, so each player has one. Call it under the
    panel lock, with ``view`` taken at the current ``table.version``; await what it returns
    after releasing the lock (the hand picture, the old panel's deletion), so the player's next
    click is never held up by them."""
    publisher = services(interaction).publisher
    panels = publisher.panels
    version = table.version
    message = panel_message(table, seat, view, note)
    prefs = await publisher.picture_prefs(
        table, interaction.user.id, interaction.app_permissions.attach_files
    )
    source = interaction.message
    controls = untracked(message.view)
    limits.check(content=message.content, view=controls)
    # The click is answered first; its hand picture follows in an edit, so drawing and uploading
    # it never holds up the answer (a panel edited in place keeps its old picture a moment).
    if source is not None and source.flags.ephemeral:
        await interaction.response.edit_message(content=message.content, view=controls)
        message_id: int | None = source.id
    else:
        sent = await interaction.response.send_message(message.content, ephemeral=True, view=controls)
        message_id = sent.message_id
    if message_id is None:
        return nothing_more
    replaced = panels.put(table, seat, interaction, message_id, version, seen=seen)
    shown = PanelNow(message_id, interaction.user.id, version, view, message, prefs)

    async def follow_up() -> None:
        if replaced is not None:
            await delete_panel(interaction.client, replaced)
        if prefs is not None and prefs.pictures:
            await publisher.panel_picture(table, seat, shown)

    return follow_up


async def send_hand(interaction: discord.Interaction, table: Table) -> None:
    """Show the user's hand panel (``show_panel``): the hand, what the table needs from them and
    their controls."""
    manager = services(interaction).tables
    async with panel_lock(interaction, table):
        seat, view = manager.view_for(table, interaction.user.id)
        follow_up = await show_panel(interaction, table, seat, view)
    await follow_up()


async def act_and_answer(
    interaction: discord.Interaction, table: Table, action: str, version: int | None
) -> None:
    """Take the action; answer the click by editing the panel it came from with the new hand."""
    async with panel_lock(interaction, table):
        follow_up = await _act_and_answer(interaction, table, action, version)
    await follow_up()


async def _act_and_answer(
    interaction: discord.Interaction, table: Table, action: str, version: int | None
) -> FollowUp:
    manager = services(interaction).tables
    try:
        result = await manager.act(table, interaction.user.id, action, version)
    except StaleAction as err:
        seat, view = manager.view_for(table, interaction.user.id)
        return await show_panel(interaction, table, seat, view, str(err))
    if result.view is None:  # the action ended the game
        public = table.game.public_view() if table.game else {}
        outcome = render.status_text(public, table.names()) if public else "The game is over."
        shown = render.action_label(public, action)
        await interaction.response.edit_message(
            **limits.checked(content=f"You: {shown}. {outcome}", view=None)
        )
        services(interaction).publisher.panels.drop(table.id, result.seat)  # nothing left to edit
        return nothing_more
    seat, view = result.seat, result.view
    label = render.action_label(view, str(result.action))
    # Their turn again at once (a lead, the next meld…): this answer is the news, no ping.
    return await show_panel(interaction, table, seat, view, f"You: {label}.", seen=seat in view["to_act"])


# ----- components ------------------------------------------------------------------------------------
LOBBY_LABELS = {
    "join": ("Join", discord.ButtonStyle.success),
    "leave": ("Leave", discord.ButtonStyle.secondary),
    "start": ("Start", discord.ButtonStyle.primary),
}


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"tn:lobby:(?P<tid>\d+):(?P<op>[a-z-]+)"
):
    """Join / Leave / Add computer / Start on a lobby message, in the table's channel (or thread).
    **Join** is also on the line in the parent channel of a table's thread, so it works from there
    too; the others, clicked outside the table's channel, can only be forged (``reach``)."""

    def __init__(self, table_id: int, op: str) -> None:
        if op.startswith("add-"):
            label = limits.clip(f"Add computer ({level_name(op[4:])})", limits.LABEL)
            style = discord.ButtonStyle.secondary
        else:  # an unknown op (a forged or damaged id) is answered by the callback
            label, style = LOBBY_LABELS.get(op, ("?", discord.ButtonStyle.secondary))
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
                where = await bring_in(interaction, table)
                await reply(interaction, f"You took seat {seat + 1} at the {table.title} table.{where}")
            elif self.op == "leave" and table.status != "lobby" and table.seat_of(user) is not None:
                await ask_to_leave(interaction, table)  # an old lobby message: leaving is final now
            elif self.op == "leave":
                await manager.leave(table, user)
                await reply(interaction, "You left the table.")
            elif self.op == "start":
                await manager.start(table, user, is_admin=is_admin(interaction))
                await reply(interaction, "The game has started. Click **Show my hand** to see your cards.")
            elif not self.op.startswith("add-") or self.op[4:] not in OFFERED.values():
                raise TableError("That lobby button is not one I know. Nothing was changed.")
            else:
                level = self.op[4:]
                seat = await manager.add_computer(table, user, level)
                await reply(interaction, f"A computer player ({level_name(level)}) sits in seat {seat + 1}.")

        await on_table(interaction, self.table_id, work, from_parent=self.op == "join")


SEAT_BUTTONS = {
    "hand": ("Show my hand", discord.ButtonStyle.primary),
    "back": ("Take my seat back", discord.ButtonStyle.success),
}


class SeatButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"tn:(?P<op>hand|back):(?P<tid>\d+)"
):
    """**Show my hand** (opens the player's hand panel; also on turn pings) and **Take my seat back**
    (for a player whose seat a computer took over after the turn timer ran out). The table message,
    its turn pings and hand panels are all in the table's channel: only clicks from there count."""

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
    """One legal action (a card, a bid, pass…) for the game state with this version, on a hand
    panel in the table's channel (only clicks from there count)."""

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
    "more": "More cards…",
    "rest": "More cards…",
    "do": "Choose…",
}


class ActSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"tn:sel:(?P<tid>\d+):(?P<ver>\d+)(?::(?P<group>[a-z]+))?",
):
    """A menu of legal actions, for when there are too many for buttons. ``group`` keeps the custom
    ids of several menus on one message apart (``play``, ``bid``, ``card``, ``do``). On a hand
    panel in the table's channel, like ``ActButton``."""

    def __init__(
        self,
        table_id: int,
        version: int,
        actions: list[str] | None = None,
        render_label: Callable[[str], str] | None = None,
        group: str | None = None,
    ) -> None:
        options = [
            discord.SelectOption(label=limits.clip((render_label or str)(a), limits.OPTION_TEXT), value=a)
            for a in (actions or [])[: limits.SELECT_OPTIONS]
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
