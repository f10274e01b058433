"""A club's SQLite database with every kind of record Trick Night keeps, made the way the bot makes
them (the table manager playing real games, the store's own APIs for the rest), for the migration
tests: finished and unfinished games of every family (pitch, pinochle for 2, 3 and 4, double-deck),
a lobby and abandoned tables, a league night that ended and one scheduled, two seasons, a duplicate
event with its tables, guild settings with house rules, a timezone, and player preferences.

``python -m tests.store.club PATH [--big N]`` writes one (``--big``: N more finished games, for
measuring the migration of a large database)."""

from __future__ import annotations

import argparse
import asyncio
import random
import time
from pathlib import Path
from typing import Any

from bot.ai import decide, make_player
from bot.engine import IllegalAction, new_game
from bot.store import SeatResult, Store
from bot.tables import Table, TableManager

GUILD, OTHER_GUILD = 1, 2
PEOPLE = (11, 12, 13, 14)


class QuietPublisher:
    """Shows nothing (there is no Discord here)."""

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


class Club:
    """Opens, seats and plays tables through the table manager."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.manager = TableManager(store, QuietPublisher())
        self._channel = 500

    async def table(
        self, variant: str, people: tuple[int, ...], *, guild: int = GUILD, players: int | None = None
    ) -> Table:
        """A lobby hosted by the first person, the others seated."""
        self._channel += 1
        table = await self.manager.open_table(
            guild_id=guild, channel_id=self._channel, host_id=people[0], host_name=f"p{people[0]}",
            variant=variant, players=players or len(people),
        )  # fmt: skip
        for person in people[1:]:
            await self.manager.join(table, person, f"p{person}")
        return table

    async def play(self, table: Table, *, stop_after: int | None = None) -> Table:
        """Start the table and play it: the people's turns chosen for them by a basic computer,
        computer seats by the manager; until the game ends, or ``stop_after`` actions are logged."""
        if table.status == "lobby":
            await self.manager.start(table, table.host_id)
        assert table.game is not None
        helpers = {seat: make_player(table.family, "basic", 7 * seat + 1) for seat in range(table.players)}
        deadline = time.monotonic() + 300
        while table.status == "playing":
            assert time.monotonic() < deadline, f"table {table.id} did not finish"
            game = table.game
            assert game is not None
            if stop_after is not None and len(game.log) >= stop_after:
                break
            people = {s: who.user_id for s in game.to_act if (who := table.seats[s]) and not who.plays_itself}
            if not people:
                await asyncio.sleep(0.002)  # a computer's turn: the manager plays it
                continue
            seat, user = next(iter(people.items()))
            assert user is not None
            try:
                await self.manager.act(table, user, decide(helpers[seat], game, seat))
            except IllegalAction:
                continue  # a computer moved first (a phase where several act at once): look again
        return table

    async def finished(self, variant: str, people: tuple[int, ...], **kwargs: Any) -> Table:
        table = await self.play(await self.table(variant, people, **kwargs))
        record = await self.store.games.load(table.id)
        assert record.status == "ended", (variant, record.status)
        return table

    async def duplicate(self, variant: str, deals: int, tables: int) -> int:
        """A duplicate event whose tables (computers only) each played its deals; ended."""
        cls, options, players = await self.manager.check_new(GUILD, variant, None, None)
        event = await self.store.duplicates.create(
            guild_id=GUILD, channel_id=900, organizer_id=PEOPLE[0], variant=cls.name, players=players,
            options=options, seed=20261123, deals=deals,
        )  # fmt: skip
        for number in range(tables):
            host = PEOPLE[number]
            table = await self.table(variant, (host,), players=players)
            await self.store.games.update(table.id, seed=event.seed)
            table.seed, table.deal_limit = event.seed, event.deals
            await self.store.duplicates.add_table(event.id, table.id)
            await self.manager.start(table, host)
            await self.manager.leave(table, host)  # a computer plays the seat: all computers now
            deadline = time.monotonic() + 300
            while table.status != "ended":
                assert time.monotonic() < deadline, "the duplicate table did not stop"
                await asyncio.sleep(0.01)
        await self.store.duplicates.end(event.id)
        return event.id


async def seed_club(path: Path, *, big: int = 0) -> None:
    """Write the club's database at ``path`` (see the module docstring)."""
    store = await Store.open(path)
    club = Club(store)
    try:
        await _seed(club, big)
    finally:
        await club.manager.shutdown()
        await store.close()


