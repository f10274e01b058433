"""Kill test: a process playing several tables is killed with SIGKILL at random moments and
restarted; every game continues from exactly its last accepted action, and no result is written
twice or lost. On both store backends: an SQLite file, and PostgreSQL (where a test server is
configured). The tables cover every variant family: Pitch, partnership Pitch, two-, three- and
four-hand pinochle and double-deck (``tests.resume_runner.VARIANTS``)."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bot.engine import Game
from bot.store import GameRecord, Store, Tx
from tests.resume_runner import VARIANTS

ROOT = Path(__file__).resolve().parents[1]
TABLES = len(VARIANTS)
# A few milliseconds a computer move, so the games outlast the kills whatever the store's speed.
COMPUTER_DELAY = 0.005


@pytest.fixture(params=["sqlite", "postgresql"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The database the runner plays on: a file, or a fresh PostgreSQL schema."""
    if request.param == "postgresql":
        url: str = request.getfixturevalue("postgres_url")
        return url
    return str(tmp_path / "kill.db")


def start_runner(db: str, create: int = 0) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, "-m", "tests.resume_runner", str(db), "--create", str(create),
         "--delay", str(COMPUTER_DELAY)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT,
    )  # fmt: skip


async def snapshot(db: str) -> dict[int, GameRecord]:
    store = await Store.open(db, integrity_check=True)
    try:
        games = {}
        for game_id in range(1, TABLES + 1):
            games[game_id] = await store.games.load(game_id)
        return games
    finally:
        await store.close()


def check_consistent(record: GameRecord) -> Game:
    """The stored log replays from the seed without error (so the state is exactly reachable)."""
    game = Game.from_json(record.engine_record())
    assert len(game.log) == len(record.actions)
    return game


async def result_rows(db: str) -> list[tuple[int, int]]:
    store = await Store.open(db)
    try:
        rows = await store.db.read(Tx.all, "SELECT game_id, seat FROM results ORDER BY game_id, seat")
        return [(int(row[0]), int(row[1])) for row in rows]
    finally:
        await store.close()


async def test_sigkill_at_random_moments_then_resume(target: str) -> None:
    db = target
    rng = random.Random(20261121)
    runner = start_runner(db, create=TABLES)
    assert runner.stdout is not None
    assert runner.stdout.readline().strip() == "ready"
    kills = 0
    logs_at_kill: list[dict[int, list[tuple[int, str]]]] = []
    while kills < 8:
        await asyncio.sleep(rng.uniform(0.02, 0.2))
        if runner.poll() is not None:
            break  # every game ended before this kill
        runner.send_signal(signal.SIGKILL)
        runner.wait(timeout=30)
        kills += 1
        games = await snapshot(db)
        for record in games.values():
            check_consistent(record)
        logs_at_kill.append({gid: list(rec.actions) for gid, rec in games.items()})
        runner = start_runner(db)
        assert runner.stdout is not None
        assert runner.stdout.readline().strip() == "ready", runner.stderr.read() if runner.stderr else ""
    _, err = runner.communicate(timeout=600)
    assert runner.returncode == 0, err
    assert kills >= 5, "the games ended before five kills: make them longer"
    final = await snapshot(db)
    for game_id, record in final.items():
        assert record.status == "ended"
        game = check_consistent(record)
        assert game.is_over
        for earlier in logs_at_kill:
            # Nothing accepted before a kill was lost or changed: each log extends the earlier one.
            assert record.actions[: len(earlier[game_id])] == earlier[game_id]
    rows = await result_rows(db)
    assert sorted({variant for variant, _ in VARIANTS}) == sorted(r.variant for r in final.values())
    seats = sum(record.players for record in final.values())
    assert len(rows) == len(set(rows)) == seats  # one result per seat, written once
