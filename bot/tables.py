"""The table manager: one table per channel (a thread is a channel of its own), a lock per table,
computer turns and turn timers; seats and people are its `seating` (bot/seating.py).

It is the only place that changes a running game. Every accepted action is written to the store
before the new state replaces the old one, so nothing a player did is lost on a restart. It knows
nothing of Discord: what players see is pushed through a ``Publisher``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections.abc import Callable
from typing import Any

from bot.ai import levels, make_player
from bot.engine import Action, EngineError, Game, find_variant, new_game, parse_action
from bot.engine.options import resolve_options
from bot.hints import Hints
from bot.levels import OFFERED, level_name
from bot.store import GameRecord, GuildSettings, Store, StoreUnavailable, write_patience
from bot.table_model import (
    ActResult,
    Publisher,
    Seat,
    StaleAction,
    Table,
    TableError,
    check_default_options,
    past_deal_limit,
    stored_game,
)
from bot.thinking import Thinker
from bot.upkeep import Upkeep, last_events

# The table's own types live in bot/table_model.py; they are named here too, where callers
# have always imported them from.
__all__ = [
    "GONE",
    "RESTARTING",
    "ActResult",
    "Publisher",
    "Seat",
    "StaleAction",
    "Table",
    "TableError",
    "TableManager",
]

log = logging.getLogger(__name__)

# A computer turn or a turn timer gives up on a locked, full or read-only database sooner than a
# person's click (which has Discord's 3 s): the table is paused and tried again later.
BACKGROUND_PATIENCE = 0.5


RESTARTING = "Trick Night is restarting: try again in a minute. Nothing was changed."
GONE = "That table has ended or is not here. Nothing was changed; start a new one with /table new."
"""The answer to a control or form naming a table that is not there for the person asking: ended,
never opened, or a table of another server or channel. One sentence for all: a different answer
for another server's table would tell that such a table exists."""


