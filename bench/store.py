"""Store speed: fill a database with 1,000,000 results across 1,000 guilds, then time the queries
behind /leaderboard and /stats through the public ``Store`` API (p50/p99 in milliseconds).

The fill writes straight to SQLite with executemany in large transactions (the store's own
``results.finish`` is for one game at a time). Data: ~250k finished 4-seat games spread over a year in
time order, guild sizes skewed (a few busy servers, many quiet ones; ~50 players a guild on
average), ~10% computer seats, Pitch / partnership Pitch / Pinochle / double-deck, a league in about
a third of the guilds, ratings and rating history for every human result. Action logs of finished
games are not generated: no leaderboard or stats query reads them.

Usage: python bench/store.py [--results N] [--guilds N] [--calls N] [--keep PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.store import Store  # noqa: E402

YEAR = 365 * 86_400.0
SNOWFLAKE = 10**17  # Discord ids are ~18 digits; keep ours that size
# (variant, family, partnership?, weight)
VARIANTS = [
    ("pitch", "pitch", False, 45),
    ("pitch-partnership", "pitch", True, 20),
    ("pinochle", "pinochle", True, 25),
    ("double-deck", "double-deck", True, 10),
]
CHUNK_GAMES = 20_000


def skewed_counts(total: int, buckets: int, rng: random.Random) -> list[int]:
    """Split ``total`` over ``buckets`` with a long tail (lognormal weights), summing exactly."""
    weights = [rng.lognormvariate(0, 1.0) for _ in range(buckets)]
    scale = total / sum(weights)
    counts = [max(1, int(w * scale)) for w in weights]
    diff = total - sum(counts)
    order = sorted(range(buckets), key=lambda i: -weights[i])
    step = 1 if diff > 0 else -1
    i = 0
    while diff:
        k = order[i % buckets]
        if counts[k] + step >= 1:
            counts[k] += step
            diff -= step
        i += 1
    return counts


def fill(path: Path, results: int, guilds: int, seed: int = 1) -> dict[str, Any]:
    """Write the synthetic history; returns a summary (users per guild for the query phase)."""
    rng = random.Random(seed)
    games_total = results // 4
    per_guild = skewed_counts(games_total, guilds, rng)
    now = time.time()
    start = now - YEAR
    users: list[list[int]] = []
    for g in range(guilds):
        # Busier servers have more players: ~15 + games/8, capped (average ~50).
        n = min(400, 15 + per_guild[g] // 8 + rng.randrange(10))
        users.append([SNOWFLAKE + g * 10_000 + k for k in range(n)])
    # Games in global time order, so a guild's rows interleave with everyone else's as in real life.
    games = [(start + rng.random() * YEAR, g) for g in range(guilds) for _ in range(per_guild[g])]
    games.sort()
    leagues: dict[int, tuple[int, float, float]] = {}
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA synchronous = OFF")  # a throwaway file: speed over durability
    conn.execute("BEGIN")
    for g in range(guilds):
        if rng.random() < 0.35:
            began = start + rng.random() * YEAR * 0.8
            ended = began + rng.uniform(3, 60) * 86_400
            cur = conn.execute(
                "INSERT INTO leagues (guild_id, name, family, started_at, ends_at, ended_at)"
                " VALUES (?, ?, NULL, ?, ?, ?)",
                (g + 1, f"League {g}", began, ended, ended),
            )
            assert cur.lastrowid is not None
            leagues[g] = (cur.lastrowid, began, ended)
    conn.execute("COMMIT")

    variant_weights = [w for *_, w in VARIANTS]
    rating: dict[tuple[int, str, int], list[float]] = {}  # key -> [mu, sigma, games, wins]
    written = 0
    game_id = 0
    for offset in range(0, len(games), CHUNK_GAMES):
        game_rows, result_rows, history_rows = [], [], []
        for finished_at, g in games[offset : offset + CHUNK_GAMES]:
            game_id += 1
            guild_id = g + 1
            variant, family, partners, _ = rng.choices(VARIANTS, weights=variant_weights)[0]
            people = rng.sample(users[g], 4)
            seats = [None if rng.random() < 0.1 else uid for uid in people]
            if all(uid is None for uid in seats):
                seats[0] = people[0]
            league = leagues.get(g)
            league_id = league[0] if league and league[1] <= finished_at < league[2] else None
            if partners:
                sides = [0, 1, 0, 1]
                winner = rng.randrange(2)
                places = [1 if side == winner else 2 for side in sides]
                target = 21 if variant == "pitch-partnership" else 150
                side_score = {winner: target + rng.randrange(4), 1 - winner: rng.randrange(-5, target - 1)}
                scores = [side_score[side] for side in sides]
            else:
                sides = [0, 1, 2, 3]
                places = rng.sample([1, 2, 3, 4], 4)
                scores = [11 + rng.randrange(3) if p == 1 else rng.randrange(-6, 11) for p in places]
            seat_json = ",".join(
                '{"kind":"computer","level":"basic"}'
                if uid is None
                else f'{{"kind":"human","name":"u{uid % 10_000}","user_id":{uid}}}'
                for uid in seats
            )
            game_rows.append(
                (
                    *(game_id, guild_id, 900 + g, people[0], variant, family, "{}", rng.randrange(2**53), 4),
                    *(f"[{seat_json}]", "ended", finished_at - 1800, finished_at, finished_at, league_id),
                )
            )
            for seat in range(4):
                uid = seats[seat]
                result_rows.append(
                    (
                        *(game_id, seat, uid, sides[seat], scores[seat], places[seat], guild_id, family),
                        *(variant, finished_at, league_id),
                    )
                )
                if uid is None:
                    continue
                key = (guild_id, family, uid)
                state = rating.setdefault(key, [25.0, 25 / 3, 0, 0])
                before = state[0] - 3 * state[1]
                state[0] += rng.gauss(0.4 if places[seat] == 1 else -0.3, 0.5)
                state[1] = max(1.5, state[1] * 0.97)
                state[2] += 1
                state[3] += places[seat] == 1
                history_rows.append(
                    (
                        *(game_id, uid, guild_id, family, state[0], state[1], before),
                        *(state[0] - 3 * state[1], 1, finished_at),
                    )
                )
        conn.execute("BEGIN")
        conn.executemany(
            "INSERT INTO games (id, guild_id, channel_id, host_id, variant, family, options, seed, players,"
            " seats, status, created_at, updated_at, finished_at, league_id)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            game_rows,
        )
        conn.executemany(
            "INSERT INTO results (game_id, seat, user_id, side, score, place, guild_id, family, variant,"
            " finished_at, league_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            result_rows,
        )
        conn.executemany(
            "INSERT INTO rating_history (game_id, user_id, guild_id, family, mu, sigma, ordinal_before,"
            " ordinal, rated, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            history_rows,
        )
        conn.execute("COMMIT")
        written += len(result_rows)
    conn.execute("BEGIN")
    conn.executemany(
        "INSERT INTO ratings (guild_id, family, user_id, mu, sigma, ordinal, games, wins)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [(*key, mu, sigma, mu - 3 * sigma, n, w) for key, (mu, sigma, n, w) in rating.items()],
    )
    conn.execute("COMMIT")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return {
        "results": written,
        "games": game_id,
        "ratings": len(rating),
        "users": users,
        "busiest_guild_games": max(per_guild),
        "players_per_guild": statistics.mean(len(u) for u in users),
    }


async def timed(calls: int, make: Callable[[], Awaitable[Any]]) -> tuple[float, float, float]:
    """p50, p99 and max of ``calls`` awaits of ``make()``, in milliseconds (after a short warm-up)."""
    for _ in range(5):
        await make()
    samples = []
    for _ in range(calls):
        begin = time.perf_counter()
        await make()
        samples.append((time.perf_counter() - begin) * 1000)
    samples.sort()
    p99 = samples[min(len(samples) - 1, round(0.99 * (len(samples) - 1)))]
    return statistics.median(samples), p99, samples[-1]


async def measure(path: Path, info: dict[str, Any], calls: int) -> list[tuple[str, float, float, float]]:
    rng = random.Random(2)
    users: list[list[int]] = info["users"]
    guilds = len(users)
    begin = time.perf_counter()
    store = await Store.open(path)
    opened_ms = (time.perf_counter() - begin) * 1000
    rows = [("Store.open (incl. quick_check)", opened_ms, opened_ms, opened_ms)]

    def guild() -> int:
        return rng.randrange(guilds) + 1

    def page() -> int:
        return rng.choice((0, 0, 10, 20))

    try:
        for order in ("rating", "wins", "games", "winpct"):
            rows.append(
                (
                    f"leaderboard order={order}",
                    *await timed(calls, lambda o=order: store.boards.page(guild(), order=o, offset=page())),
                )
            )
            rows.append(
                (
                    f"leaderboard order={order} family=pitch",
                    *await timed(
                        calls,
                        lambda o=order: store.boards.page(guild(), family="pitch", order=o, offset=page()),
                    ),
                )
            )
        rows.append(("boards.count", *await timed(calls, lambda: store.boards.count(guild()))))
        async with store.db.read() as tx:
            guild_of = {row[0]: row[1] for row in await tx.all("SELECT id, guild_id FROM leagues")}
        league_ids = sorted(guild_of)

        def league_board() -> Awaitable[Any]:
            league_id = rng.choice(league_ids)
            return store.boards.page(guild_of[league_id], league_id=league_id)

        rows.append(("leaderboard league=… order=rating", *await timed(calls, league_board)))
        rows.append(
            (
                "leagues.standings",
                *await timed(calls, lambda: store.leagues.standings(rng.choice(league_ids))),
            )
        )

        def stats() -> Awaitable[Any]:
            g = rng.randrange(guilds)
            return store.boards.player_stats(g + 1, rng.choice(users[g]))

        rows.append(("player_stats", *await timed(calls, stats)))
        busiest = max(range(guilds), key=lambda g: len(users[g]))
        rows.append(
            (
                "player_stats (busiest guild)",
                *await timed(
                    calls, lambda: store.boards.player_stats(busiest + 1, rng.choice(users[busiest]))
                ),
            )
        )
    finally:
        await store.close()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--results", type=int, default=1_000_000)
    parser.add_argument("--guilds", type=int, default=1_000)
    parser.add_argument("--calls", type=int, default=300, help="timed calls per query")
    parser.add_argument("--keep", type=Path, help="build the database here and keep it")
    parser.add_argument("--reuse", type=Path, help="skip the fill: time queries on a database --keep made")
    args = parser.parse_args()
    if args.reuse:
        rows = asyncio.run(measure(args.reuse, {"users": users_of(args.reuse)}, args.calls))
        report(rows, args.calls)
        return
    with tempfile.TemporaryDirectory() as tmp:
        path = args.keep or Path(tmp) / "bench.db"
        if path.exists():
            sys.exit(f"{path} exists; pick a new path")
        begin = time.perf_counter()
        asyncio.run(_create(path))
        info = fill(path, args.results, args.guilds)
        fill_s = time.perf_counter() - begin
        size_mb = path.stat().st_size / 1e6
        print(
            f"filled {info['results']:,} results, {info['games']:,} games, {info['ratings']:,} rating rows"
            f" in {args.guilds:,} guilds (~{info['players_per_guild']:.0f} players each, busiest guild"
            f" {info['busiest_guild_games']:,} games) in {fill_s:.0f} s; file {size_mb:.0f} MB"
        )
        rows = asyncio.run(measure(path, info, args.calls))
    report(rows, args.calls)


def users_of(path: Path) -> list[list[int]]:
    """Each guild's players, read back from a database made by an earlier run."""
    conn = sqlite3.connect(path)
    by_guild: dict[int, list[int]] = {}
    for guild_id, user_id in conn.execute("SELECT DISTINCT guild_id, user_id FROM ratings ORDER BY 1, 2"):
        by_guild.setdefault(guild_id, []).append(user_id)
    conn.close()
    return [by_guild.get(g, [0]) for g in range(1, max(by_guild) + 1)]


def report(rows: list[tuple[str, float, float, float]], calls: int) -> None:
    width = max(len(name) for name, *_ in rows)
    print(f"{'query':<{width}}  {'p50 ms':>7}  {'p99 ms':>7}  {'max ms':>7}   ({calls} calls each)")
    for name, p50, p99, worst in rows:
        print(f"{name:<{width}}  {p50:7.2f}  {p99:7.2f}  {worst:7.2f}")


async def _create(path: Path) -> None:
    store = await Store.open(path)
    await store.close()


if __name__ == "__main__":
    main()
