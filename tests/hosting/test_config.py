"""Settings a person can reason about: where they come from, the database path rule, the token's
shape, shard settings; ``tricknight --version`` and ``tricknight check``."""

from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot import __version__
from bot.checkup import INVITE_PERMISSIONS, invite_permissions
from bot.config import (
    DEFAULT_SOURCE,
    MAX_COMPUTER_DELAY,
    SETTING_NAMES,
    ConfigError,
    Settings,
    application_id,
    default_database,
    legacy_database_problem,
    load_settings,
    token_problem,
)
from bot.store import Store
from bot.store.settings import MAX_COMPUTER_DELAY as STORE_MAX_COMPUTER_DELAY
from tests.hosting.harness import APP_ID, ROOT, clean_environ, fake_token, write_env_file

# View Channels, Send Messages, Embed Links, Attach Files, Read Message History, Use Application
# Commands, Create Public Threads, Create Private Threads, Send Messages in Threads (Discord's bits).
PERMISSION_BITS = (10, 11, 14, 15, 16, 31, 34, 35, 36, 38)


def tricknight(*args: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    environ = {**env, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd, env=environ, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


# ----- where settings come from ------------------------------------------------------------------


def test_env_file_in_the_working_directory_is_read_and_the_environment_wins(tmp_path: Path) -> None:
    write_env_file(tmp_path, DISCORD_TOKEN="from-file", TRICKNIGHT_LOG_LEVEL="debug",
                   TRICKNIGHT_COMPUTER_DELAY="2")  # fmt: skip
    settings = load_settings(
        environ={"TRICKNIGHT_COMPUTER_DELAY": "0.5", "HOME": str(tmp_path)}, cwd=tmp_path
    )
    assert settings.token == "from-file"
    assert settings.log_level == "DEBUG"
    assert settings.computer_delay == 0.5  # the environment wins over the file
    assert settings.env_file == tmp_path / ".env"


def test_env_file_option_and_a_missing_one(tmp_path: Path) -> None:
    other = write_env_file(tmp_path / "etc", DISCORD_TOKEN="from-other")
    write_env_file(tmp_path / "work", DISCORD_TOKEN="from-cwd")
    settings = load_settings(other, environ={"HOME": str(tmp_path)}, cwd=tmp_path / "work")
    assert settings.token == "from-other" and settings.env_file == other
    with pytest.raises(ConfigError, match="--env-file nowhere.env: no such file"):
        load_settings(Path("nowhere.env"), environ={}, cwd=tmp_path)
    # No .env at all: only the environment.
    assert load_settings(environ={"HOME": str(tmp_path)}, cwd=tmp_path).env_file is None


def test_database_path_rule(tmp_path: Path) -> None:
    home = tmp_path / "home"
    # Not set: the per-user data folder, whatever the working directory.
    for cwd in (tmp_path, tmp_path / "elsewhere"):
        settings = load_settings(environ={"HOME": str(home)}, cwd=cwd)
        assert settings.database == home / ".local" / "share" / "tricknight" / "tricknight.db"
        assert settings.database_source == DEFAULT_SOURCE
    xdg = load_settings(environ={"HOME": str(home), "XDG_DATA_HOME": str(tmp_path / "xdg")}, cwd=tmp_path)
    assert xdg.database == tmp_path / "xdg" / "tricknight" / "tricknight.db"
    assert default_database({"HOME": str(home), "XDG_DATA_HOME": "relative/ignored"}) == (
        home / ".local" / "share" / "tricknight" / "tricknight.db"
    )
    # Relative in a .env file: relative to that file's folder, not to the working directory.
    env_file = write_env_file(tmp_path / "site", TRICKNIGHT_DATABASE="db/games.db")
    from_file = load_settings(env_file, environ={}, cwd=tmp_path / "elsewhere")
    assert from_file.database == tmp_path / "site" / "db" / "games.db"
    assert from_file.database_source == f"TRICKNIGHT_DATABASE in {env_file}"
    # Relative in the environment: relative to the working directory.
    from_env = load_settings(environ={"TRICKNIGHT_DATABASE": "x.db"}, cwd=tmp_path / "run")
    assert from_env.database == tmp_path / "run" / "x.db"
    assert from_env.database_source == "TRICKNIGHT_DATABASE in the environment"


def test_the_env_example_gives_the_defaults(tmp_path: Path) -> None:
    settings = load_settings(ROOT / ".env.example", environ={"HOME": str(tmp_path)}, cwd=tmp_path)
    assert settings.token is None
    assert settings.database == default_database({"HOME": str(tmp_path)})
    assert (settings.log_level, settings.computer_delay) == ("INFO", 1.0)
    assert (settings.shard_count, settings.shard_ids, settings.dev_guild_id) == (None, None, None)
    documented = re.findall(r"^([A-Z_]+)=", (ROOT / ".env.example").read_text(), re.MULTILINE)
    assert documented == list(SETTING_NAMES)


def test_an_old_database_in_the_working_directory_is_not_silently_replaced(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "tricknight.db").write_bytes(b"")
    settings = load_settings(environ={"HOME": str(tmp_path / "home")}, cwd=tmp_path)
    problem = legacy_database_problem(settings, tmp_path)
    assert problem is not None
    assert f"TRICKNIGHT_DATABASE={tmp_path / 'data' / 'tricknight.db'}" in problem
    chosen = load_settings(environ={"TRICKNIGHT_DATABASE": "data/tricknight.db"}, cwd=tmp_path)
    assert legacy_database_problem(chosen, tmp_path) is None


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"TRICKNIGHT_SHARD_IDS": "0"}, "TRICKNIGHT_SHARD_IDS needs TRICKNIGHT_SHARD_COUNT"),
        ({"TRICKNIGHT_SHARD_COUNT": "2", "TRICKNIGHT_SHARD_IDS": "0,2"}, "shard 2 does not exist"),
        ({"TRICKNIGHT_SHARD_COUNT": "4", "TRICKNIGHT_SHARD_IDS": "1,1"}, "lists a shard twice"),
        ({"TRICKNIGHT_SHARD_COUNT": "4", "TRICKNIGHT_SHARD_IDS": "one"}, "shard numbers separated by commas"),
        ({"TRICKNIGHT_SHARD_COUNT": "0"}, "at least 1"),
        ({"TRICKNIGHT_COMPUTER_DELAY": "600"}, "between 0 and 30 seconds"),
        ({"TRICKNIGHT_COMPUTER_DELAY": "nan"}, "between 0 and 30 seconds"),
        ({"TRICKNIGHT_LOG_LEVEL": "loud"}, "TRICKNIGHT_LOG_LEVEL"),
        ({"TRICKNIGHT_NATS_URL": "http://nats.example:4222"}, "TRICKNIGHT_NATS_URL must be a NATS server"),
        ({"TRICKNIGHT_NATS_URL": "nats://h:1,nats://h:port"}, "not 'nats://h:port'"),
        ({"TRICKNIGHT_NATS_PREFIX": "tricknight.>"}, "TRICKNIGHT_NATS_PREFIX must be NATS subject words"),
        ({"TRICKNIGHT_NATS_PREFIX": "a..b"}, "TRICKNIGHT_NATS_PREFIX must be NATS subject words"),
    ],
)
def test_bad_options_are_refused_by_name(env: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        Settings.from_env(env)


def test_shard_settings() -> None:
    settings = Settings.from_env({"TRICKNIGHT_SHARD_COUNT": "4", "TRICKNIGHT_SHARD_IDS": "2,0"})
    assert settings.shard_ids == (0, 2)
    assert settings.shards_text() == "shards 0,2 of 4 in this process"
    assert MAX_COMPUTER_DELAY == STORE_MAX_COMPUTER_DELAY  # the same ceiling as /settings


def test_nats_settings_and_their_credentials_never_shown() -> None:
    assert (Settings.from_env({}).nats_url, Settings.from_env({}).nats_prefix) == (None, "tricknight")
    assert "local process pool" in Settings.from_env({}).searches_text()
    url = "tls://bot:s3cret@nats-1.example:4222, nats://t0ken@nats-2.example"
    settings = Settings.from_env({"TRICKNIGHT_NATS_URL": url, "TRICKNIGHT_NATS_PREFIX": "club.tn"})
    assert settings.nats_url == "tls://bot:s3cret@nats-1.example:4222,nats://t0ken@nats-2.example"
    assert settings.nats_label == "tls://bot:***@nats-1.example:4222,nats://***@nats-2.example"
    text = settings.searches_text()
    assert "club.tn.decide" in text and settings.nats_label in text
    assert "s3cret" not in repr(settings) + text and "t0ken" not in repr(settings) + text
    with pytest.raises(ConfigError) as refused:
        Settings.from_env({"TRICKNIGHT_NATS_URL": "https://u:s3cret@nats.example"})
    assert "s3cret" not in str(refused.value) and "u:***@" in str(refused.value)


def test_token_shape() -> None:
    token = fake_token()
    assert token_problem(token) is None and application_id(token) == APP_ID
    assert "without the prefix" in (token_problem("Bot " + token) or "")
    assert "quotes" in (token_problem(f'"{token}"') or "")
    assert "public key" in (token_problem("ab" * 32) or "")
    assert "client secret" in (token_problem("A" * 32) or "")
    assert "not shaped like a bot token" in (token_problem("fake-token") or "")
    for problem in (token_problem("Bot " + token), token_problem(token[:-2] + " x")):
        assert problem is not None and token not in problem


# ----- tricknight --version and check --------------------------------------------------------------


def test_version(tmp_path: Path) -> None:
    result = tricknight("--version", cwd=tmp_path, env=clean_environ(tmp_path))
    assert result.returncode == 0
    assert result.stdout.startswith(f"tricknight {__version__} (Python ")


def test_check_ready_prints_the_invite_url_and_never_the_token(tmp_path: Path) -> None:
    token = fake_token()
    write_env_file(tmp_path, DISCORD_TOKEN=token)
    result = tricknight("check", cwd=tmp_path, env=clean_environ(tmp_path / "home"))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert token not in out + result.stderr
    assert f"token:      set, shaped like a bot token (application {APP_ID})" in out
    database = tmp_path / "home" / ".local" / "share" / "tricknight" / "tricknight.db"
    assert f"database:   {database} ({DEFAULT_SOURCE})" in out
    assert "does not exist yet" in out
    assert not database.exists() and not database.parent.exists()  # check changes nothing
    url = re.search(r"https://discord\.com/oauth2/authorize\?\S+", out)
    assert url is not None
    assert url[0] == (
        f"https://discord.com/oauth2/authorize?client_id={APP_ID}&scope=bot+applications.commands"
        f"&permissions={sum(1 << bit for bit in PERMISSION_BITS)}"
    )
    assert out.rstrip().endswith(f"ready: start the bot with `{sys.executable} -m bot`")  # as it ran

    # The same from another folder with --env-file, before or after the command.
    (tmp_path / "other").mkdir()
    for argv in (["--env-file", "../.env", "check"], ["check", "--env-file", str(tmp_path / ".env")]):
        again = tricknight(*argv, cwd=tmp_path / "other", env=clean_environ(tmp_path / "home"))
        assert again.returncode == 0, again.stderr
        assert f"settings:   the environment, then {tmp_path / '.env'}" in again.stdout


async def test_check_reports_a_migrated_database(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    async with await Store.open(db) as store:
        schema = store.schema_version
    os.chmod(db, 0o644)
    env = clean_environ(tmp_path, DISCORD_TOKEN=fake_token(), TRICKNIGHT_DATABASE=str(db))
    result = tricknight("check", cwd=tmp_path, env=env)
    assert result.returncode == 0, result.stderr
    assert f"schema {schema} of {schema}; 0 games (0 unfinished), 0 actions" in result.stdout
    assert "warning: other users of this machine can read" in result.stderr


def test_check_warns_about_a_setting_it_does_not_know(tmp_path: Path) -> None:
    write_env_file(tmp_path, DISCORD_TOKEN=fake_token(), TRICKNIGHT_DATABSE="typo.db")
    result = tricknight("check", cwd=tmp_path, env=clean_environ(tmp_path / "home"))
    assert result.returncode == 0
    assert "warning: TRICKNIGHT_DATABSE is not a Trick Night setting (a typo?)" in result.stderr


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ("no token", "problem: DISCORD_TOKEN is not set"),
        ("bad token", "problem: DISCORD_TOKEN is not shaped like a bot token"),
        ("foreign database", "is an SQLite database of something else, not Trick Night"),
        ("newer database", "was written by a newer Trick Night (schema 99"),
        ("not sqlite", "is not an SQLite file"),
        ("folder", "is a folder, not a database file"),
    ],
)
def test_check_fails_with_a_specific_message(tmp_path: Path, setup: str, message: str) -> None:
    db = tmp_path / "games.db"
    env = clean_environ(tmp_path, DISCORD_TOKEN=fake_token(), TRICKNIGHT_DATABASE=str(db))
    if setup == "no token":
        del env["DISCORD_TOKEN"]
    elif setup == "bad token":
        env["DISCORD_TOKEN"] = "not-a-token"
    elif setup == "foreign database":
        with sqlite3.connect(db) as conn:
            conn.execute("CREATE TABLE invoices (id INTEGER)")
    elif setup == "newer database":
        with sqlite3.connect(db) as conn:
            conn.executescript(
                "CREATE TABLE tricknight_meta (key TEXT PRIMARY KEY, value TEXT);"
                "INSERT INTO tricknight_meta VALUES ('application', 'tricknight');"
                "PRAGMA user_version = 99;"
            )
    elif setup == "not sqlite":
        db.write_text("hello")
    elif setup == "folder":
        db.mkdir()
    result = tricknight("check", cwd=tmp_path, env=env)
    assert result.returncode == 1
    assert message in result.stderr, result.stderr
    assert "not ready: 1 problem above" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_bad_setting_is_a_problem_for_check_and_stops_run_with_its_name(tmp_path: Path) -> None:
    env = clean_environ(tmp_path, DISCORD_TOKEN=fake_token(), TRICKNIGHT_SHARD_COUNT="2",
                        TRICKNIGHT_SHARD_IDS="5")  # fmt: skip
    message = (
        "TRICKNIGHT_SHARD_IDS: shard 5 does not exist with TRICKNIGHT_SHARD_COUNT=2 "
        "(shards are numbered 0 to 1)"
    )
    checked = tricknight("check", cwd=tmp_path, env=env)
    assert checked.returncode == 1
    assert f"problem: {message}" in checked.stderr
    assert "  shards:     not usable (see the problem below)" in checked.stdout
    ran = tricknight(cwd=tmp_path, env=env)
    assert ran.returncode == 2
    assert ran.stderr == f"tricknight: {message}\n"


