"""Leaderboards, player stats and the admin tools over results: ``store.boards``."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime
from typing import Any

from bot.levels import computer_label
from bot.store.database import Database, Row, Tx
from bot.store.errors import StoreError, StoreRefusal
from bot.store.ratings import default_rating
from bot.store.records import FamilyRating, LeaderRow, PlayerStats, RecentGame, win_pct
from bot.store.validate import is_int

ORDERS = ("rating", "wins", "games", "winpct")
TREND_GAMES = 10
RECENT_GAMES = 5
MAX_PAGE = 100


def _csv_text(value: str) -> str:
    """Neutralise spreadsheet formulas in free text (player names): '=cmd()' becomes "'=cmd()"."""
    return "'" + value if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


def _board_source(
    tx: Tx, guild_id: int, family: str | None, league_id: int | None
) -> tuple[str, dict[str, Any]]:
    """The SQL yielding (user_id, rating, games, wins) for one leaderboard, and its parameters."""
    params: dict[str, Any] = {"guild": guild_id, "family": family, "league": league_id}
    if league_id is not None:
        league = tx.one("SELECT guild_id, family FROM leagues WHERE id = ?", (league_id,))
        if league is None or league["guild_id"] != guild_id:
            raise StoreRefusal(f"there is no league {league_id} in this server")
        params["family"] = family or league["family"]
        # Games and wins within the league; the rating shown is the player's current one.
        return _LEAGUE_BOARD, params
    return (_ALL_FAMILIES_BOARD if family is None else _FAMILY_BOARD), params


class Boards:
    """Read-mostly views over results and ratings, and their reset and export."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def page(
        self,
        guild_id: int,
        *,
        family: str | None = None,
        league_id: int | None = None,
        order: str = "rating",
        limit: int = 10,
        offset: int = 0,
    ) -> list[LeaderRow]:
        """One page of a guild's leaderboard, best first.

        ``family`` None ranks across every family (games and wins summed, rating = the player's
        best family). ``league_id`` counts only games credited to that league. Ties go by the order
        key, then wins, then games (both descending), then user id, so pages never shuffle.
        """
        if order not in ORDERS:
            raise StoreError(f"order must be one of {', '.join(ORDERS)}, not {order!r}")
        if not is_int(limit) or not 1 <= limit <= MAX_PAGE or not is_int(offset) or offset < 0:
            raise StoreError(f"limit must be 1 to {MAX_PAGE} and offset 0 or more")

        def board(tx: Tx) -> list[Row]:
            source, params = _board_source(tx, guild_id, family, league_id)
            # Wrapped so ORDER BY sees the board's columns, never the raw ones they aggregate.
            sql = f"SELECT * FROM ({source}) AS board{_BOARD_ORDER[order]} LIMIT :limit OFFSET :offset"  # noqa: S608
            return tx.all(sql, {**params, "limit": limit, "offset": offset})

        rows = await self._db.read(board)
        return [
            LeaderRow(
                rank=offset + n,
                user_id=row["user_id"],
                rating=row["rating"],
                games=row["games"],
                wins=row["wins"],
                win_pct=win_pct(row["wins"], row["games"]),
            )
            for n, row in enumerate(rows, start=1)
        ]

    async def any_rated(self, guild_id: int, *, family: str | None = None) -> bool:
        """Whether anyone here (in ``family``, or any) has played a rated game: until then every
        rating is the new player's 0 and a board by rating would rank by nothing."""
        # A rated game always lowers sigma, and an unrated one never moves it.
        _, new_sigma = default_rating()
        row = await self._db.read(
            Tx.one,
            "SELECT EXISTS (SELECT 1 FROM ratings WHERE guild_id = ?"
            " AND (CAST(? AS TEXT) IS NULL OR family = ?) AND sigma < ?)",
            (guild_id, family, family, new_sigma),
        )
        return bool(row and row[0])

    async def count(self, guild_id: int, *, family: str | None = None, league_id: int | None = None) -> int:
        """How many players ``page`` would list in all (for paging)."""

        def count(tx: Tx) -> int:
            source, params = _board_source(tx, guild_id, family, league_id)
            return int(tx.value("SELECT COUNT(*) FROM (" + source + ") AS board", params))  # noqa: S608

        return await self._db.read(count)

    async def player_stats(self, guild_id: int, user_id: int) -> PlayerStats:
        """A player's record in one guild (all zeros/None for someone who never finished a game)."""
        key = {"guild": guild_id, "user": user_id, "recent": RECENT_GAMES, "trend": TREND_GAMES - 1}

        def read(tx: Tx) -> tuple[Row | None, list[Row], list[Row]]:
            totals = tx.one(_STATS_TOTALS, key)
            recent = tx.all(
                "SELECT game_id, variant, family, place, score, finished_at FROM results"
                " WHERE guild_id = :guild AND user_id = :user"
                " ORDER BY finished_at DESC, game_id DESC LIMIT :recent",
                key,
            )
            return totals, recent, tx.all(_STATS_RATINGS, key)

        totals, recent, ratings = await self._db.read(read)
        games = totals["games"] if totals else 0
        wins = totals["wins"] if totals else 0
        return PlayerStats(
            guild_id=guild_id,
            user_id=user_id,
            games=games,
            wins=wins,
            win_pct=win_pct(wins, games),
            best_streak=totals["best_streak"] if totals else 0,
            current_streak=totals["current_streak"] if totals else 0,
            average_score=totals["avg_score"] if totals else None,
            favourite_variant=totals["favourite"] if totals else None,
            ratings=[
                FamilyRating(
                    family=row["family"],
                    rating=row["ordinal"],
                    mu=row["mu"],
                    sigma=row["sigma"],
                    games=row["games"],
                    wins=row["wins"],
                    trend=0.0 if row["start"] is None else row["ordinal"] - row["start"],
                )
                for row in ratings
            ],
            recent=[
                RecentGame(
                    game_id=row["game_id"],
                    variant=row["variant"],
                    family=row["family"],
                    place=row["place"],
                    score=row["score"],
                    won=row["place"] == 1,
                    finished_at=row["finished_at"],
                )
                for row in recent
            ],
        )

    async def reset(self, guild_id: int, family: str | None = None) -> int:
        """Delete a guild's ratings (all-time and seasons') and results (one family, or all); returns
        results deleted.

        The games themselves stay (ended), so ``results.finish`` still refuses to record them again.
        """

        def reset(tx: Tx) -> int:
            params: tuple[Any, ...] = (guild_id, family, family)
            where = " WHERE guild_id = ? AND (CAST(? AS TEXT) IS NULL OR family = ?)"
            tx.run("DELETE FROM ratings" + where, params)  # noqa: S608  (constant SQL)
            tx.run("DELETE FROM rating_history" + where, params)  # noqa: S608
            tx.run("DELETE FROM season_ratings" + where, params)  # noqa: S608  (counted from those results)
            removed = int(tx.value("SELECT COUNT(*) FROM results" + where, params))  # noqa: S608
            tx.run("DELETE FROM results" + where, params)  # noqa: S608
            return removed

        return await self._db.write(reset)

    async def export_csv(self, guild_id: int) -> str:
        """Every result of the guild as CSV text, one row per seat of each finished game.

        Seats and sides are numbered from 1 as players see them; times are ISO 8601 UTC.
        """
        rows = await self._db.read(
            Tx.all,
            "SELECT r.game_id, r.finished_at, r.variant, r.family, r.league_id, r.seat, r.side,"
            " r.user_id, r.score, r.place, g.seats FROM results r JOIN games g ON g.id = r.game_id"
            " WHERE r.guild_id = ? ORDER BY r.finished_at, r.game_id, r.seat",
            (guild_id,),
        )
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(
            [
                *("game_id", "finished_at", "variant", "family", "league_id", "seat", "side"),
                *("user_id", "player", "score", "place", "won"),
            ]
        )
        seat_lists: dict[int, list[Any]] = {}
        for row in rows:
            seats = seat_lists.setdefault(row["game_id"], json.loads(row["seats"]))
            seat = seats[row["seat"]] if row["seat"] < len(seats) else None
            if isinstance(seat, dict) and seat.get("kind") == "computer":
                player = computer_label(str(seat.get("name") or "Computer"), str(seat.get("level", "basic")))
            elif isinstance(seat, dict):
                player = str(seat.get("name", ""))
            else:
                player = ""
            when = datetime.fromtimestamp(row["finished_at"], UTC).isoformat(timespec="seconds")
            writer.writerow(
                [
                    *(row["game_id"], when, row["variant"], row["family"], row["league_id"] or ""),
                    *(row["seat"] + 1, row["side"] + 1, row["user_id"] or "", _csv_text(player)),
                    *(row["score"], row["place"], int(row["place"] == 1)),
                ]
            )
        return out.getvalue()


