"""Faults over the wire: the real bot against the loopback fake of Discord, meeting gateway drops
(RESUME, fresh IDENTIFY), a locked database, a channel that is gone or closed to it, and a restart
after ends it had not shown yet; plus who may be notified (mentions)."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.app import TrickNightBot
from bot.config import Settings
from bot.engine import new_game
from bot.store import SeatResult, Store
from tests.discord_ui.fake_discord import FakeDiscord, RecordedRequest
from tests.discord_ui.test_wire import CALLBACK, running

MANAGE_GUILD = discord.Permissions(manage_guild=True).value | 2248473465835073


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord()
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


def make_bot(tmp_path: Path, delay: float = 0.0) -> TrickNightBot:
    settings = Settings(token="fake-token", database=tmp_path / "wire.db", computer_delay=delay)
    return TrickNightBot(settings, min_edit_interval=0.0, guild_ready_timeout=0.05)


async def ask(fake: FakeDiscord, payload: dict[str, Any], timeout: float = 5.0) -> RecordedRequest:
    """Send an interaction; the bot's answer (its callback request)."""
    mark = len(fake.requests)
    await fake.dispatch("INTERACTION_CREATE", payload)
    return await fake.wait_for_request(
        "POST", CALLBACK, since=mark, timeout=timeout, predicate=lambda r: payload["id"] in r.path
    )


def slash(fake: FakeDiscord, command: str, sub: str | None = None, **options: Any) -> dict[str, Any]:
    opts = [{"type": 3 if isinstance(v, str) else 4, "name": k, "value": v} for k, v in options.items()]
    tree = [{"type": 1, "name": sub, "options": opts}] if sub else opts
    return fake.slash_interaction(command, tree)


async def open_and_start(fake: FakeDiscord, **extra: Any) -> tuple[dict[str, Any], int]:
    """/table new (the person is the host; two-hand Pitch unless said), then Start: the table
    message and the table id."""
    await fake.wait_for_request("PUT", r"^/applications/\d+/commands$")
    answer = await ask(fake, slash(fake, "table", "new", **{"game": "pitch", "players": 2, **extra}))
    lobby = fake.original_responses[answer.path.split("/")[3]]
    ids = [c["custom_id"] for row in answer.json["data"]["components"] for c in row["components"]]
    start = next(cid for cid in ids if cid.endswith(":start"))
    await ask(fake, fake.component_interaction(start, lobby))
    table_id = int(start.split(":")[2])
    # A person clicks Show my hand once the message shows it (a click on a button a message does
    # not have is not delivered).
    await fake.wait_for_request(
        "PATCH", rf"/messages/{lobby['id']}$", predicate=lambda r: f"tn:hand:{table_id}" in str(r.json)
    )
    return lobby, table_id


async def my_turn(fake: FakeDiscord, since: int = 0) -> RecordedRequest:
    return await fake.wait_for_request(
        "POST", r"^/channels/\d+/messages$", since=since, timeout=10.0,
        predicate=lambda r: f"<@{fake.user_id}>" in ((r.json or {}).get("content") or ""),
    )  # fmt: skip


async def first_action(fake: FakeDiscord, lobby: dict[str, Any], table_id: int) -> tuple[str, dict[str, Any]]:
    """Show my hand; one enabled action button on it and the hand message."""
    shown = await ask(fake, fake.component_interaction(f"tn:hand:{table_id}", lobby))
    hand = fake.original_responses[shown.path.split("/")[3]]
    buttons = [c for row in shown.json["data"]["components"] for c in row["components"]]
    action = next(
        b["custom_id"] for b in buttons if b["custom_id"].startswith("tn:act:") and not b.get("disabled")
    )
    return action, hand


