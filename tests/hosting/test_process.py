"""The real bot process against the wire fake: a clean stop on SIGTERM mid-game loses nothing and the
game resumes; a second process on the same database is refused; the files the bot makes are private."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import stat
from pathlib import Path

from discord.voice_client import has_dave, has_nacl

from bot.store import Store
from bot.tables import RESTARTING
from tests.discord_ui.fake_discord import FakeDiscord
from tests.hosting.harness import (
    COMMANDS_SYNC,
    BotProcess,
    accepted,
    act_id,
    answer_to,
    click,
    fake_token,
    read_game,
    slash,
    source_bot,
    table_option,
    wait_answer,
    wait_for_turn,
    write_env_file,
)

ALICE = 0  # the fake's user sits in seat 1 (index 0); computers play the others


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


async def start_bot(fake: FakeDiscord, tmp_path: Path, *args: str) -> BotProcess:
    mark = len(fake.requests)
    bot = source_bot(fake, tmp_path / "home", tmp_path / "site", *args)
    await bot.wait_for_line(r"connected as .*: 1 guild\(s\)")
    await fake.wait_for_request("PUT", COMMANDS_SYNC, since=mark, timeout=15)
    return bot


def site(tmp_path: Path) -> Path:
    """A hosting folder with only a .env; the database goes to its db/ folder (made by the bot)."""
    write_env_file(
        tmp_path / "site",
        DISCORD_TOKEN=fake_token(),
        TRICKNIGHT_DATABASE="db/tricknight.db",  # relative to the .env file's folder
        TRICKNIGHT_COMPUTER_DELAY="0.05",
    )
    return tmp_path / "site" / "db" / "tricknight.db"


async def test_sigterm_mid_game_exits_0_loses_nothing_and_the_game_resumes(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    db = site(tmp_path)
    async with await Store.open(db) as store:  # this table plays in the channel, not a thread of its own
        await store.settings.update(int(fake.guild_id), table_threads="off")
    bot = await start_bot(fake, tmp_path)
    try:
        log_line = await bot.wait_for_line(r"database .* \(schema \d+")
        # Issue 46 (7): no warnings about voice, which the bot does not use.
        assert "voice will NOT be supported" not in bot.output()
        assert not (has_nacl and has_dave), "the voice libraries are installed: nothing to warn about"
        assert str(db) in log_line and "TRICKNIGHT_DATABASE in" in log_line
        await slash(fake, "table", table_option("new", game="pitch"))
        game_id = 1
        await slash(fake, "table", table_option("start"))
        # The files are private: the folder the bot made is 0700, the database, its side files
        # and the lock file 0600.
        assert mode(db.parent) == 0o700
        for suffix in ["", "-wal", "-shm", ".lock"]:
            assert mode(db.with_name(db.name + suffix)) == 0o600, suffix

        # Alice plays a few turns; each accepted click is acknowledged only once it is stored.
        acknowledged: dict[int, str] = {}  # version -> action
        for _ in range(3):
            game = await wait_for_turn(db, game_id, ALICE)
            custom_id, action = act_id(game_id, game, ALICE)
            token, _ = await click(fake, custom_id)
            assert accepted(await wait_answer(fake, token)), answer_to(fake, token)
            acknowledged[len(game.log)] = action

        # One more click whose write is held up: the test holds SQLite's write lock, so the bot's
        # write waits (a click retries a locked database for up to 1.2 s, then answers "try again")
        # and the click is not answered yet.
        game = await wait_for_turn(db, game_id, ALICE)
        custom_id, action = act_id(game_id, game, ALICE)
        blocker = sqlite3.connect(db, isolation_level=None)
        blocker.execute("BEGIN IMMEDIATE")
        try:
            token, _ = await click(fake, custom_id)
            await asyncio.sleep(0.3)  # time to reach the write (well inside the click's 1.2 s)
            assert answer_to(fake, token) is None  # its write is in flight
            bot.proc.send_signal(signal.SIGTERM)
            await bot.wait_for_line("SIGTERM received")
            # A click after the signal is refused and changes nothing.
            late, _ = await click(fake, custom_id.replace(f":{len(game.log)}:", f":{len(game.log) + 1}:"))
            await asyncio.sleep(0.1)
        finally:
            blocker.execute("ROLLBACK")
            blocker.close()
        code, seconds = await bot.stop(signal.SIGTERM)  # already sent: this waits for the exit
        assert code == 0, bot.output()
        assert seconds < 5, seconds
        assert "stopped cleanly" in bot.output()
        # The write in flight finished and its click got its answer before the bot closed.
        assert accepted(answer_to(fake, token)), answer_to(fake, token)
        acknowledged[len(game.log)] = action
        refused = answer_to(fake, late)
        assert refused is not None and RESTARTING in refused["data"]["content"]
    finally:
        bot.kill()

    status, stored, replayed = read_game(db, game_id)
    assert status == "playing" and replayed is not None  # the log replays from the seed
    assert len(stored) == max(acknowledged) + 1  # the refused click changed nothing
    for version, action in acknowledged.items():
        assert stored[version] == (ALICE, action), (version, action)
    stopped_at = len(stored)

    # Next start: the table is resumed (its message edited again) and the game goes on.
    mark = len(fake.requests)
    bot = await start_bot(fake, tmp_path)
    try:
        assert "resumed 1 unfinished table(s)" in bot.output()
        try:
            # A restart on a loaded machine can take longer than a click's deadline: give it 20 s.
            await fake.wait_for_request(
                "PATCH", rf"^/channels/{fake.channel_id}/messages/\d+$", timeout=20.0, since=mark
            )
        except AssertionError as err:
            raise AssertionError(f"{err}\n{bot.output()}") from None
        game = await wait_for_turn(db, game_id, ALICE)
        custom_id, action = act_id(game_id, game, ALICE)
        token, _ = await click(fake, custom_id)
        assert accepted(await wait_answer(fake, token)), answer_to(fake, token)
        _, stored, _ = read_game(db, game_id)
        assert stored[len(game.log)] == (ALICE, action)
        assert len(stored) > stopped_at
        code, seconds = await bot.stop(signal.SIGINT)
        assert code == 0 and seconds < 5, bot.output()
    finally:
        bot.kill()


async def test_a_second_process_on_the_same_database_is_refused_with_the_holders_pid(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    db = site(tmp_path)
    await (await Store.open(db)).close()
    os.chmod(db, 0o644)  # made by an older version: readable by every user of the machine
    first = await start_bot(fake, tmp_path)
    try:
        warning = await first.wait_for_line("other users of this machine can read")
        assert f"chmod 600 {db}" in warning
        second = source_bot(fake, tmp_path / "home", tmp_path / "site")
        assert await second.wait_exit() == 2
        message = second.output()
        assert f"another Trick Night process (pid {first.pid}) is using the database {db}" in message
        assert "Traceback" not in message
        assert first.proc.poll() is None  # the first one runs on, undisturbed

        # A restore is refused too while the bot runs, naming the same pid.
        backup = tmp_path / "copy.db"
        made = source_bot(fake, tmp_path / "home", tmp_path / "site", "backup", str(backup))
        assert await made.wait_exit() == 0, made.output()
        assert mode(backup) == 0o600
        restore = source_bot(fake, tmp_path / "home", tmp_path / "site", "restore", str(backup))
        assert await restore.wait_exit() == 1
        assert f"Trick Night is running on {db} (pid {first.pid})" in restore.output()

        # The health probe sees the running bot (and never takes the lock).
        health = source_bot(fake, tmp_path / "home", tmp_path / "site", "health")
        assert await health.wait_exit() == 0, health.output()
        assert f"healthy: pid {first.pid}, 1 guild(s)" in health.output()
    finally:
        code, _ = await first.stop()
        first.kill()
    assert code == 0
    # Once it stopped, the lock is free: a new process can take it.
    again = await start_bot(fake, tmp_path)
    try:
        await asyncio.sleep(0)
    finally:
        code, _ = await again.stop()
        again.kill()
    assert code == 0
