"""The composition root: an ``AutoShardedBot`` whose ``setup_hook`` opens the store, builds the
publisher and the table manager, loads the cogs (each registers its own persistent components),
resumes unfinished tables and syncs the slash commands. Wiring only: the behaviour lives in
``bot.tables``, ``bot.discord_ui`` and the cogs."""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot.config import Settings
from bot.discord_ui import DiscordPublisher, answer_command_error, answer_unhandled
from bot.discord_ui.budget import count_requests
from bot.pictures import start_render_pool, stop_render_pool
from bot.remote import make_thinker
from bot.store import Store
from bot.tables import Table, TableManager

if TYPE_CHECKING:
    from bot.cluster import ClusterMember

log = logging.getLogger(__name__)

SWITCH_INTERVAL = 0.001
EXTENSIONS = (
    "cogs.table", "cogs.rules", "cogs.leaderboard", "cogs.meld", "cogs.admin", "cogs.help", "cogs.history",
    "cogs.duplicate",
)  # fmt: skip


class TrickNightBot(commands.AutoShardedBot):
    """Trick Night. All game state lives in ``self.tables`` (the table manager) and the store."""

    store: Store
    tables: TableManager
    publisher: DiscordPublisher

    def __init__(
        self,
        settings: Settings,
        *,
        min_edit_interval: float = 1.0,
        cluster: ClusterMember | None = None,
        **kwargs: Any,
    ) -> None:
        intents = discord.Intents.default()
        if settings.shard_ids is not None:  # TRICKNIGHT_SHARD_IDS: only these shards in this process
            kwargs.setdefault("shard_ids", list(settings.shard_ids))
        # Nothing the bot sends notifies anyone unless it says so: only the turn ping names its
        # people (a league or player name with @everyone in it stays text).
        kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())
        # No message cache: the bot never reads messages back (it edits its own by id), and a
        # thousand cached messages of busy tables are only work for memory and the collector.
        kwargs.setdefault("max_messages", None)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            shard_count=settings.shard_count,
            help_command=None,
            **kwargs,
        )
        self.settings = settings
        self.cluster = cluster  # cluster mode: the shard leases and IDENTIFY pacing (bot.cluster)
        self.max_concurrency: int | None = None
        self.min_edit_interval = min_edit_interval
        # The store's threads hand results back to the event loop: let a waiting thread have the
        # interpreter after 1 ms of another's Python code rather than 5, so a stored click is
        # answered without waiting a whole default switch interval (the cost is a few more switches).
        sys.setswitchinterval(SWITCH_INTERVAL)
        self._frozen = False
        self.tree.error(answer_command_error)
        # Clicks and forms no handler takes still get an answer (never "This interaction failed").
        self.add_listener(answer_unhandled, "on_interaction")

    async def setup_hook(self) -> None:
        start_render_pool()  # in the background: the first pictures are drawn in a thread meanwhile
        self.store = await Store.open(
            self.settings.store_target, default_computer_delay=self.settings.computer_delay
        )
        self.publisher = DiscordPublisher(
            self,
            min_edit_interval=self.min_edit_interval,
            on_posted=self._table_posted,
            on_pinged=self._table_pinged,
            on_final=self._table_final,
            on_gone=self._table_gone,
        )
        if self.publisher.budget is not None:  # every request of the bot's own counts (budget.py)
            count_requests(self.http, self.publisher.budget)
            if self.cluster is not None:  # the bot's other processes share its token
                self.publisher.budget.share(self.cluster.share())
        # The searching computers think in a local process pool, or in `tricknight worker`
        # processes over NATS (TRICKNIGHT_NATS_URL; connected now, so the first search needn't wait).
        thinker = make_thinker(self.settings)
        if self.settings.nats_url is not None:
            thinker.warm()
        # owns_guild: only the tables of guilds on this process's shards (TRICKNIGHT_SHARD_IDS).
        self.tables = TableManager(
            self.store, self.publisher, owns_guild=self.settings.owns_guild, thinker=thinker
        )
        if self.cluster is not None:
            self.tables.process_id = self.cluster.id
        # The cogs (and the persistent items they register) load before resume_all(), so a resumed
        # table's old buttons are answered as soon as the table is back.
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        resumed = await self.tables.resume_all()
        if resumed:
            log.info("resumed %d unfinished table(s)", len(resumed))
        if self.cluster is not None and 0 not in (self.settings.shard_ids or ()):
            log.info("slash commands are synced by the process of shard 0")
        elif self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """In cluster mode IDENTIFY is paced across every process (one per 5 s per bucket);
        alone, discord.py's own pacing does."""
        if self.cluster is None or shard_id is None:
            await super().before_identify_hook(shard_id, initial=initial)
            return
        if self.max_concurrency is None:
            _, _, limits = await self.http.get_bot_gateway()
            self.max_concurrency = int(limits.get("max_concurrency", 1))
        await self.cluster.identify_slot(shard_id, self.max_concurrency)

    # Methods, not the table manager's: the publisher is built before the table manager.
    async def on_ready(self) -> None:
        if not self._frozen:
            # Everything made so far (modules, discord.py's caches, the resumed tables) lives as
            # long as the process: kept out of the garbage collector's full passes, which would
            # otherwise stop the event loop for tens of milliseconds each time.
            self._frozen = True
            gc.collect()
            gc.freeze()

    async def _table_posted(self, table: Table, message_id: int) -> None:
        await self.tables.set_message(table, message_id)

    async def _table_pinged(self, table: Table, message_id: int | None) -> None:
        await self.tables.set_ping(table, message_id)

    async def _table_final(self, table: Table) -> None:
        await self.tables.final_shown(table)

    async def _table_gone(self, table: Table) -> None:
        await self.tables.channel_gone(table)

    async def close(self) -> None:
        if hasattr(self, "tables"):
            await self.tables.shutdown()
            await self.publisher.wait_idle()
            await self.store.close()
        await asyncio.to_thread(stop_render_pool)
        await super().close()
