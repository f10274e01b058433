"""A bot process without Discord, for the kill-and-restart test: it opens the store, resumes every
unfinished table (or, with --create, opens computer-only tables) and plays until all have ended.

Usage: python -m tests.resume_runner DB [--create N] [--delay SECONDS]

The tables created cycle through VARIANTS (every family and player count), each with options
that keep a game to a few hundred actions.
"""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

from bot.store import Store
from bot.tables import Table, TableManager


class SilentPublisher:
    def table_changed(self, table: Table) -> None:
        pass

    def announce(self, table: Table, text: str) -> None:
        pass

    def turn_ping(self, table: Table, user_ids: list[int], text: str) -> None:
        pass

    def events(self, table: Table, events: list[dict[str, Any]]) -> None:
        pass

    async def repost(self, table: Table) -> None:
        pass


# (variant, options): Pitch to 11 and partnership Pitch to 21, and one-deal pinochle and
# double-deck games (two-hand to 1,000 would be longer than the test needs).
VARIANTS = [
    ("pitch", {"target": 11}),
    ("pitch-partnership", {"target": 21}),
    ("pinochle-2", {"match": 1000}),
    ("pinochle-3", {"deals": 3}),
    ("pinochle-4", {"match": 1000}),
    ("double-deck", {"match": 250}),
]


async def main(path: str, create: int, delay: float) -> None:
    store = await Store.open(path, default_computer_delay=delay)
    manager = TableManager(store, SilentPublisher())
    tables = await manager.resume_all()
    for channel in range(1, create + 1):
        host = 1000 + channel
        variant, options = VARIANTS[(channel - 1) % len(VARIANTS)]
        table = await manager.open_table(
            guild_id=1, channel_id=channel, host_id=host, host_name=f"host {channel}", variant=variant,
            options=options,
        )  # fmt: skip
        await manager.start(table, host)
        await manager.leave(table, host)
        tables.append(table)
    while any(t.version == 0 and t.status != "ended" for t in tables):
        await asyncio.sleep(0.005)  # "ready" means playing: every table has stored a move
    print("ready", flush=True)
    while any(t.status != "ended" for t in tables):
        await asyncio.sleep(0.02)
    await manager.shutdown()
    await store.close()
    print("done", flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("db")
    parser.add_argument("--create", type=int, default=0)
    parser.add_argument("--delay", type=float, default=0.0, help="seconds a computer move takes")
    args = parser.parse_args()
    asyncio.run(main(args.db, args.create, args.delay))