# Leaderboard SQL, built only from these constants (never from input): each yields
# (user_id, rating, games, wins); _BOARD_ORDER adds the ordering for each ``order``.
_FAMILY_BOARD = (
    "SELECT user_id, ordinal AS rating, games, wins FROM ratings"
    " WHERE guild_id = :guild AND family = :family AND games > 0"
)
_ALL_FAMILIES_BOARD = (
    "SELECT user_id, MAX(ordinal) AS rating, SUM(games) AS games, SUM(wins) AS wins FROM ratings"
    " WHERE guild_id = :guild AND games > 0 GROUP BY user_id"
)
_LEAGUE_BOARD = (
    "SELECT r.user_id AS user_id, COUNT(*) AS games, SUM(CASE WHEN r.place = 1 THEN 1 ELSE 0 END) AS wins,"
    " COALESCE((SELECT MAX(t.ordinal) FROM ratings t WHERE t.guild_id = :guild AND t.user_id = r.user_id"
    " AND (CAST(:family AS TEXT) IS NULL OR t.family = :family)), 0.0) AS rating"
    " FROM results r WHERE r.league_id = :league AND r.guild_id = :guild AND r.user_id IS NOT NULL"
    " AND (CAST(:family AS TEXT) IS NULL OR r.family = :family) GROUP BY r.user_id"
)
_TIES = ", wins DESC, games DESC, user_id ASC"

