"""Each player's hand panel: one ephemeral message per seat, edited in place.

A panel is opened by **Show my hand**, ``/hand`` or the button on a turn ping. Every click in it is
answered by editing it (``UPDATE_MESSAGE``), and when the player's turn comes again the publisher
edits it through the interaction's webhook, so its controls are live without a new message.

Discord lets a bot edit a message through an interaction's token for 15 minutes. The registry keeps,
per (table, seat), the token of the latest interaction that showed the panel and when it was
issued; past ``PANEL_LIFETIME`` the panel counts as expired and is never edited again (the turn ping
then carries a button that opens a fresh one). Only plain data is kept (no discord.py objects), at
most one record and one lock per seat, all dropped when the table ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.discord_ui import limits
from bot.pictures import Rendered
from bot.tables import Table

log = logging.getLogger(__name__)

TOKEN_LIFETIME = 15 * 60.0
PANEL_LIFETIME = TOKEN_LIFETIME - 60.0
"""A minute short of the token's life, so an edit started just before the end still lands."""


def monotonic() -> float:
    # Looked up on each call (not bound once): test clocks replace ``time.monotonic``.
    return time.monotonic()


def untracked(view: discord.ui.View) -> discord.ui.View:
    """The view, stopped so discord.py sends its components without keeping the View (it would
    keep an ephemeral one alive with a 15-minute timeout task). Clicks still arrive: every control
    is a registered ``DynamicItem``, found by its custom id."""
    view.stop()
    return view


@dataclass(slots=True)
class Panel:
    """Where a seat's panel is and how the bot may still edit it."""

    application_id: int
    token: str
    message_id: int
    user_id: int
    """Whose panel it is: a hand goes to its owner only."""
    issued: float
    """``Panels.clock()`` when the token was issued (the interaction arrived)."""
    version: int
    """The table version whose state and controls the panel shows."""
    seen: bool = False
    """Shown to the player as the answer to their own click while it was their turn: the turn ping
    for that same moment is not needed (they are looking at the panel)."""
    picture: Rendered | None = None
    """The hand picture the message shows (None: none yet), so the same one is not uploaded again."""


class Panels:
    """The hand panels of every live table, by table id and seat."""

    def __init__(self, clock: Callable[[], float] = monotonic) -> None:
        self.clock = clock
        self._by_table: dict[int, dict[int, Panel]] = {}
        self._locks: dict[int, dict[int, asyncio.Lock]] = {}
        self._picture_locks: dict[int, dict[int, asyncio.Lock]] = {}

    def __len__(self) -> int:
        return sum(len(seats) for seats in self._by_table.values())

    def tables(self) -> int:
        """How many tables hold panel state (records or locks)."""
        return len(self._by_table.keys() | self._locks.keys() | self._picture_locks.keys())

    def lock(self, table: Table, seat: int) -> asyncio.Lock:
        """Held while a panel is answered or edited, so edits land in the order they were made.
        An ended table whose panels are forgotten gets a lock of its own that nothing keeps."""
        return self._seat_lock(self._locks, table, seat)

    def picture_lock(self, table: Table, seat: int) -> asyncio.Lock:
        """Held while a panel's picture is uploaded (by itself, or with the panel's text), so
        uploads land in order; a click's answer (text and controls only) never waits for one."""
        return self._seat_lock(self._picture_locks, table, seat)

    def _seat_lock(self, locks: dict[int, dict[int, asyncio.Lock]], table: Table, seat: int) -> asyncio.Lock:
        held = locks.get(table.id, {}).get(seat)
        if held is not None:
            return held
        if table.status == "ended":
            return asyncio.Lock()
        return locks.setdefault(table.id, {}).setdefault(seat, asyncio.Lock())

    def live(self, table_id: int, seat: int, user_id: int | None = None) -> Panel | None:
        """The seat's panel if the bot may still edit it (an expired record, or one of someone
        other than ``user_id``, is forgotten)."""
        panel = self._by_table.get(table_id, {}).get(seat)
        if panel is None:
            return None
        if self.clock() - panel.issued >= PANEL_LIFETIME or user_id not in (None, panel.user_id):
            self.drop(table_id, seat)
            return None
        return panel

    def put(
        self, table: Table, seat: int, interaction: discord.Interaction, message_id: int, version: int,
        *, seen: bool = False,
    ) -> Panel | None:  # fmt: skip
        """Remember the panel ``interaction`` just showed. Returns the seat's previous panel when it
        is another message that may still be edited (to be deleted: one panel per player)."""
        if table.status == "ended" and table.id not in self._locks:
            return None  # its panels were already closed and forgotten
        previous = self.live(table.id, seat, interaction.user.id)
        panel = Panel(
            interaction.application_id, interaction.token, message_id, interaction.user.id, self.clock(),
            version, seen,
        )  # fmt: skip
        self._by_table.setdefault(table.id, {})[seat] = panel
        if previous is not None and previous.message_id != message_id:
            return previous
        if previous is not None:
            panel.picture = previous.picture  # edited in place: it keeps its picture
        return None

    def drop(self, table_id: int, seat: int) -> None:
        seats = self._by_table.get(table_id)
        if seats is not None:
            seats.pop(seat, None)
            if not seats:
                del self._by_table[table_id]

    def seats(self, table_id: int) -> list[int]:
        return list(self._by_table.get(table_id, {}))

    def drop_table(self, table_id: int) -> None:
        """Forget a table's panels and locks (the table ended)."""
        self._by_table.pop(table_id, None)
        self._locks.pop(table_id, None)
        self._picture_locks.pop(table_id, None)


async def edit_panel(client: discord.Client, panel: Panel, **fields: Any) -> bool:
    """Edit a panel through its interaction's webhook; False if Discord refused (the token ran
    out, or the player dismissed the message)."""
    view = fields.get("view")
    if isinstance(view, discord.ui.View):
        untracked(view)
    limits.checked(**fields)
    webhook = discord.Webhook.partial(panel.application_id, panel.token, client=client)
    try:
        await webhook.edit_message(panel.message_id, **fields)
    except discord.HTTPException as err:
        log.info("hand panel %s could not be edited: %s", panel.message_id, err)
        return False
    return True


async def delete_panel(client: discord.Client, panel: Panel) -> None:
    """Delete a panel that another one replaces (best effort: it may be gone already)."""
    webhook = discord.Webhook.partial(panel.application_id, panel.token, client=client)
    with contextlib.suppress(discord.HTTPException):
        await webhook.delete_message(panel.message_id)