class TableManager:
    """Owns every live table; all changes go through its methods under the table's lock."""

    def __init__(
        self,
        store: Store,
        publisher: Publisher,
        *,
        owns_guild: Callable[[int], bool] | None = None,
        thinker: Thinker | None = None,
    ) -> None:
        self.store = store
        self.publisher = publisher
        # Computer decisions: searching levels in worker processes, so no table waits on another's.
        self.thinker = thinker or Thinker()
        # Whether this process runs the guild's shard (Settings.owns_guild): only those tables are
        # resumed and timed here; another process runs the rest.
        self.owns_guild: Callable[[int], bool] = owns_guild or (lambda guild_id: True)
        # Who this process is, for claims on jobs that must run once across processes (store.jobs).
        self.process_id = uuid.uuid4().hex
        self.by_channel: dict[int, Table] = {}
        self.by_id: dict[int, Table] = {}
        self._closing = False
        self.upkeep = Upkeep(self)
        self.hints = Hints(self)
        from bot.seating import Seating  # it builds on this module's Table and Seat

        self.seating = Seating(self)

    @property
    def closing(self) -> bool:
        return self._closing

    # ----- lookup ------------------------------------------------------------------------------
    # A table is reached from outside by its id (a button's custom id, a form's) or by the channel a
    # command is used in. Either way it must be a table of the asking guild: ids are not unique
    # across bot processes (two processes with a database each both have a table #1, and a guild
    # whose shard moves brings its old buttons to the other one), and a custom id can be forged. A
    # table of another guild (or another channel) is refused exactly like one that does not exist:
    # nothing about it shows, nothing there changes.
    def table_in(self, channel_id: int) -> Table | None:
        """The live table in this channel, for the bot's own bookkeeping and tests (a person's
        request goes through ``table_here``, which checks their guild too)."""
        return self.by_channel.get(channel_id)

    def table_here(self, channel_id: int | None, *, guild_id: int | None) -> Table | None:
        """The live table played in the channel a request came from, if that channel is in the
        request's guild."""
        table = self.by_channel.get(channel_id) if channel_id is not None else None
        if table is None or guild_id is None or table.guild_id != guild_id:
            return None
        return table

    def get(
        self, table_id: int, *, guild_id: int | None, channel_id: int | None, any_channel: bool = False
    ) -> Table:
        """The live table ``table_id`` if it belongs to ``guild_id`` and is played in ``channel_id``
        (the request's guild and channel); else ``TableError(GONE)``, the same answer as for a table
        that has ended or never was. ``any_channel``: any channel of the guild will do, for a caller
        that checks the channel itself (a **Join** line in the parent channel of a table's thread)."""
        table = self.by_id.get(table_id)
        if table is None or guild_id is None or table.guild_id != guild_id:
            raise TableError(GONE)
        if not any_channel and (channel_id is None or table.channel_id != channel_id):
            raise TableError(GONE)
        return table

    def require(self, channel_id: int | None, *, guild_id: int | None) -> Table:
        """The table a command used in this channel is about (``table_here``); a refusal if
        there is none."""
        table = self.table_here(channel_id, guild_id=guild_id)
        if table is None:
            raise TableError(
                "There is no table in this channel. Open one with /table new "
                "(a table in a thread is run from inside its thread)."
            )
        return table

    async def update_settings(self, guild_id: int, **changes: Any) -> GuildSettings:
        """Change a guild's settings (``store.settings.update``), its house-rule defaults checked
        against each variant's options first (the store only stores them)."""
        if "default_options" in changes:
            changes["default_options"] = check_default_options(changes["default_options"])
        return await self.store.settings.update(guild_id, **changes)

    # ----- lobby ---------------------------------------------------------------------------------
    async def open_table(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        variant: str,
        options: dict[str, Any] | None = None,
        players: int | None = None,
        in_answer: bool = True,
    ) -> Table:
        """Open a lobby in a channel with the host in the first seat. ``in_answer``: the table
        message is the answer to the command (``set_message`` follows); else the publisher posts it."""
        self._refuse_while_closing()
        existing = self.by_channel.get(channel_id)
        if existing is not None:
            raise TableError(
                f"This channel already has a table ({existing.title}, {existing.status}). "
                "Join it, or its host can end it with /table end. Where threads are allowed, "
                "/table new in a text channel gives each table a thread of its own."
            )
        cls, resolved, count = await self.check_new(guild_id, variant, options, players)
        seats: list[Seat | None] = [Seat("human", host_name, host_id)] + [None] * (count - 1)
        table = Table(
            0, guild_id, channel_id, host_id, cls.name, resolved, count, seats, message_coming=in_answer
        )
        table.id = await self.store.games.create(
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            variant=cls.name,
            family=cls.family,
            options=resolved,
            seed=0,
            players=count,
            seats=table.seats_json(),
            status="lobby",
        )
        self._track(table)
        if not in_answer:
            self.publisher.table_changed(table)
        return table

    async def check_new(
        self, guild_id: int, variant: str, options: dict[str, Any] | None, players: int | None
    ) -> tuple[type[Game], dict[str, Any], int]:
        """Refuse a table that could not be opened (a bad variant, house rule or player count);
        else its variant, options with the guild's defaults, and player count."""
        self._refuse_while_closing()
        cls = find_variant(variant)
        defaults = await self._guild_defaults(guild_id, cls.name)
        resolved = resolve_options(cls.option_specs, options, cls.name, house=defaults)
        # The engine checks the player count and the options together, as the game will start.
        count = new_game(cls.name, players=players, options=resolved, seed=0).players
        return cls, resolved, count

    async def join(self, table: Table, user_id: int, name: str) -> int:
        """Seat a person in the first empty seat; returns the seat."""
        async with table.lock:
            self._check_lobby(table, "join")
            if table.seat_of(user_id) is not None:
                raise TableError("You already have a seat at this table.")
            seat = self._first_empty(table, "The table is full. Someone must leave first.")
            table.seats[seat] = Seat("human", name, user_id)
            await self._save_seats(table)
        self.publisher.table_changed(table)
        return seat

    async def leave(self, table: Table, user_id: int) -> None:
        """Leave a lobby (the host's leaving passes hosting on), or hand a game seat to a computer."""
        async with table.lock:
            self._refuse_while_closing()
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("You have no seat at this table.")
            if not await self.vacate(table, seat, "left"):
                return
        self.publisher.table_changed(table)
        self._after_change(table)

    async def vacate(self, table: Table, seat: int, went: str) -> bool:
        """Empty a person's lobby seat (hosting passes on; the last person out closes the table) or
        give their game seat to a computer, announced as "<name> ``went``". Under the table's lock;
        False if the table closed."""
        current = table.seats[seat]
        assert current is not None and current.user_id is not None
        if table.status == "lobby":
            table.seats[seat] = None
            if not table.humans():
                await self._close(table, "abandoned")
                self.publisher.announce(table, "Everyone left: the table is closed.")
                return False
            if went != "left":
                self.publisher.announce(table, f"{current.name} {went}.")
        else:
            table.seats[seat] = Seat("computer", f"Computer ({current.name}'s seat)", level="basic")
            self.publisher.announce(table, f"{current.name} {went}: a computer plays their seat.")
        if current.user_id == table.host_id and table.humans():  # hosting passes to who is left
            table.host_id = table.humans()[0]
            await self.store.games.update(table.id, host_id=table.host_id)
        await self._save_seats(table)
        return True

    async def add_computer(self, table: Table, user_id: int, level: str = "basic") -> int:
        """A seated person adds a computer player of ``level`` in the first empty seat."""
        async with table.lock:
            self._check_lobby(table, "add a computer to")
            if table.seat_of(user_id) is None:
                raise TableError("Only a seated player can add computer players.")
            if level not in levels(table.family):
                offered = [shown for shown, known in OFFERED.items() if known in levels(table.family)]
                raise TableError(f"No computer level {level_name(level)!r}: choose {' or '.join(offered)}.")
            seat = self._first_empty(table, "The table is full.")
            table.seats[seat] = Seat("computer", f"Computer {seat + 1}", level=level)
            await self._save_seats(table)
        self.publisher.table_changed(table)
        return seat

    async def start(self, table: Table, user_id: int | None, *, is_admin: bool = False) -> None:
        """Start the game; empty seats get basic computer players. Host or an admin only."""
        async with table.lock:
            self._check_lobby(table, "start")
            if user_id is not None and user_id != table.host_id and not is_admin:
                raise TableError("Only the host (or someone with Manage Server) can start the table.")
            for index, seat in enumerate(table.seats):
                if seat is None:
                    table.seats[index] = Seat("computer", f"Computer {index + 1}", level="basic")
            # A lobby's seed is 0 unless a duplicate event gave it the event's: same deals everywhere.
            game = new_game(
                table.variant, players=table.players, options=table.options, seed=table.seed or None
            )
            table.seed = game.seed
            await self.store.games.update(
                table.id, seats=table.seats_json(), status="playing", seed=game.seed, options=table.options
            )
            table.game = game
            table.status = "playing"
            self._make_bots(table)
        self.publisher.table_changed(table)
        self._after_change(table)

    def check_may_end(self, table: Table, user_id: int, *, is_admin: bool) -> None:
        """Refuse unless this person may end the table (the host or someone with Manage Server)."""
        if user_id != table.host_id and not is_admin:
            raise TableError("Only the host (or someone with Manage Server) can end the table.")

    async def end(self, table: Table, user_id: int, *, is_admin: bool) -> None:
        """Stop a table without a result (host or Manage Server)."""
        async with table.lock:
            self._refuse_while_closing()
            self.check_may_end(table, user_id, is_admin=is_admin)
            await self._close(table, "abandoned")
        self.publisher.announce(
            table, f"The {table.title} table was ended by <@{user_id}>. No result is recorded."
        )
        self.publisher.table_changed(table)

    # ----- play ----------------------------------------------------------------------------------
    async def act(
        self, table: Table, user_id: int, action: Action | str, version: int | None = None
    ) -> ActResult:
        """A person's decision. ``version`` (from a button) must match the table's current one."""
        async with table.lock:
            self._refuse_while_closing()
            seat = self._playing_seat(table, user_id)
            if version is not None and version != table.version:
                raise StaleAction("That button is out of date: the game has moved on. Here is your hand now.")
            if isinstance(action, str):
                action = parse_action(action)
            events = await self._apply(table, seat, action)
            game = table.game
            playing = table.status == "playing" and game is not None and not game.is_over
            view = game.view(seat) if playing and game is not None else None
        self._after_change(table)
        return ActResult(table, seat, action, events, view)

    async def take_back(self, table: Table, user_id: int) -> None:
        """A person whose seat a computer was playing (turn timer) takes it back."""
        async with table.lock:
            self._refuse_while_closing()
            seat = self._playing_seat(table, user_id)
            current = table.seats[seat]
            assert current is not None
            if not current.away:
                raise TableError("You are already playing your own seat.")
            current.away = False
            await self._save_seats(table)
        self.publisher.announce(table, f"{current.name} is back and plays their own seat again.")
        self.publisher.table_changed(table)
        self._after_change(table)

    async def repost(self, table: Table) -> None:
        """Post the table message again below (``/table status``), under the table's lock."""
        async with table.lock:
            await self.publisher.repost(table)

    async def set_message(self, table: Table, message_id: int) -> None:
        """Remember which message shows the table (buttons and edits go there)."""
        table.message_id = message_id
        table.message_coming = False
        try:
            await self.store.games.update(table.id, message_id=message_id)
        except StoreUnavailable:
            self.upkeep.save_later(table)

    async def set_ping(self, table: Table, message_id: int | None) -> None:
        """Remember the table's live "your turn" ping, so it is deleted also after a restart."""
        table.ping_message_id = message_id
        try:
            await self.store.games.set_ping(table.id, message_id)
        except StoreUnavailable:
            self.upkeep.save_later(table)

    async def final_shown(self, table: Table) -> None:
        """A finished table's last line and final message are out: nothing to show after a restart."""
        try:
            await self.store.games.mark_announced(table.id)
        except StoreUnavailable as err:
            log.warning("table %s: could not record that its end was shown: %s", table.id, err)

    async def channel_gone(self, table: Table) -> None:
        """The table's channel is gone (or closed to the bot): end the table without a result."""
        try:
            async with table.lock:
                if table.status != "ended":
                    log.warning("table %s: its channel %s is gone; ending it without a result", table.id,
                                table.channel_id)  # fmt: skip
                    with write_patience(BACKGROUND_PATIENCE):  # a click may be waiting for the lock
                        await self._close(table, "abandoned")
        except StoreUnavailable as err:
            log.warning("table %s: could not end it yet: %s", table.id, err)  # the next flush retries
            return
        await self.final_shown(table)

    def view_for(self, table: Table, user_id: int) -> tuple[int, dict[str, Any]]:
        """The seat and ``view(seat)`` of a seated person (what their ephemeral hand shows)."""
        seat = self._playing_seat(table, user_id)
        assert table.game is not None
        return seat, table.game.view(seat)

    # ----- restart ---------------------------------------------------------------------------
    async def resume_all(self) -> list[Table]:
        """Rebuild every unfinished table from the store (seed + log) and carry on playing."""
        resumed = []
        for record in await self.store.games.unfinished():
            if not self.owns_guild(record.guild_id):
                continue  # a guild on another process's shards: that process resumes it
            try:
                table = self._rebuild(record)
            except EngineError as err:
                log.error("table %s cannot be resumed: %s", record.id, err)
                continue
            self._track(table)
            resumed.append(table)
            if table.game is not None and table.game.is_over:
                # Stopped between storing the last action and storing the result: finish now
                # (results.finish writes nothing if the result is already there) and show the end.
                async with table.lock:
                    table.held_events = last_events(record)
                    await self.finish_game(table)
        for table in resumed:
            if table.status != "ended":
                self.publisher.table_changed(table)
            self._after_change(table)
        shown = await self.upkeep.show_unannounced(skip={table.id for table in resumed})
        if shown:
            log.info("showing the end of %d game(s) that finished while their end was not yet shown", shown)
        return resumed

    def rebuild(self, record: GameRecord) -> Table:
        """A table (and its game, replayed from seed and log) from its stored record."""
        return self._rebuild(record)

    def _rebuild(self, record: GameRecord) -> Table:
        seats = [Seat.from_json(s) if s else None for s in record.seats]
        table = Table(
            record.id, record.guild_id, record.channel_id, record.host_id, record.variant,
            dict(record.options), record.players, seats, status=record.status,
            seed=record.seed, message_id=record.message_id, ping_message_id=record.ping_message_id,
            hints=record.hints,
        )  # fmt: skip
        table.game = stored_game(record)
        if record.status == "playing":
            self._make_bots(table)
        return table

    async def shutdown(self) -> None:
        """Stop taking changes, let the change in flight at each table finish writing, then stop
        computer turns and timers. Every accepted action is stored, so the next start resumes."""
        self._closing = True  # from now on every change is refused with RESTARTING
        self.upkeep.cancel()
        async with contextlib.AsyncExitStack() as held:
            for table in list(self.by_id.values()):
                # Waits for the write in flight there; holding the lock, nothing new starts.
                await held.enter_async_context(table.lock)
            tasks = [t for table in self.by_id.values() for t in (table.driver, table.timer) if t]
            for task in tasks:
                if task is not asyncio.current_task():
                    task.cancel()
            for task in tasks:
                if task is not asyncio.current_task():
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await task
        await self.thinker.shutdown()

    # ----- internals -------------------------------------------------------------------------------
    def _track(self, table: Table) -> None:
        self.by_channel[table.channel_id] = table
        self.by_id[table.id] = table

    async def _guild_defaults(self, guild_id: int, variant: str) -> dict[str, Any]:
        settings = await self.store.settings.get(guild_id)
        return dict(settings.default_options.get(variant, {}))

    def refuse_while_closing(self) -> None:
        """Refuse every change once shutdown has begun."""
        if self._closing:
            raise TableError(RESTARTING)

    _refuse_while_closing = refuse_while_closing

    def _check_lobby(self, table: Table, verb: str) -> None:
        self._refuse_while_closing()
        if table.status != "lobby":
            raise TableError(f"The game has already started: you cannot {verb} it now.")

    @staticmethod
    def _first_empty(table: Table, full_message: str) -> int:
        for index, seat in enumerate(table.seats):
            if seat is None:
                return index
        raise TableError(full_message)

    def _playing_seat(self, table: Table, user_id: int) -> int:
        if table.status == "ended":
            raise TableError("That table has ended.")
        seat = table.seat_of(user_id)
        if seat is None:
            raise TableError("You are not seated at this table, so you cannot act here.")
        if table.status != "playing" or table.game is None:
            raise TableError("The game has not started yet.")
        return seat

    async def save_seats(self, table: Table) -> None:
        """Store who sits where (under the table's lock)."""
        await self.store.games.update(table.id, seats=table.seats_json())

    _save_seats = save_seats

    def _make_bots(self, table: Table) -> None:
        table.bots = {}
        for index, seat in enumerate(table.seats):
            assert seat is not None
            # A person's seat gets one too: it plays for them while they are away.
            table.bots[index] = make_player(table.family, seat.level, (table.seed or 0) * 31 + index)
        if any(self.thinker.uses_pool(self._seat(table, i).level, bot) for i, bot in table.bots.items()):
            self.thinker.warm()

    async def _apply(self, table: Table, seat: int, action: Action) -> list[dict[str, Any]]:
        """Apply on a copy, store the action, then swap the copy in: all or nothing."""
        assert table.game is not None
        candidate = table.game.copy()
        events = candidate.apply(seat, action)
        await self.store.games.append_action(table.id, len(table.game.log), seat, str(action))
        table.game = candidate
        self.upkeep.recovered(table)
        if candidate.is_over:
            # Nothing public claims the end before the result is stored: the events wait for it.
            table.held_events = events
            await self.finish_game(table)
        elif (shown := past_deal_limit(events, table.deal_limit)) is not None:
            await self.stop_at_deal_limit(table, shown)
        else:
            self.publisher.events(table, events)
            self.publisher.table_changed(table)
        return events

    async def stop_at_deal_limit(self, table: Table, shown: list[dict[str, Any]]) -> None:
        """A duplicate table has played its deals (under the table's lock): show them (not the next
        deal, already dealt), and end the table without a result: the event ranks its tables."""
        await self._close(table, "abandoned")
        self.publisher.events(table, shown)
        self.publisher.announce(
            table,
            f"All {table.deal_limit} deals of this duplicate table are played. The event's ranking "
            "is posted once every table is done (/duplicate show).",
        )
        self.publisher.table_changed(table)

    async def finish_game(self, table: Table) -> None:
        """Store the result of a game that is over (under the table's lock), then show its last
        events and final message. If the store does not answer, the table waits (upkeep)."""
        try:
            with write_patience(BACKGROUND_PATIENCE):
                await self._record_result(table)
        except StoreUnavailable as err:
            self.upkeep.stall(table, err)
            return
        self.publisher.events(table, table.held_events or [])
        table.held_events = None
        self.publisher.table_changed(table)

    async def _record_result(self, table: Table) -> None:
        game = table.game
        assert game is not None and game.outcome is not None
        scores, places = game.outcome.scores, game.outcome.places
        results = []
        for index, seat in enumerate(table.seats):
            assert seat is not None
            side = game.side_of[index]
            results.append(
                {
                    "seat": index,
                    "user_id": seat.user_id if seat.is_human else None,
                    "level": None if seat.is_human else seat.level,  # rated as its level's player
                    "side": side,
                    "score": scores[side],
                    "place": places[side],
                }
            )
        settings = await self.store.settings.get(table.guild_id)
        has_computer = any(seat is None or seat.plays_itself for seat in table.seats)
        rated = not has_computer or settings.rate_computer_games
        await self.store.results.finish(
            table.id, guild_id=table.guild_id, family=table.family, results=results, rated=rated
        )
        self._ended(table)

    async def _close(self, table: Table, status: str) -> None:
        await self.store.games.update(table.id, status=status)
        self._ended(table)

    def _ended(self, table: Table) -> None:
        table.status = "ended"
        self._untrack(table)
        self.hints.forget(table)
        for task in (table.driver, table.timer):
            if task and task is not asyncio.current_task():
                task.cancel()

    def _untrack(self, table: Table) -> None:
        if self.by_channel.get(table.channel_id) is table:
            del self.by_channel[table.channel_id]
        self.by_id.pop(table.id, None)

    # ----- computer turns and the turn timer --------------------------------------------------------
    def after_change(self, table: Table) -> None:
        """Start what comes next at the table: a computer's turn, or a person's ping and timer."""
        self._after_change(table)

    def _after_change(self, table: Table) -> None:
        if self._closing or table.status != "playing" or table.game is None or table.game.is_over:
            return
        if not self.owns_guild(table.guild_id):
            return  # computer turns and turn timers run in the process that owns the guild's shard
        if table.timer is not None:
            table.timer.cancel()
            table.timer = None
        auto = [s for s in table.game.to_act if self._seat(table, s).plays_itself]
        if auto:
            if table.driver is None or table.driver.done():
                table.driver = asyncio.create_task(self._drive(table), name=f"table-{table.id}-computer")
            return
        humans = [self._seat(table, s) for s in table.game.to_act]
        ids = [s.user_id for s in humans if s.user_id is not None]
        if ids:
            self.publisher.turn_ping(table, ids, "your turn")
            table.timer = asyncio.create_task(
                self._turn_timer(table, table.version, ids), name=f"table-{table.id}-timer"
            )

    @staticmethod
    def _seat(table: Table, index: int) -> Seat:
        seat = table.seats[index]
        assert seat is not None
        return seat

    async def _drive(self, table: Table) -> None:
        """Play every computer (or away) seat's turn, each after the configured delay. A store
        that does not answer pauses the table (upkeep) instead of ending this for good."""
        try:
            with write_patience(BACKGROUND_PATIENCE):
                await self._drive_turns(table)
        except StoreUnavailable as err:
            self.upkeep.stall(table, err)
        except Exception:
            log.exception("table %s: a computer turn failed", table.id)

    async def _drive_turns(self, table: Table) -> None:
        while not self._closing:
            async with table.lock:
                game = table.game
                if table.status != "playing" or game is None or game.is_over:
                    return
                auto = [s for s in game.to_act if self._seat(table, s).plays_itself]
                if not auto:
                    return
                seat, version = auto[0], table.version
                snapshot = game.copy()
            delay = (await self.store.settings.get(table.guild_id)).computer_delay_seconds
            if delay:
                await asyncio.sleep(delay)
            action = await self.thinker.decide(
                table.bots[seat], snapshot, seat, family=table.family, level=self._seat(table, seat).level,
                seed=self._decision_seed(table, seat, snapshot),
            )  # fmt: skip
            async with table.lock:
                if table.version != version or table.status != "playing" or self._closing:
                    continue
                await self._apply(table, seat, action)
            self._after_change(table)  # a person to act next gets the ping and the timer

    @staticmethod
    def _decision_seed(table: Table, seat: int, game: Game) -> int:
        """A seed for one decision: the same table, seat and moment give the same choice."""
        return ((table.seed or 0) * 31 + seat) * 100_003 + len(game.log)

    async def _turn_timer(self, table: Table, version: int, user_ids: list[int]) -> None:
        settings = await self.store.settings.get(table.guild_id)
        timeout = float(settings.turn_timeout_seconds)
        if timeout <= 0:
            return
        await asyncio.sleep(timeout / 2)
        if table.version != version:
            return
        minutes = max(1, round(timeout / 2 / 60))
        self.publisher.turn_ping(table, user_ids, f"reminder: it is your turn (about {minutes} min left)")
        await asyncio.sleep(timeout / 2)
        async with table.lock:
            if table.version != version or table.game is None or table.status != "playing" or self._closing:
                return
            away = []
            for index in table.game.to_act:
                seat = self._seat(table, index)
                if seat.is_human and not seat.away:
                    seat.away = True
                    away.append(seat)
            try:
                with write_patience(BACKGROUND_PATIENCE):
                    await self._save_seats(table)
            except StoreUnavailable as err:
                for seat in away:
                    seat.away = False  # as stored; the timer starts again once the store answers
                table.timer = None
                self.upkeep.stall(table, err)
                return
        if away:
            self.publisher.announce(
                table,
                f"{', '.join(seat.name for seat in away)} did not play in time: a computer plays for them "
                "(marked away) until they click **Take my seat back**.",
            )
        self.publisher.table_changed(table)
        table.timer = None
        self._after_change(table)
