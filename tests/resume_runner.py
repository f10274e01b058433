"""A bot process without Discord, for the kill-and-restart test: it opens the store, resumes every
unfinished table (or, with --create, opens computer-only tables) and plays until all have ended.

Usage: python -m tests.resume_runner DB [--create N]
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


async def main(path: str, create: int) -> None:
    store = await Store.open(path, default_computer_delay=0.0)
    manager = TableManager(store, SilentPublisher())
    tables = await manager.resume_all()
    for channel in range(1, create + 1):
        host = 1000 + channel
        variant = "pitch-partnership" if channel % 2 else "pitch"
        table = await manager.open_table(
            guild_id=1, channel_id=channel, host_id=host, host_name=f"host {channel}", variant=variant,
            options={"target": 21},
        )  # fmt: skip
        await manager.start(table, host)
        await manager.leave(table, host)
        tables.append(table)
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
    args = parser.parse_args()
    asyncio.run(main(args.db, args.create))