def test_check_reports_every_bad_setting_with_the_rest_of_the_report(tmp_path: Path) -> None:
    """Issue 46 (5): with two bad settings check printed one line about the first, no report, and
    exited 2; the README promises a `problem:` line for each problem and exit 1."""
    token = fake_token()
    env = clean_environ(tmp_path, DISCORD_TOKEN=token, TRICKNIGHT_COMPUTER_DELAY="abc",
                        TRICKNIGHT_LOG_LEVEL="LOUD")  # fmt: skip
    result = tricknight("check", cwd=tmp_path, env=env)
    assert result.returncode == 1, result.stderr
    problems = [line for line in result.stderr.splitlines() if line.startswith("problem: ")]
    assert problems == [
        "problem: TRICKNIGHT_LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL, not 'LOUD'",
        "problem: TRICKNIGHT_COMPUTER_DELAY must be seconds, e.g. 1.0, not 'abc'",
    ]
    assert "not ready: 2 problems above" in result.stderr
    # The rest of the check still ran: the token, the database, the invite URL.
    assert f"token:      set, shaped like a bot token (application {APP_ID})" in result.stdout
    assert "  computers:  not usable (see the problem below)" in result.stdout
    assert "  log level:  not usable (see the problem below)" in result.stdout
    assert "https://discord.com/oauth2/authorize?" in result.stdout
    assert token not in result.stdout + result.stderr
    # Running the bot names both too, one a line.
    ran = tricknight(cwd=tmp_path, env=env)
    assert ran.returncode == 2
    assert ran.stderr.count("tricknight: TRICKNIGHT_") == 2


