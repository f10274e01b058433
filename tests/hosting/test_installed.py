"""The wheel runs: an installed ``tricknight`` (built with ``pip wheel``, installed into a fresh
virtual environment, no source checkout on its path) started from an empty folder holding only a
``.env`` shows its version, passes ``check``, connects to the wire fake and syncs its commands.

``.ci/run`` builds and installs the wheel and sets ``TRICKNIGHT_TEST_INSTALLED`` to the installed
``tricknight``; without it this test is skipped. By hand::

    python3 -m venv /tmp/tn && /tmp/tn/bin/pip wheel --no-deps -w /tmp/tn/dist . \\
        && /tmp/tn/bin/pip install /tmp/tn/dist/*.whl
    TRICKNIGHT_TEST_INSTALLED=/tmp/tn/bin/tricknight python -m pytest tests/hosting/test_installed.py
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
from pathlib import Path

import pytest

from bot import __version__
from tests.discord_ui.fake_discord import FakeDiscord
from tests.hosting.harness import (
    APP_ID,
    COMMANDS_SYNC,
    ROOT,
    WIRE_SITE,
    BotProcess,
    clean_environ,
    fake_token,
    write_env_file,
)

INSTALLED = os.environ.get("TRICKNIGHT_TEST_INSTALLED", "")
pytestmark = pytest.mark.skipif(
    not INSTALLED,
    reason="TRICKNIGHT_TEST_INSTALLED is not set: .ci/run builds the wheel, installs it into a fresh "
    "virtual environment and sets it to that environment's tricknight",
)


def run(*args: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [INSTALLED, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120, check=False
    )


async def test_the_installed_wheel_runs_from_an_empty_folder(fake: FakeDiscord, tmp_path: Path) -> None:
    site = tmp_path / "site"
    write_env_file(site, DISCORD_TOKEN=fake_token())
    home = tmp_path / "home"
    env = clean_environ(home)  # no PYTHONPATH: only what the wheel installed

    version = run("--version", cwd=site, env=env)
    assert version.returncode == 0, version.stderr
    assert version.stdout.startswith(f"tricknight {__version__} ")

    # The installed package, not this checkout, and its migrations from inside the package.
    python = Path(INSTALLED).with_name("python")
    script = "import bot, bot.resources; print(bot.__file__); print(bot.resources.migrations_folder())"
    where = await asyncio.to_thread(
        subprocess.run, [str(python), "-c", script],
        cwd=site, env=env, capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    package, migrations = where.stdout.split()
    assert "site-packages" in package and not Path(package).is_relative_to(ROOT)
    assert migrations.endswith(os.path.join("site-packages", "bot", "_data", "migrations"))

    check = run("check", cwd=site, env=env)
    assert check.returncode == 0, check.stdout + check.stderr
    assert f"client_id={APP_ID}&scope=bot+applications.commands" in check.stdout
    assert fake_token() not in check.stdout + check.stderr

    database = home / ".local" / "share" / "tricknight" / "tricknight.db"
    bot = BotProcess(
        [INSTALLED],
        cwd=site,
        env={**env, "PYTHONPATH": str(WIRE_SITE), "TRICKNIGHT_TEST_DISCORD": f"http://127.0.0.1:{fake.port}"},
    )
    try:
        line = await bot.wait_for_line(r"database .* \(schema \d+", timeout=60)
        assert str(database) in line
        await fake.wait_for_request("PUT", COMMANDS_SYNC, timeout=60)
        await bot.wait_for_line(r"connected as .*: 1 guild\(s\)")
        synced = {command["name"] for command in fake.commands[None]}
        assert {"table", "hand", "rules", "leaderboard", "stats", "league", "admin", "help"} <= synced
        code, seconds = await bot.stop(signal.SIGTERM)
        assert code == 0 and seconds < 5, bot.output()
    finally:
        bot.kill()
    assert sorted(p.name for p in site.iterdir()) == [".env"]  # nothing written to the working folder
    assert database.is_file()