# One pass over a player's results (the covering index results_player) for every /stats total.
# Best streak by gaps and islands: within a run of wins, the overall position minus the position
# among wins is constant, so each run is one group. The current streak counts wins after the
# last non-win (all wins if there was none).
_STATS_TOTALS = """
WITH mine AS (
    SELECT finished_at, game_id, place, score, variant FROM results
    WHERE guild_id = :guild AND user_id = :user
), last_loss AS (
    SELECT finished_at, game_id FROM mine WHERE place > 1 ORDER BY finished_at DESC, game_id DESC LIMIT 1
), runs AS (
    SELECT place, ROW_NUMBER() OVER (ORDER BY finished_at, game_id)
        - ROW_NUMBER() OVER (PARTITION BY place = 1 ORDER BY finished_at, game_id) AS run
    FROM mine
)
SELECT
    COUNT(*) AS games,
    COALESCE(SUM(CASE WHEN place = 1 THEN 1 ELSE 0 END), 0) AS wins,
    AVG(score) AS avg_score,
    (SELECT COALESCE(MAX(n), 0) FROM (SELECT COUNT(*) AS n FROM runs WHERE place = 1 GROUP BY run) AS lengths)
        AS best_streak,
    CASE WHEN EXISTS (SELECT 1 FROM last_loss)
        THEN (SELECT COUNT(*) FROM mine
              WHERE (finished_at, game_id) > (SELECT finished_at, game_id FROM last_loss))
        ELSE COALESCE(SUM(CASE WHEN place = 1 THEN 1 ELSE 0 END), 0) END AS current_streak,
    (SELECT variant FROM mine GROUP BY variant ORDER BY COUNT(*) DESC, MAX(finished_at) DESC, variant LIMIT 1)
        AS favourite
FROM mine
"""

# A player's rating per family, with ``start``: the rating before the oldest of the last
# TREND_GAMES games in that family (OFFSET :trend), or before their first game if fewer.
_STATS_RATINGS = """
SELECT family, mu, sigma, ordinal, games, wins, COALESCE(
    (SELECT h.ordinal_before FROM rating_history h
     WHERE h.guild_id = r.guild_id AND h.user_id = r.user_id AND h.family = r.family
     ORDER BY h.finished_at DESC, h.game_id DESC LIMIT 1 OFFSET :trend),
    (SELECT h.ordinal_before FROM rating_history h
     WHERE h.guild_id = r.guild_id AND h.user_id = r.user_id AND h.family = r.family
     ORDER BY h.finished_at, h.game_id LIMIT 1)
) AS start
FROM ratings r WHERE r.guild_id = :guild AND r.user_id = :user
ORDER BY games DESC, family
"""
_BOARD_ORDER = {
    "rating": " ORDER BY rating DESC" + _TIES,
    "wins": " ORDER BY wins DESC, games DESC, user_id ASC",
    "games": " ORDER BY games DESC, wins DESC, user_id ASC",
    "winpct": " ORDER BY CAST(wins AS DOUBLE PRECISION) / games DESC" + _TIES,
}
