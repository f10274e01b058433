"""The Discord side of the table manager's ``Publisher``: table messages, announcements, pings."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.discord_ui.budget import RestBudget
from bot.discord_ui.components import table_view
from bot.discord_ui.messages import announcement, table_content, table_embed
from bot.errors import Refusal
from bot.tables import Table

log = logging.getLogger(__name__)

UNKNOWN_MESSAGE = 10008  # Discord's error code for a deleted message (10003: the channel is gone)
FIRST_MESSAGE_WAIT = 3.0  # seconds to wait for a new table's message id before posting one
READY_WAIT = 60.0  # seconds to wait at start-up for the guilds (and their channels) to arrive


@dataclass
class _Pending:
    dirty: bool = False
    messages: list[str] = field(default_factory=list)
    ping: tuple[list[int], str] | None = None
    last_edit: float = 0.0
    task: asyncio.Task[None] | None = None


class DiscordPublisher:
    """Turns table changes into Discord messages, one short-lived flush task per table at a time.

    Edits of the table message are coalesced: many changes in quick succession become one edit, at
    most one per ``min_edit_interval`` seconds per table, which keeps well inside Discord's limits.
    ``on_posted(table, message_id)`` is awaited whenever the table message is posted anew, so the
    table manager can remember where the table lives; ``on_pinged(table, message_id or None)``
    when the table's live ping changes (one at most: the previous one is deleted); ``on_final``
    once an ended table's last line and final message are out; ``on_gone`` when the table's
    channel is gone or closed to the bot (NotFound or Forbidden), so the table can be ended.
    """

    def __init__(
        self,
        client: discord.Client,
        *,
        min_edit_interval: float = 1.0,
        on_posted: Callable[[Table, int], Awaitable[None]],
        on_pinged: Callable[[Table, int | None], Awaitable[None]] | None = None,
        on_final: Callable[[Table], Awaitable[None]] | None = None,
        on_gone: Callable[[Table], Awaitable[None]] | None = None,
    ) -> None:
        self.client = client
        self.min_edit_interval = min_edit_interval
        self.on_posted = on_posted
        self.on_pinged = on_pinged
        self.on_final = on_final
        self.on_gone = on_gone
        self.pending: dict[int, _Pending] = {}
        # A share of Discord's global limit for all tables; no pacing at all when edits are unpaced
        # (tests, whose harness may run on a virtual clock).
        self.budget = RestBudget() if min_edit_interval > 0 else None

    async def _take(self, *, urgent: bool = False) -> None:
        if self.budget is not None:
            await self.budget.take(urgent=urgent)

    def _queue(self, table: Table) -> _Pending:
        state = self.pending.setdefault(table.id, _Pending())
        if state.task is None or state.task.done():
            state.task = asyncio.create_task(self._flush(table, state), name=f"table-{table.id}-publish")
        return state

    def table_changed(self, table: Table) -> None:
        self._queue(table).dirty = True

    def announce(self, table: Table, text: str) -> None:
        self._queue(table).messages.append(text)

    def turn_ping(self, table: Table, user_ids: list[int], text: str) -> None:
        self._queue(table).ping = (user_ids, text)

    def events(self, table: Table, events: list[dict[str, Any]]) -> None:
        """Announce the events that deserve a message of their own (``messages.ANNOUNCED``)."""
        for event in events:
            text = announcement(table, event)
            if text:
                self.announce(table, text)

    async def repost(self, table: Table) -> None:
        """Post the table message again below; the old message points to the new one."""
        channel = await self._channel(table)
        if channel is None:
            raise Refusal("This channel cannot show a table.")
        await self.render_table(table, channel, repost=True)

    async def _channel(self, table: Table) -> discord.abc.Messageable | None:
        channel = self.client.get_channel(table.channel_id)
        if channel is None and not self.client.is_ready():
            # At start-up the channels arrive with the guilds: wait for them rather than take a
            # channel not yet known for one that is gone.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.client.wait_until_ready(), READY_WAIT)
            channel = self.client.get_channel(table.channel_id)
        if channel is None:
            try:
                channel = await self.client.fetch_channel(table.channel_id)
            except (discord.NotFound, discord.Forbidden):
                log.warning("table %s: channel %s is gone", table.id, table.channel_id)
                return None
        return channel if isinstance(channel, discord.abc.Messageable) else None

    async def _flush(self, table: Table, state: _Pending) -> None:
        await asyncio.sleep(0)  # let the change that scheduled us finish, so we see its result
        # A new table's first message is the answer to /table new, whose id comes a moment later:
        # wait for it rather than post a second table message.
        waited = 0.0
        while table.message_id is None and table.message_coming and waited < FIRST_MESSAGE_WAIT:
            await asyncio.sleep(0.05)
            waited += 0.05
        try:
            channel = await self._channel(table)
            if channel is None:
                await self._gone(table, state)
                return
            while state.dirty or state.messages or state.ping:
                while state.messages:
                    text = state.messages.pop(0)
                    await self._take(urgent=True)
                    await channel.send(text[:2000], allowed_mentions=discord.AllowedMentions.none())
                if state.ping:
                    ids, text = state.ping
                    state.ping = None
                    await self._ping(channel, table, ids, text)
                if state.dirty:
                    wait = state.last_edit + self.min_edit_interval - time.monotonic()
                    if wait > 0:
                        await asyncio.sleep(wait)
                    await self._take()
                    state.dirty = False
                    state.last_edit = time.monotonic()
                    await self.render_table(table, channel)
            if table.status == "ended":
                await self._ended(table, channel)
        except (discord.NotFound, discord.Forbidden) as err:
            log.warning("table %s: its channel cannot be used (%s)", table.id, err)
            await self._gone(table, state)
        except discord.HTTPException as err:
            log.warning("table %s: could not update Discord: %s", table.id, err)
        finally:
            if table.status == "ended" and not (state.dirty or state.messages or state.ping):
                self.pending.pop(table.id, None)

    async def _ping(self, channel: discord.abc.Messageable, table: Table, ids: list[int], text: str) -> None:
        await self._take(urgent=True)
        mentions = " ".join(f"<@{uid}>" for uid in ids)
        # The one message that may notify anyone: it names exactly the people whose turn it is.
        people = [discord.Object(uid) for uid in ids]
        only_them = discord.AllowedMentions(everyone=False, roles=False, users=people)
        message = await channel.send(f"{mentions} {text}", allowed_mentions=only_them)
        old, table.ping_message_id = table.ping_message_id, message.id
        if self.on_pinged is not None:
            await self.on_pinged(table, message.id)
        # The previous ping goes after the new one is out (the new one must not wait for it).
        await self._delete(channel, old)

    async def _unping(self, channel: discord.abc.Messageable, table: Table) -> None:
        """Delete the table's live ping (at most one per table, also across restarts)."""
        old, table.ping_message_id = table.ping_message_id, None
        if old is not None:
            await self._delete(channel, old)
            if self.on_pinged is not None:
                await self.on_pinged(table, None)

    async def _delete(self, channel: discord.abc.Messageable, message_id: int | None) -> None:
        if message_id is None or not isinstance(channel, discord.TextChannel | discord.Thread):
            return
        with contextlib.suppress(discord.HTTPException):  # already deleted by someone: fine
            await self._take()
            await channel.get_partial_message(message_id).delete()

    async def _ended(self, table: Table, channel: discord.abc.Messageable) -> None:
        """An ended table's last line and final message are out: no ping stays, nothing to redo."""
        await self._unping(channel, table)
        if self.on_final is not None:
            await self.on_final(table)

    async def _gone(self, table: Table, state: _Pending) -> None:
        state.messages.clear()  # nowhere to show them
        state.dirty, state.ping = False, None
        if self.on_gone is not None:
            await self.on_gone(table)

    async def render_table(
        self, table: Table, channel: discord.abc.Messageable, *, repost: bool = False
    ) -> None:
        """Edit the table message in place, or post it (first time, deleted, or ``repost``)."""
        embed, content, view = table_embed(table), table_content(table), table_view(table)
        if (
            table.message_id is not None
            and not repost
            and isinstance(channel, discord.TextChannel | discord.Thread)
        ):
            try:
                await channel.get_partial_message(table.message_id).edit(
                    content=content, embed=embed, view=view
                )
                return
            except discord.NotFound as err:
                if err.code != UNKNOWN_MESSAGE:
                    raise  # the channel itself is gone
                log.info("table %s: its message was deleted; posting a new one", table.id)
        old = table.message_id
        message = await channel.send(content=content, embed=embed, view=view or discord.utils.MISSING)
        await self.on_posted(table, message.id)
        if old is not None and repost and isinstance(channel, discord.TextChannel | discord.Thread):
            with contextlib.suppress(discord.HTTPException):
                moved = "This table moved to a newer message below."
                await channel.get_partial_message(old).edit(content=moved, embed=None, view=None)

    async def wait_idle(self) -> None:
        """Wait until every pending flush is done (tests and shutdown)."""
        while True:
            tasks = [s.task for s in self.pending.values() if s.task and not s.task.done()]
            if not tasks:
                return
            await asyncio.gather(*tasks, return_exceptions=True)