def test_settings_read_keeps_the_defaults_of_bad_settings_and_names_each() -> None:
    settings, problems = Settings.read({"TRICKNIGHT_COMPUTER_DELAY": "-1", "TRICKNIGHT_DEV_GUILD_ID": "x"})
    assert list(problems) == ["TRICKNIGHT_DEV_GUILD_ID", "TRICKNIGHT_COMPUTER_DELAY"]
    assert settings.computer_delay == 1.0 and settings.dev_guild_id is None
    with pytest.raises(ConfigError) as raised:
        Settings.from_env({"TRICKNIGHT_COMPUTER_DELAY": "-1", "TRICKNIGHT_DEV_GUILD_ID": "x"})
    assert raised.value.problems == tuple(problems.values())


def test_run_refuses_a_token_that_is_not_shaped_like_one(tmp_path: Path) -> None:
    env = clean_environ(tmp_path, DISCORD_TOKEN="Bot " + fake_token())
    result = tricknight(cwd=tmp_path, env=env)
    assert result.returncode == 2
    assert "starts with 'Bot '" in result.stderr and fake_token() not in result.stderr


# ----- the README says the same -------------------------------------------------------------------


def test_readme_lists_the_invite_permissions_and_keeps_the_quick_start() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in INVITE_PERMISSIONS:
        assert f"*{name}*" in readme, name
    assert invite_permissions() == sum(1 << bit for bit in PERMISSION_BITS)
    assert "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/python -m bot" in readme
    assert (
        "python3 -m venv .venv && .venv/bin/pip install -e '.[test]' && .venv/bin/python -m pytest" in readme
    )
    assert "## Hosting" in readme


def test_readme_commands_work_as_written_after_the_quick_start() -> None:
    """Issue 46 (9): the README mixed `python -m bot` (only in an active virtual environment) with
    the Quick start's `.venv/bin/python -m bot`; (4): it named the levels basic and random."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    bare = [
        line
        for line in readme.splitlines()
        if re.search(r"(?<![/\w])python -m ", line) and "source .venv/bin/activate" not in line
    ]
    assert bare == []
    assert "--seats basic" not in readme and "`basic` (rule-based)" not in readme
    assert "--seats easy,random" in readme and "`easy` (rule-based, the default)" in readme
