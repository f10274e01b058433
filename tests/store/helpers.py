"""Small builders for store tests: seat dicts, whole finished games in one call, and direct reads."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot.store import SeatResult, Store, Tx, load_migrations

LATEST = load_migrations()[-1].version
ROOT = Path(__file__).resolve().parents[2]


def human(user_id: int, name: str | None = None) -> dict[str, Any]:
    return {"kind": "human", "user_id": user_id, "name": name or f"player{user_id}"}


def computer(level: str = "basic") -> dict[str, Any]:
    return {"kind": "computer", "level": level}


async def new_game(
    store: Store,
    guild_id: int,
    seats: Sequence[dict[str, Any] | None],
    *,
    variant: str = "pitch",
    family: str = "pitch",
    channel_id: int | None = None,
    status: str = "playing",
    seed: int = 1,
) -> int:
    return await store.games.create(
        guild_id=guild_id,
        channel_id=channel_id if channel_id is not None else guild_id * 1000,
        host_id=next((s["user_id"] for s in seats if s is not None and s["kind"] == "human"), 0),
        variant=variant,
        family=family,
        options={},
        seed=seed,
        players=len(seats),
        seats=list(seats),
        status=status,
    )


async def play_game(
    store: Store,
    guild_id: int,
    players: Sequence[int | None],
    places: Sequence[int],
    *,
    sides: Sequence[int] | None = None,
    scores: Sequence[int] | None = None,
    rated: bool = True,
    variant: str = "pitch",
    family: str = "pitch",
    finished_at: float | None = None,
) -> int:
    """Create and finish a game: ``players`` are user ids (None = computer), one per seat."""
    seats = [computer() if uid is None else human(uid) for uid in players]
    game_id = await new_game(store, guild_id, seats, variant=variant, family=family)
    sides = list(sides) if sides is not None else list(range(len(players)))
    scores = list(scores) if scores is not None else [10 if place == 1 else 5 for place in places]
    results = [
        SeatResult(seat=seat, user_id=uid, side=sides[seat], score=scores[seat], place=places[seat])
        for seat, uid in enumerate(players)
    ]
    assert await store.results.finish(
        game_id, guild_id=guild_id, family=family, results=results, rated=rated, finished_at=finished_at
    )
    return game_id


async def query(store: Store, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
    """Rows of a read through the store's own connection (in a read transaction)."""
    return await store.db.read(Tx.all, sql, params)


async def count(store: Store, table: str) -> int:
    return (await query(store, f"SELECT COUNT(*) FROM {table}"))[0][0]


async def rating_of(store: Store, guild: int, user: int, family: str = "pitch") -> tuple[Any, ...]:
    rows = await query(
        store,
        "SELECT mu, sigma, games, wins FROM ratings WHERE guild_id = ? AND family = ? AND user_id = ?",
        (guild, family, user),
    )
    return tuple(rows[0]) if rows else ()


def sql(path: Path, statement: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
    """Read a database file directly, bypassing the store."""
    conn = sqlite3.connect(path)
    try:
        return conn.execute(statement, params).fetchall()
    finally:
        conn.close()


async def refuse_scores_of(store: Store, score: int) -> None:
    """A trigger that makes inserting a result with this score fail with "boom" (as a fault would,
    after the other statements of the transaction ran), in the backend's own dialect."""
    if store.backend == "sqlite":
        statements = [
            f"CREATE TRIGGER boom BEFORE INSERT ON results WHEN NEW.score = {score:d}"
            " BEGIN SELECT RAISE(ABORT, 'boom'); END"
        ]
    else:
        statements = [
            "CREATE FUNCTION boom() RETURNS trigger LANGUAGE plpgsql AS"
            f" $$ BEGIN IF NEW.score = {score:d} THEN RAISE EXCEPTION 'boom'; END IF; RETURN NEW; END $$",
            "CREATE TRIGGER boom BEFORE INSERT ON results FOR EACH ROW EXECUTE FUNCTION boom()",
        ]
    for statement in statements:
        await store.db.write(Tx.run, statement)