async def test_no_default_mentions_and_the_turn_ping_names_its_person_only(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    async with running(make_bot(tmp_path)):
        await fake.wait_for_request("PUT", r"^/applications/\d+/commands$")
        league = slash(fake, "admin", "league-start", name="@everyone party night")
        league["member"]["permissions"] = str(MANAGE_GUILD)
        answer = await ask(fake, league)
        assert "@everyone party night" in answer.json["data"]["content"]
        assert answer.json["data"]["allowed_mentions"] == {"parse": []}  # said, not pinged
        await open_and_start(fake)
        ping = await my_turn(fake)
        mentions = ping.json["allowed_mentions"]
        assert mentions["parse"] == [] and [str(u) for u in mentions["users"]] == [fake.user_id]
        said = [
            r for r in fake.requests if r.method == "POST" and r.path.endswith("/messages") and r is not ping
        ]
        assert all((r.json or {}).get("allowed_mentions", {"parse": []})["parse"] == [] for r in said)


async def test_gateway_resume_and_fresh_identify_mid_game_fire_each_timer_once(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    bot = make_bot(tmp_path, delay=0.05)

    async def identify_at_once(shard_id: int | None, *, initial: bool = False) -> None:
        pass  # discord.py waits 5 s before a new IDENTIFY (Discord's pacing); the fake needs none

    bot.before_identify_hook = identify_at_once  # type: ignore[method-assign]
    async with running(bot):
        await fake.wait_for_request("PUT", r"^/applications/\d+/commands$")
        await bot.store.settings.update(int(fake.guild_id), turn_timeout_seconds=2)
        _, table_id = await open_and_start(fake, options="target=21")
        table = bot.tables.by_id[table_id]
        await my_turn(fake)
        await fake.close_gateway(4000)  # dropped: discord.py resumes the session
        for _ in range(200):
            if any(p["op"] == 6 for p in fake.gateway_received):
                break
            await asyncio.sleep(0.02)
        assert any(p["op"] == 6 for p in fake.gateway_received), "no RESUME after the drop"
        # The person does not play: the reminder, then a computer takes over, each exactly once.
        await fake.wait_for_request(
            "POST", r"^/channels/\d+/messages$", timeout=10.0,
            predicate=lambda r: "did not play in time" in ((r.json or {}).get("content") or ""),
        )  # fmt: skip
        played = table.version
        await fake.send_op(9, False)  # session invalid: a fresh IDENTIFY, READY and GUILD_CREATE
        for _ in range(300):
            if sum(p["op"] == 2 for p in fake.gateway_received) >= 2 and table.version > played + 2:
                break
            await asyncio.sleep(0.02)
        assert sum(p["op"] == 2 for p in fake.gateway_received) == 2
        assert table.version > played + 2, "the game stopped after the new session"
        assert bot.tables.by_id[table_id] is table and len(bot.tables.by_id) == 1
        texts = [(r.json or {}).get("content") or "" for r in fake.requests if r.method == "POST"]
        assert sum("reminder" in t for t in texts) == 1
        assert sum("did not play in time" in t for t in texts) == 1


async def test_a_click_while_the_database_is_locked_gets_try_again_in_time(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    bot = make_bot(tmp_path)
    async with running(bot):
        lobby, table_id = await open_and_start(fake)
        await my_turn(fake)
        action, hand = await first_action(fake, lobby, table_id)
        version = bot.tables.by_id[table_id].version
        blocker = sqlite3.connect(tmp_path / "wire.db", isolation_level=None, timeout=0)
        blocker.execute("BEGIN IMMEDIATE")
        try:
            started = time.monotonic()
            answer = await ask(fake, fake.component_interaction(action, hand))
            assert time.monotonic() - started < 2.5
            content = answer.json["data"]["content"]
            assert "busy" in content and "Try again" in content and answer.json["data"]["flags"] & 64
            assert bot.tables.by_id[table_id].version == version
        finally:
            blocker.rollback()
            blocker.close()
        again = await ask(fake, fake.component_interaction(action, hand))
        assert again.json["type"] == 7 and again.json["data"]["content"].startswith("You: ")


async def test_a_table_whose_channel_is_gone_ends_without_a_result(fake: FakeDiscord, tmp_path: Path) -> None:
    bot = make_bot(tmp_path)
    async with running(bot):
        lobby, table_id = await open_and_start(fake)
        await my_turn(fake)
        gone = {"message": "Unknown Channel", "code": 10003}
        fake.intercept = lambda r: fake._json(gone, 404) if r.path.startswith("/channels/") else None
        action, hand = await first_action(fake, lobby, table_id)
        await ask(fake, fake.component_interaction(action, hand))  # a change the bot cannot show
        for _ in range(200):
            if bot.tables.table_in(int(fake.channel_id)) is None:
                break
            await asyncio.sleep(0.02)
        assert bot.tables.table_in(int(fake.channel_id)) is None
        # The table leaves memory before the store's writer thread commits its end: wait for that.
        for _ in range(200):
            record = await bot.store.games.load(table_id)
            if record.announced_at is not None:
                break
            await asyncio.sleep(0.02)
        assert record.status == "abandoned" and record.announced_at is not None
        assert await bot.store.boards.count(int(fake.guild_id)) == 0  # no result


async def test_where_the_bot_cannot_post_the_host_is_told(fake: FakeDiscord, tmp_path: Path) -> None:
    async with running(make_bot(tmp_path)) as bot:
        await fake.wait_for_request("PUT", r"^/applications/\d+/commands$")
        fake.app_permissions[fake.channel_id] = str(discord.Permissions(view_channel=True).value)
        answer = await ask(fake, slash(fake, "table", "new", game="pitch"))
        data = answer.json["data"]
        assert data["flags"] & 64 and "Send Messages" in data["content"] and "Embed Links" in data["content"]
        assert bot.tables.table_in(int(fake.channel_id)) is None
        fake.app_permissions.clear()
        await open_and_start(fake)
        fake.app_permissions[fake.channel_id] = str(discord.Permissions(view_channel=True).value)
        status = await ask(fake, slash(fake, "table", "status"))
        assert (
            status.json["data"]["flags"] & 64
            and "cannot post in this channel" in status.json["data"]["content"]
        )


async def test_an_over_long_meld_gets_its_own_answer(fake: FakeDiscord, tmp_path: Path) -> None:
    async with running(make_bot(tmp_path)):
        await fake.wait_for_request("PUT", r"^/applications/\d+/commands$")
        payload = fake.slash_interaction("meld", [
            {"type": 3, "name": "game", "value": "pinochle-4"}, {"type": 3, "name": "trump", "value": "H"},
            {"type": 3, "name": "cards", "value": "AH " * 2000},
        ])  # fmt: skip
        data = (await ask(fake, payload)).json["data"]
        assert data["flags"] & 64 and "6,000 characters" in data["content"]


async def finished_unshown(store: Store, fake: FakeDiscord, *, with_result: bool, seed: int) -> int:
    """A game stored up to its end, as the bot stopped it: its table message still has live
    buttons and a ping is still up."""
    game = new_game("pinochle-2", players=2, options={"match": "deal"}, seed=seed)
    seats = [
        {"kind": "human", "user_id": int(fake.user_id), "name": "Alice"},
        {"kind": "computer", "level": "basic"},
    ]
    game_id = await store.games.create(guild_id=int(fake.guild_id), channel_id=int(fake.channel_id),
                                       host_id=int(fake.user_id), variant="pinochle-2", family="pinochle",
                                       options=game.options, seed=game.seed, players=2, seats=seats,
                                       status="playing")  # fmt: skip
    while not game.is_over:
        seat = game.to_act[0]
        action = game.legal_actions(seat)[0]
        game.apply(seat, action)
        await store.games.append_action(game_id, len(game.log) - 1, seat, str(action))
    live = [{"type": 1, "components": [{"type": 2, "style": 1, "label": "Show my hand",
                                         "custom_id": f"tn:hand:{game_id}"}]}]  # fmt: skip
    message = fake._store_message(fake.message(content="", components=live))
    ping = fake._store_message(fake.message(content=f"<@{fake.user_id}> your turn"))
    await store.games.update(game_id, message_id=int(message["id"]))
    await store.games.set_ping(game_id, int(ping["id"]))
    if with_result:
        outcome = game.outcome
        assert outcome is not None
        results = [SeatResult(s, int(fake.user_id) if s == 0 else None, s, outcome.scores[s],
                              1 if s in outcome.winning_sides else 2) for s in range(2)]  # fmt: skip
        await store.results.finish(game_id, guild_id=int(fake.guild_id), family="pinochle", results=results,
                                   rated=False)  # fmt: skip
    return game_id


async def test_after_a_restart_every_finished_game_has_its_last_line_and_no_live_buttons(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    store = await Store.open(tmp_path / "wire.db")
    games = [
        await finished_unshown(store, fake, with_result=flag, seed=n) for n, flag in ((3, False), (4, True))
    ]
    records = [await store.games.load(g) for g in games]
    await store.close()
    bot = make_bot(tmp_path)
    async with running(bot):
        for _ in range(300):
            done = [await bot.store.games.load(g) for g in games]
            if all(r.announced_at is not None for r in done):
                break
            await asyncio.sleep(0.02)
        assert all(r.status == "ended" and r.announced_at is not None for r in done)
        ends = [
            r for r in fake.requests if r.method == "POST" and "🏁" in ((r.json or {}).get("content") or "")
        ]
        assert len(ends) == 2
        for record in records:
            edits = [
                r for r in fake.requests if r.method == "PATCH" and r.path.endswith(f"/{record.message_id}")
            ]
            assert edits and edits[-1].json["components"] == []  # no live buttons
            assert fake.messages[str(record.message_id)]["components"] == []
            assert str(record.ping_message_id) not in fake.messages  # the stale ping is deleted
    async with running(make_bot(tmp_path)):  # and never again
        await fake.wait_for_request("PUT", r"^/applications/\d+/commands$")
        await asyncio.sleep(0.2)
        again = [
            r for r in fake.requests if r.method == "POST" and "🏁" in ((r.json or {}).get("content") or "")
        ]
        assert len(again) == 2


async def test_league_standings_reach_the_channel_across_a_stop(fake: FakeDiscord, tmp_path: Path) -> None:
    guild, channel = int(fake.guild_id), int(fake.channel_id)
    store = await Store.open(tmp_path / "wire.db")
    now = time.time()
    # Closed (its one transaction committed) but the bot stopped before posting the standings...
    closed = await store.leagues.start(guild, "Tuesday", started_at=now - 7200, channel_id=channel)
    await store.leagues.end(guild)
    # ... and one that ran past its planned end while the bot was down.
    due = await store.leagues.start(guild, "Wednesday", ends_at=now - 60, started_at=now - 3600,
                                    channel_id=channel)  # fmt: skip
    await store.close()
    bot = make_bot(tmp_path)
    async with running(bot):
        for name in ("Tuesday", "Wednesday"):
            posted = await fake.wait_for_request(
                "POST", rf"^/channels/{channel}/messages$", timeout=10.0,
                predicate=lambda r, n=name: f"**{n}**" in ((r.json or {}).get("content") or ""),
            )  # fmt: skip
            assert "League over" in posted.json["content"]
        for _ in range(100):
            leagues = [await bot.store.leagues.get(lid) for lid in (closed.id, due.id)]
            if all(lg is not None and lg.standings_posted_at for lg in leagues):
                break
            await asyncio.sleep(0.02)
        assert all(lg is not None and lg.ended_at and lg.standings_posted_at for lg in leagues)
