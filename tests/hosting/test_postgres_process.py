"""The real bot process on PostgreSQL against the wire fake of Discord: it names its backend and
schema (never the password), keeps a second process off the database, answers ``check`` and
``health``, refuses ``backup``/``restore`` with the tools that do it, plays a game into the
server, stops cleanly; and a server out of reach at start is waited for."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg

from bot.store.migrations import load_migrations
from tests.discord_ui.fake_discord import FakeDiscord
from tests.hosting.harness import (
    COMMANDS_SYNC,
    BotProcess,
    fake_token,
    slash,
    source_bot,
    table_option,
    write_env_file,
)
from tests.services.pg_proxy import PostgresProxy

SECRET = "sw0rdfish-not-to-be-printed"
SCHEMA = len(load_migrations())  # the released schema, which a new database reaches


def with_password(url: str) -> str:
    """``url`` with a password in it (trust authentication ignores it; nothing may print it)."""
    parts = urlsplit(url)
    netloc = f"{parts.username}:{SECRET}@{parts.hostname}:{parts.port}"
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def site(tmp_path: Path, url: str) -> Path:
    return write_env_file(
        tmp_path / "site",
        DISCORD_TOKEN=fake_token(),
        TRICKNIGHT_DATABASE=url,
        TRICKNIGHT_COMPUTER_DELAY="0.05",
    ).parent


async def run(fake: FakeDiscord, tmp_path: Path, *args: str) -> BotProcess:
    return source_bot(fake, tmp_path / "home", tmp_path / "site", *args)


async def test_the_bot_on_postgresql_from_start_to_a_clean_stop(
    fake: FakeDiscord, tmp_path: Path, postgres_url: str
) -> None:
    url = with_password(postgres_url)
    shown = re.sub(r"//[^@]*@", "//postgres@", url)  # as the bot prints it: no password
    site(tmp_path, url)
    check = await run(fake, tmp_path, "check")
    assert await check.wait_exit() == 0, check.output()
    assert (
        f"PostgreSQL {shown}" in check.output()
        and "empty: Trick Night's tables are created" in check.output()
    )

    mark = len(fake.requests)
    first = await run(fake, tmp_path)
    try:
        started = await first.wait_for_line(r"Trick Night .*: database postgresql ")
        assert f"database postgresql {shown} (schema {SCHEMA};" in started
        await first.wait_for_line(r"connected as .*: 1 guild\(s\)")
        await fake.wait_for_request("PUT", COMMANDS_SYNC, since=mark, timeout=15)

        second = await run(fake, tmp_path)
        assert await second.wait_exit() == 2
        assert re.search(
            rf"another Trick Night process \(pid {first.pid} on .+\) is using the database", second.output()
        )
        assert "Traceback" not in second.output()

        for command in ("backup", "restore"):
            refused = await run(fake, tmp_path, command, str(tmp_path / "copy.db"))
            assert await refused.wait_exit() == 2
            assert "pg_dump" in refused.output() and "pg_restore" in refused.output()

        answer = await slash(fake, "table", table_option("new", game="pitch"))
        assert answer["type"] in (4, 5), answer  # answered, or deferred while its thread is made
        for _ in range(100):
            with psycopg.connect(postgres_url) as conn:
                games = conn.execute("SELECT variant, status FROM games").fetchall()
            if games:
                break
            await asyncio.sleep(0.1)
        assert games == [("pitch", "lobby")]

        checked = await run(fake, tmp_path, "check")
        assert await checked.wait_exit() == 0, checked.output()
        assert f"a Trick Night database, schema {SCHEMA}" in checked.output()
        assert "running on this database" in checked.output()
        health = await run(fake, tmp_path, "health")
        assert await health.wait_exit() == 0, health.output()
    finally:
        code, _ = await first.stop()
        first.kill()
    assert code == 0, first.output()
    health = await run(fake, tmp_path, "health")
    assert await health.wait_exit() == 1 and "is stopped" in health.output()
    everything = "\n".join(p.output() for p in (check, first, second, checked, health))
    assert SECRET not in everything


async def test_a_server_out_of_reach_at_start_is_waited_for(
    fake: FakeDiscord, tmp_path: Path, postgres_proxy: PostgresProxy
) -> None:
    postgres_proxy.refuse()
    site(tmp_path, postgres_proxy.url)
    bot = await run(fake, tmp_path)
    try:
        await bot.wait_for_line(r"cannot be reached \(attempt 1: .*\); trying again in")
        await bot.wait_for_line(r"cannot be reached \(attempt 2: ")
        postgres_proxy.accept()
        await bot.wait_for_line(r"connected as .*: 1 guild\(s\)", timeout=30)
    finally:
        code, _ = await bot.stop()
        bot.kill()
    assert code == 0, bot.output()
