"""Finishing a game: ``store.results.finish`` records results, ratings and league credit at once."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

from bot.store.database import Database, Tx
from bot.store.errors import GameNotFound, StoreError
from bot.store.ratings import Rating, default_rating, ordinal, rate, rated_player, rated_players
from bot.store.records import UNFINISHED, SeatResult
from bot.store.seasons import credit_season
from bot.store.validate import is_int


def _checked(game_id: int, results: Sequence[SeatResult | Mapping[str, Any]]) -> list[SeatResult]:
    """The results as ``SeatResult``s, each seat and each person once, every number whole."""
    try:
        rows = [r if isinstance(r, SeatResult) else SeatResult(**r) for r in results]
    except TypeError as err:
        raise StoreError(
            f"game {game_id}: a seat result needs seat, user_id, side, score, place ({err})"
        ) from None
    if not rows:
        raise StoreError(f"game {game_id}: results.finish needs at least one seat result")
    seats = [r.seat for r in rows]
    if len(set(seats)) != len(seats):
        raise StoreError(f"game {game_id}: a seat appears twice in the results")
    humans = [r.user_id for r in rows if r.user_id is not None]
    if len(set(humans)) != len(humans):
        raise StoreError(f"game {game_id}: a player appears in two seats of the results")
    for r in rows:
        numbers = (r.seat, r.side, r.score, r.place)
        # Negative ids are the computer levels' rated players; only a computer seat has a level.
        person_ok = r.user_id is None or (is_int(r.user_id) and r.user_id >= 0 and r.level is None)
        level_ok = r.level is None or isinstance(r.level, str)
        if not all(map(is_int, numbers)) or r.place < 1 or not person_ok or not level_ok:
            raise StoreError(f"game {game_id}: bad result for seat {r.seat}: {r}")
    return rows


def _ratings_before(tx: Tx, guild_id: int, family: str, players: list[int]) -> dict[int, Rating]:
    before: dict[int, Rating] = {}
    for player in players:
        row = tx.one(
            "SELECT mu, sigma FROM ratings WHERE guild_id = ? AND family = ? AND user_id = ?",
            (guild_id, family, player),
        )
        before[player] = (row["mu"], row["sigma"]) if row else default_rating()
    return before


class Results:
    """Results and ratings of finished games."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def finish(
        self,
        game_id: int,
        *,
        guild_id: int,
        family: str,
        results: Sequence[SeatResult | Mapping[str, Any]],
        rated: bool,
        finished_at: float | None = None,
    ) -> bool:
        """Record a finished game in one transaction: results, ratings (all-time and the current
        season's), league credit, status 'ended'.

        Returns False and writes nothing if the game is already ended (or was abandoned), so a
        retry after a crash or a double call is harmless. With ``rated`` False, mu and sigma stay
        put but humans' games and wins still count (whether a game with computer seats is rated
        is the caller's choice, normally the guild's ``rate_computer_games``). ``results`` may be
        ``SeatResult``s or dicts with the same keys.
        """
        rows = _checked(game_id, results)
        seats = [r.seat for r in rows]
        at = time.time() if finished_at is None else float(finished_at)

        def finish(tx: Tx) -> bool:
            game = tx.one(
                "SELECT guild_id, family, variant, status, players FROM games WHERE id = ?", (game_id,)
            )
            if game is None:
                raise GameNotFound(f"there is no game {game_id}")
            if game["status"] not in UNFINISHED:
                return False
            if game["guild_id"] != guild_id or game["family"] != family:
                raise StoreError(
                    f"game {game_id} belongs to guild {game['guild_id']} ({game['family']}),"
                    f" not guild {guild_id} ({family})"
                )
            if any(not 0 <= seat < game["players"] for seat in seats):
                raise StoreError(f"game {game_id} has seats 0-{game['players'] - 1}, results name {seats}")
            # The league running at the finish, read through this transaction (not leagues.active()).
            league = tx.one(
                "SELECT id FROM leagues WHERE guild_id = ? AND ended_at IS NULL AND started_at <= ?"
                " AND (ends_at IS NULL OR ends_at > ?) AND (family IS NULL OR family = ?)",
                (guild_id, at, at, family),
            )
            league_id = None if league is None else league["id"]
            before = _ratings_before(tx, guild_id, family, rated_players(rows, rated))
            after = rate(before, rows, rated)
            _save_ratings(
                tx,
                game_id,
                guild_id=guild_id,
                family=family,
                results=rows,
                before=before,
                after=after,
                rated=rated,
                at=at,
            )
            tx.executemany(
                "INSERT INTO results (game_id, seat, user_id, side, score, place, guild_id, family,"
                " variant, finished_at, league_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        *(game_id, r.seat, r.user_id, r.side, r.score, r.place),
                        *(guild_id, family, game["variant"], at, league_id),
                    )
                    for r in rows
                ],
            )
            # The season board counts the same players as the all-time one, from season ratings.
            credit_season(tx, guild_id=guild_id, family=family, results=rows, players=list(before),
                          rated=rated, at=at)  # fmt: skip
            tx.run(
                "UPDATE games SET status = 'ended', finished_at = ?, updated_at = ?, league_id = ?"
                " WHERE id = ?",
                (at, at, league_id, game_id),
            )
            return True

        return await self._db.write(finish)


def _save_ratings(
    tx: Tx,
    game_id: int,
    *,
    guild_id: int,
    family: str,
    results: list[SeatResult],
    before: Mapping[int, Rating],
    after: Mapping[int, Rating],
    rated: bool,
    at: float,
) -> None:
    """Store the players' new ratings, games and wins (a computer level's player once, winning
    if any of its seats won), and log each one's rating for trends."""
    for player in before:
        mu, sigma = after[player]
        won = int(any(r.place == 1 for r in results if rated_player(r) == player))
        tx.run(
            "INSERT INTO ratings (guild_id, family, user_id, mu, sigma, ordinal, games, wins)"
            " VALUES (?, ?, ?, ?, ?, ?, 1, ?) ON CONFLICT (guild_id, family, user_id) DO UPDATE SET"
            " mu = excluded.mu, sigma = excluded.sigma, ordinal = excluded.ordinal,"
            " games = ratings.games + 1, wins = ratings.wins + excluded.wins",
            (guild_id, family, player, mu, sigma, ordinal((mu, sigma)), won),
        )
        tx.run(
            "INSERT INTO rating_history (game_id, user_id, guild_id, family, mu, sigma, ordinal_before,"
            " ordinal, rated, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                *(game_id, player, guild_id, family, mu, sigma),
                *(ordinal(before[player]), ordinal((mu, sigma)), int(rated), at),
            ),
        )
