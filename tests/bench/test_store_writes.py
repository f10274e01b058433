"""The store writes bench: a short run prints every phase and goal; an unreachable PostgreSQL stops
it with one line and status 2."""

from __future__ import annotations

import pytest

from bench import store_writes


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


def test_an_unreachable_postgresql_stops_the_bench_with_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        store_writes.main(["--postgres", "postgresql://postgres@127.0.0.1:1/postgres", "--seconds", "0.1"])
    assert stopped.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert len(captured.err.strip().splitlines()) == 1
    assert "cannot be used" in captured.err and "--sqlite-only" in captured.err
