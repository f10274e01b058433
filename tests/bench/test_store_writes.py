"""The store writes bench: a short run prints every phase and goal; an unreachable PostgreSQL stops
it with one line and status 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import store_writes
from bot.store import ActionOutOfOrder, GameNotFound, Store


def test_a_short_sqlite_run_prints_each_phase(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--sqlite-only", "--no-aiosqlite", "--tables", "8", "--seconds", "0.5"]
    assert store_writes.main(argv) == 0
    out = capsys.readouterr().out
    for phase in ("busy", "flat", "mixed"):
        assert f"\n{phase}: 8 tables" in out
    rows = [line.split() for line in out.splitlines() if line.startswith("  sqlite, store ")]
    assert len(rows) == 3
    assert all(int(row[2]) > 0 for row in rows)  # actions acknowledged in each phase
    assert "idle event loop's lag" in out


def test_rounds_run_each_phase_again(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--sqlite-only", "--no-aiosqlite", "--tables", "4", "--seconds", "0.3", "--phases", "flat"]
    assert store_writes.main([*argv, "--rounds", "2"]) == 0
    out = capsys.readouterr().out
    assert "round 1 of 2" in out and "round 2 of 2" in out
    assert len([line for line in out.splitlines() if line.startswith("  sqlite, store ")]) == 2


async def test_the_two_statement_append_refuses_as_the_store_does(tmp_path: Path) -> None:
    async with await Store.open(tmp_path / "t.db") as store:
        game = await store.games.create(
            guild_id=1, channel_id=2, host_id=3, variant="pitch", family="pitch", options={},
            seed=1, players=4, seats=[None] * 4, status="playing",
        )  # fmt: skip
        append = store_writes.append_in_two_statements
        await store.db.write(append, game, 0, 0, "bid 2")
        with pytest.raises(ActionOutOfOrder):
            await store.db.write(append, game, 0, 1, "pass")
        with pytest.raises(GameNotFound):
            await store.db.write(append, game + 1, 0, 0, "pass")
        assert (await store.games.load(game)).actions == [(0, "bid 2")]


def test_an_unreachable_postgresql_stops_the_bench_with_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        store_writes.main(["--postgres", "postgresql://postgres@127.0.0.1:1/postgres", "--seconds", "0.1"])
    assert stopped.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert len(captured.err.strip().splitlines()) == 1
    assert "cannot be used" in captured.err and "--sqlite-only" in captured.err