async def _seed(club: Club, big: int) -> None:
    store, manager = club.store, club.manager
    await manager.update_settings(
        GUILD, computer_delay_seconds=0, turn_timeout_seconds=0, rate_computer_games=True,
        table_threads="private", language="fr", default_options={"pitch": {"target": 7}},
    )  # fmt: skip
    await manager.update_settings(OTHER_GUILD, computer_delay_seconds=0, turn_timeout_seconds=0)
    await store.leagues.set_timezone(GUILD, "Europe/Berlin")
    await store.players.update(PEOPLE[0], card_style="text", four_colour=True)
    await store.players.update(PEOPLE[1], four_colour=True)

    await store.seasons.start(GUILD, "Spring")
    await club.finished("pitch", PEOPLE[:3])
    await club.finished("pinochle-2", PEOPLE[:2])
    await store.leagues.start(GUILD, "Friday night", channel_id=700)
    await club.finished("pinochle-3", PEOPLE[:3])
    await club.finished("pinochle-4", PEOPLE)
    await club.finished("double-deck", PEOPLE)
    await club.finished("pitch-partnership", PEOPLE[:2], players=4)  # two computers, rated
    await store.leagues.end(GUILD)
    await store.leagues.start(GUILD, "Next month", family="pinochle", started_at=time.time() + 30 * 86400,
                              channel_id=700)  # fmt: skip
    await store.seasons.start(GUILD, "Summer")
    await club.finished("pitch", PEOPLE[1:3])
    await club.finished("pinochle-2", (21, 22), guild=OTHER_GUILD)

    for variant, people, moves in (
        ("pitch", PEOPLE[:2], 9),
        ("pinochle-2", PEOPLE[:2], 12),
        ("pinochle-3", PEOPLE[:3], 15),
        ("pinochle-4", PEOPLE, 20),
        ("double-deck", PEOPLE, 40),
    ):
        await club.play(await club.table(variant, people), stop_after=moves)  # unfinished: "playing"
    await club.table("pitch", PEOPLE[2:])  # a lobby
    abandoned = await club.play(await club.table("pinochle-2", PEOPLE[2:]), stop_after=6)
    await manager.end(abandoned, abandoned.host_id, is_admin=False)
    deserted = await club.table("pitch", (PEOPLE[3],), players=2)
    await manager.leave(deserted, PEOPLE[3])  # everyone left: closed without a game
    await club.duplicate("pinochle-4", deals=1, tables=2)
    if big:
        await _many_games(store, big)


async def _many_games(store: Store, count: int) -> None:
    """``count`` more finished pitch games with whole action logs, written straight through the
    store (as the manager would, but without its pauses), for a large database."""
    rng = random.Random(5)
    for number in range(count):
        game = new_game("pitch", players=4, seed=number + 1)
        helpers = [make_player("pitch", "basic", seat) for seat in range(4)]
        people = rng.sample(range(100, 400), 4)
        game_id = await store.games.create(
            guild_id=GUILD, channel_id=10_000 + number, host_id=people[0], variant="pitch", family="pitch",
            options=dict(game.options), seed=game.seed, players=4, status="playing",
            seats=[{"kind": "human", "name": f"p{p}", "user_id": p, "level": "basic", "away": False}
                   for p in people],
        )  # fmt: skip
        while not game.is_over:
            seat = game.to_act[0]
            action = decide(helpers[seat], game, seat)
            await store.games.append_action(game_id, len(game.log), seat, str(action))
            game.apply(seat, action)
        assert game.outcome is not None
        scores, places = game.outcome.scores, game.outcome.places
        results = [
            SeatResult(seat, people[seat], game.side_of[seat], scores[game.side_of[seat]],
                       places[game.side_of[seat]])
            for seat in range(4)
        ]  # fmt: skip
        await store.results.finish(game_id, guild_id=GUILD, family="pitch", results=results, rated=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("path", type=Path)
    parser.add_argument("--big", type=int, default=0, help="this many more finished games")
    args = parser.parse_args()
    started = time.monotonic()
    asyncio.run(seed_club(args.path, big=args.big))
    print(f"wrote {args.path} in {time.monotonic() - started:.1f} s")


if __name__ == "__main__":
    main()
