"""Duplicate events in Discord: the event message and its button, opening an event's table, the
ranking (text and card) and the clock that stops tables after their deals and ends events.

Scoring (``bot.duplicate``): deal by deal, each side is compared with the same side (the same
cards) at every other table of the event: 2 match points for each table it outscored, 1 for each
tie. The ranking goes by the share of the most a side could have had.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from bot import render
from bot.discord_ui import limits
from bot.discord_ui.checks import require_posting
from bot.discord_ui.components import table_view
from bot.discord_ui.history import STANDINGS_FILE, as_file, standings_picture, variant_title
from bot.discord_ui.messages import table_embed
from bot.discord_ui.pictures import can_attach
from bot.discord_ui.replies import answering, display_name
from bot.discord_ui.services import Services, services
from bot.duplicate import Standing, boards_of, differing_deals, match_points
from bot.engine import EngineError, find_variant
from bot.errors import Refusal
from bot.history import replay
from bot.pictures.charts import StandingLine
from bot.store import DuplicateEvent, Store, StoreRefusal
from bot.store.history import seat_name

log = logging.getLogger(__name__)

MAX_DEALS = 12
SCORING = (
    "Scoring: deal by deal, each side is compared with the same seats at every other table "
    "(they held the same cards): 2 match points for each table it outscored, 1 for each tie."
)


def event_title(event: DuplicateEvent) -> str:
    return (
        f"Duplicate event #{event.id} — {variant_title(event.variant)}, {event.players} players, "
        f"{render.count(event.deals, 'deal')}"
    )


def event_text(event: DuplicateEvent) -> str:
    """The event message: what it is, how to join, how it is scored."""
    return limits.clip(
        f"🃏 **{event_title(event)}**. Every table of this event plays the same deals in the same "
        f"seats and stops after deal {event.deals}. Open a table with the button below (in this "
        f"channel) or with `/duplicate table event:{event.id}` in any channel without a table; sit, "
        f"add computers, start as usual. {SCORING} The ranking is posted here when every table is "
        "done (or an admin ends the event with `/admin duplicate-end`).",
        limits.CONTENT,
    )


class OpenTableButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"tn:dup:(?P<event>\d{1,19}):open"
):
    """The event message's button: open one of the event's tables in this channel."""

    def __init__(self, event_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Open a table here",
                style=discord.ButtonStyle.primary,
                custom_id=f"tn:dup:{event_id}:open",
            )
        )
        self.event_id = event_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> OpenTableButton:
        return cls(int(match["event"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            event = await find_event(
                services(interaction).store, interaction.guild_id or 0, str(self.event_id)
            )
            await open_event_table(interaction, event)

        await answering(interaction, work)


def event_view(event: DuplicateEvent) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(OpenTableButton(event.id))
    return view


async def find_event(store: Store, guild_id: int, given: str) -> DuplicateEvent:
    """The event a person chose (its number), in this server only."""
    given = given.strip().lstrip("#")
    event = await store.duplicates.get(int(given)) if given.isdigit() and len(given) < 19 else None
    if event is None or event.guild_id != guild_id:
        raise Refusal(
            f"There is no duplicate event {limits.clip(given, 40)!r} in this server: pick one from the list."
        )
    return event


async def event_choices(
    store: Store, guild_id: int, typed: str, *, open_only: bool
) -> list[app_commands.Choice[str]]:
    events = await store.duplicates.list(guild_id, limit=limits.SELECT_OPTIONS, open_only=open_only)
    choices = [
        app_commands.Choice(
            name=limits.clip(event_title(e) + ("" if e.open else " · ended"), limits.OPTION_TEXT),
            value=str(e.id),
        )
        for e in events
    ]
    return [c for c in choices if typed.lower().lstrip("#") in c.name.lower()][: limits.SELECT_OPTIONS]


async def open_event_table(interaction: discord.Interaction, event: DuplicateEvent) -> None:
    """Open one of the event's tables in the interaction's channel, its message as the answer."""
    if not event.open:
        raise Refusal(f"Duplicate event #{event.id} has ended: no more tables can join it.")
    require_posting(interaction)
    store, tables = services(interaction).store, services(interaction).tables
    assert interaction.guild_id is not None and interaction.channel_id is not None
    table = await tables.open_table(
        guild_id=interaction.guild_id, channel_id=interaction.channel_id, host_id=interaction.user.id,
        host_name=display_name(interaction), variant=event.variant, options=event.options,
        players=event.players,
    )  # fmt: skip
    if table.options != event.options:  # the server's house rules cannot change an event's deals
        table.options = dict(event.options)
        await store.games.update(table.id, options=table.options)
    # Same seed, same deals: the table starts its game from the event's seed (TableManager.start).
    await store.games.update(table.id, seed=event.seed)
    table.seed, table.deal_limit = event.seed, event.deals
    number = await store.duplicates.add_table(event.id, table.id)
    sent = await interaction.response.send_message(
        **limits.checked(
            content=f"Table {number} of duplicate event #{event.id}: it plays "
            f"{render.count(event.deals, 'deal')}, the same as every table of the event.",
            embed=table_embed(table),
            view=table_view(table) or discord.utils.MISSING,
        )
    )
    message_id = sent.message_id if sent is not None else None
    if message_id is None:
        message_id = (await interaction.original_response()).id
    await tables.set_message(table, message_id)


# ----- the ranking ------------------------------------------------------------------------------------
@dataclass
class Ranking:
    event: DuplicateEvent
    standings: list[Standing]
    names: dict[tuple[int, int], str]
    tables: int
    differing: list[int]


async def event_ranking(store: Store, event: DuplicateEvent) -> Ranking:
    """Every started table's deals (replayed off the event loop) compared by match points."""
    boards = {}
    names: dict[tuple[int, int], str] = {}
    sides = 0
    for entry in await store.duplicates.tables(event.id):
        record = await store.games.load(entry.game_id)
        if not record.actions:
            continue
        try:
            replayed = await asyncio.to_thread(replay, record.engine_record())
        except (EngineError, KeyError, TypeError, ValueError):
            log.warning("duplicate event %s: table %s (game %s) does not replay", event.id, entry.number,
                        entry.game_id)  # fmt: skip
            continue
        sides = len(replayed.sides)
        boards[entry.number] = boards_of(replayed, event.deals)
        for side, seats in enumerate(replayed.sides):
            names[entry.number, side] = " & ".join(seat_name(record.seats, seat) for seat in seats)
    changes = {number: {n: b.changes for n, b in deals.items()} for number, deals in boards.items() if deals}
    standings = match_points(changes, sides) if changes else []
    return Ranking(event, standings, names, len(boards), differing_deals(boards))


