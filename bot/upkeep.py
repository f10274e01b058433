"""Keeping tables going when the store stumbles, and tidying what a stop left half-shown.

- **Stalls**: a computer turn, a turn timer or a game's result that cannot be stored (the database
  locked by another program, a full disk, read-only files) stalls its table instead of stopping it
  for good. The players are told once; one recovery task tries again with backoff, and when the
  store answers every stalled table picks up its computer turns, timers and pending results, and
  the players are told that too. Changes only the in-memory state has (a table message id, a
  ping id) are written then as well.
- **Tidy ends**: at start, every finished game whose last line was never shown (the bot stopped
  between storing the result and posting it) gets its last line and a final table message
  without buttons.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from bot.engine import Game
from bot.store import GameRecord, StoreError, StoreUnavailable

if TYPE_CHECKING:
    from bot.tables import Table, TableManager

log = logging.getLogger(__name__)

RECOVERY_FIRST, RECOVERY_MAX = 0.5, 15.0  # seconds between tries while the store does not answer

PAUSED = {
    "locked": "is locked by another program",
    "read-only": "cannot be written (its files are read-only)",
    "full": "cannot grow: the disk is full",
    "disk error": "could not be written (the disk reported an error)",
    "cannot open": "cannot be opened",
    "unreachable": "server cannot be reached",
    "connection lost": "server lost its connection",
    "conflict": "met a conflicting change",
}


def paused_line(reason: str) -> str:
    return (
        f"⏸️ The game is paused: Trick Night's database {PAUSED.get(reason, 'does not answer')}. "
        "It carries on by itself as soon as the database answers again; nothing already played is lost."
    )


RESUMED_LINE = "▶️ The database answers again: the game goes on."


def last_events(record: GameRecord) -> list[dict[str, Any]]:
    """What the last stored action of a game did (its game-over events, for a final line)."""
    if not record.actions:
        return []
    before = record.engine_record()
    before["log"] = before["log"][:-1]
    game = Game.from_json(before)
    seat, action = record.actions[-1]
    return game.apply(seat, action)


class Upkeep:
    """The table manager's helper for stalls and tidy ends (see the module docstring)."""

    def __init__(self, manager: TableManager) -> None:
        self.manager = manager
        self.stalled: dict[int, Table] = {}
        self.unsaved: dict[int, Table] = {}  # tables whose message/ping id the store lacks
        self._recovery: asyncio.Task[None] | None = None

    # ----- stalls ----------------------------------------------------------------------------------------
    def stall(self, table: Table, err: StoreUnavailable) -> None:
        """Park a table whose work could not be stored; tell its players once."""
        if table.id not in self.stalled:
            log.warning("table %s is paused: %s", table.id, err)
            self.manager.publisher.announce(table, paused_line(err.reason))
        self.stalled[table.id] = table
        self._start()

    def save_later(self, table: Table) -> None:
        """The table's message or ping id could not be stored: write it once the store answers."""
        self.unsaved[table.id] = table
        self._start()

    def recovered(self, table: Table) -> None:
        """Something of this table was stored: if it was paused, it is not any more (unless its
        game's result is still waiting to be stored)."""
        if table.held_events is None and self.stalled.pop(table.id, None) is not None:
            log.info("table %s goes on", table.id)
            self.manager.publisher.announce(table, RESUMED_LINE)

    def _start(self) -> None:
        if self.manager.closing:
            return
        if self._recovery is None or self._recovery.done():
            self._recovery = asyncio.create_task(self._recover(), name="store-recovery")

    def cancel(self) -> None:
        if self._recovery is not None:
            self._recovery.cancel()

    async def _recover(self) -> None:
        delay = RECOVERY_FIRST
        while (self.stalled or self.unsaved) and not self.manager.closing:
            await asyncio.sleep(delay)
            delay = min(RECOVERY_MAX, delay * 2)
            try:
                await self.manager.store.check_writable()
                await self._save_ids()
                for table in list(self.stalled.values()):
                    await self._resume(table)
            except StoreUnavailable as err:
                log.info("the database still does not answer (%s); next try in %.1f s", err.reason, delay)
            except StoreError:
                log.exception("a paused table could not be resumed")

    async def _save_ids(self) -> None:
        for table in list(self.unsaved.values()):
            if table.message_id is not None:
                await self.manager.store.games.update(table.id, message_id=table.message_id)
            await self.manager.store.games.set_ping(table.id, table.ping_message_id)
            self.unsaved.pop(table.id, None)

    async def _resume(self, table: Table) -> None:
        manager = self.manager
        if table.status == "ended":
            self.stalled.pop(table.id, None)
            return
        if table.held_events is not None:
            async with table.lock:
                await manager.finish_game(table)
            if table.status == "ended":
                self.stalled.pop(table.id, None)  # its last line says enough
            return
        # Computer turns and the turn timer start again; the driver reports back when it has
        # stored something (recovered) or stalls the table again.
        manager.after_change(table)
        if not (table.driver and not table.driver.done()):
            # Nobody computer-driven is to act (a person's turn): the timer is running again.
            self.recovered(table)

    # ----- tidy ends ---------------------------------------------------------------------------------------
    async def show_unannounced(self, skip: set[int]) -> int:
        """Give every finished game whose last line was never shown its last line and a final
        table message (the publisher reports back when it is shown: ``final_shown``). ``skip``:
        games already being shown (resumed games whose result start-up just stored)."""
        manager = self.manager
        records = [
            r for r in await manager.store.games.unannounced()
            if r.id not in skip and manager.owns_guild(r.guild_id)  # other shards' processes show theirs
        ]  # fmt: skip
        for record in records:
            table = manager.rebuild(record)
            table.status = "ended"
            if record.status == "ended" and table.game is not None:
                manager.publisher.events(table, last_events(record))
            else:
                ended = f"The {table.title} table was ended. No result is recorded."
                manager.publisher.announce(table, ended)
            manager.publisher.table_changed(table)
        return len(records)
