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

from bot.discord_ui.components import table_view
from bot.discord_ui.messages import announcement, table_content, table_embed
from bot.errors import Refusal
from bot.tables import Table

log = logging.getLogger(__name__)


@dataclass
class _Pending:
    dirty: bool = False
    messages: list[str] = field(default_factory=list)
    ping: tuple[list[int], str] | None = None
    last_ping_id: int | None = None
    last_edit: float = 0.0
    task: asyncio.Task[None] | None = None


class DiscordPublisher:
    """Turns table changes into Discord messages, one short-lived flush task per table at a time.

    Edits of the table message are coalesced: many changes in quick succession become one edit, at
    most one per ``min_edit_interval`` seconds per table, which keeps well inside Discord's limits.
    ``on_posted(table, message_id)`` is awaited whenever the table message is posted anew, so the
    table manager can remember where the table lives.
    """

    def __init__(
        self,
        client: discord.Client,
        *,
        min_edit_interval: float = 1.0,
        on_posted: Callable[[Table, int], Awaitable[None]],
    ) -> None:
        self.client = client
        self.min_edit_interval = min_edit_interval
        self.on_posted = on_posted
        self.pending: dict[int, _Pending] = {}

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
        if channel is None:
            try:
                channel = await self.client.fetch_channel(table.channel_id)
            except discord.HTTPException:
                log.warning("table %s: channel %s is gone", table.id, table.channel_id)
                return None
        return channel if isinstance(channel, discord.abc.Messageable) else None

    async def _flush(self, table: Table, state: _Pending) -> None:
        await asyncio.sleep(0)  # let the change that scheduled us finish, so we see its result
        try:
            channel = await self._channel(table)
            if channel is None:
                return
            while state.dirty or state.messages or state.ping:
                while state.messages:
                    text = state.messages.pop(0)
                    await channel.send(text[:2000], allowed_mentions=discord.AllowedMentions.none())
                if state.ping:
                    ids, text = state.ping
                    state.ping = None
                    await self._ping(channel, state, ids, text)
                if state.dirty:
                    wait = state.last_edit + self.min_edit_interval - time.monotonic()
                    if wait > 0:
                        await asyncio.sleep(wait)
                    state.dirty = False
                    state.last_edit = time.monotonic()
                    await self.render_table(table, channel)
        except discord.HTTPException as err:
            log.warning("table %s: could not update Discord: %s", table.id, err)
        finally:
            if table.status == "ended" and not (state.dirty or state.messages or state.ping):
                self.pending.pop(table.id, None)

    async def _ping(
        self, channel: discord.abc.Messageable, state: _Pending, ids: list[int], text: str
    ) -> None:
        if state.last_ping_id is not None and isinstance(channel, discord.TextChannel | discord.Thread):
            with contextlib.suppress(discord.HTTPException):
                await channel.get_partial_message(state.last_ping_id).delete()
        mentions = " ".join(f"<@{uid}>" for uid in ids)
        message = await channel.send(
            f"{mentions} {text}",
            allowed_mentions=discord.AllowedMentions(users=True, everyone=False, roles=False),
        )
        state.last_ping_id = message.id

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
            except discord.NotFound:
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