def ranking_text(ranking: Ranking, *, final: bool) -> str:
    head = "🏆 Final ranking" if final else "Ranking so far"
    lines = [f"{head} of **{event_title(ranking.event)}** ({render.count(ranking.tables, 'table')} played)."]
    if not ranking.standings:
        lines.append("No table has finished a deal yet.")
    for st in ranking.standings[:40]:
        who = ranking.names.get((st.table, st.side), f"side {st.side + 1}")
        lines.append(
            f"{st.rank}. Table {st.table} · {who} — {st.match_points} of {st.top} match points "
            f"({st.percent:.1f}%), {render.count(st.boards, 'deal')}"
        )
    if ranking.differing:
        lines.append(f"⚠️ Deals {', '.join(map(str, ranking.differing))} differed between tables.")
    lines.append(SCORING)
    return limits.clip("\n".join(lines), limits.CONTENT)


async def ranking_files(ranking: Ranking, *, allowed: bool) -> list[discord.File]:
    """The ranking as a card (rendered off the event loop), or nothing where files may not go."""
    if not allowed or not ranking.standings:
        return []
    lines = [
        StandingLine(
            st.rank,
            f"T{st.table} · {ranking.names.get((st.table, st.side), f'side {st.side + 1}')}",
            f"{st.match_points}/{st.top} MP · {st.percent:.1f}%",
        )
        for st in ranking.standings[:25]
    ]
    title = f"Duplicate #{ranking.event.id} — {find_variant(ranking.event.variant).title}"
    return [as_file(await standings_picture(title, lines), STANDINGS_FILE)]


# ----- the clock ------------------------------------------------------------------------------------
async def event_channel(bot: discord.Client, event: DuplicateEvent) -> discord.abc.Messageable | None:
    """Where an event's ranking goes, or None if that channel is gone or closed to the bot (other
    failures raise: the next tick tries again)."""
    channel = bot.get_channel(event.channel_id)
    if channel is None:
        try:
            channel = await bot.fetch_channel(event.channel_id)
        except (discord.NotFound, discord.Forbidden):
            log.warning("duplicate event %s: its channel %s is gone", event.id, event.channel_id)
            return None
    return channel if isinstance(channel, discord.abc.Messageable) else None


async def tend_events(bot: discord.Client, services_: Services) -> int:
    """Give live event tables their deal limit (also after a restart: a table past it stops now),
    end each event whose tables are all done, and post every ended event's ranking not yet posted.
    Returns the rankings posted."""
    store, tables = services_.store, services_.tables
    for event in await store.duplicates.open_events():
        if not tables.owns_guild(event.guild_id):
            continue
        entries = await store.duplicates.tables(event.id)
        for entry in entries:
            table = tables.by_id.get(entry.game_id)
            if table is None:
                continue
            table.deal_limit = event.deals
            game = table.game
            past = (
                game is not None and not game.is_over and int(game.public_view().get("deal", 0)) > event.deals
            )
            if table.status == "playing" and past:
                async with table.lock:
                    if table.status == "playing":
                        await tables.stop_at_deal_limit(table, [])
        entries = await store.duplicates.tables(event.id)
        if entries and all(entry.status not in ("lobby", "playing") for entry in entries):
            with contextlib.suppress(StoreRefusal):  # another process (or an admin) ended it first
                await store.duplicates.end(event.id)
    posted = 0
    for event in await store.duplicates.unposted():
        if not tables.owns_guild(event.guild_id):
            continue
        job = f"ranking:{event.id}"

        async def unposted(event_id: int = event.id) -> bool:
            now = await store.duplicates.get(event_id)
            return now is not None and now.ranking_posted_at is None

        if not await store.jobs.take(job, tables.process_id, unposted):
            continue  # another process posts it (or has)
        channel = await event_channel(bot, event)
        if channel is not None:
            ranking = await event_ranking(store, event)
            files = await ranking_files(ranking, allowed=can_attach(channel))
            try:
                await channel.send(**limits.checked(content=ranking_text(ranking, final=True)), files=files)
                posted += 1
            except discord.Forbidden:
                log.warning("duplicate event %s: may not post its ranking in %s", event.id, event.channel_id)
        await store.duplicates.mark_posted(event.id)
        await store.jobs.done(job)
    return posted
