"""Driving the real ``tricknight`` process against the loopback fake of Discord.

``FakeDiscord`` runs in the test's event loop; the bot runs as a separate process whose discord.py
is pointed at the fake by ``wire_site/sitecustomize.py``. The process is the source checkout
(``python -m bot`` with the repository on ``PYTHONPATH``) or, for the wheel test, an installed
``tricknight``. Its log (stderr) is collected line by line so tests can wait for a line.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot.engine import Game
from tests.discord_ui.fake_discord import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]
WIRE_SITE = Path(__file__).with_name("wire_site")
APP_ID = 1_100_000_000_000_000_001  # FakeDiscord's bot and application id
CALLBACK = r"^/interactions/\d+/(?P<token>[^/]+)/callback$"
COMMANDS_SYNC = rf"^/applications/{APP_ID}/commands$"


def fake_token(app_id: int = APP_ID) -> str:
    """A string shaped like a bot token of ``app_id`` (the fake accepts any token)."""
    first = base64.urlsafe_b64encode(str(app_id).encode()).decode().rstrip("=")
    return f"{first}.GhXyZa.{'k' * 38}"


def clean_environ(home: Path, **extra: str) -> dict[str, str]:
    """The test's environment without any Trick Night or Discord setting, with ``HOME`` (and so
    the default data folder) inside the test's temporary folder."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "TRICKNIGHT_", "XDG_"))}
    env["HOME"] = str(home)
    env.pop("PYTHONPATH", None)
    env.update(extra)
    return env


def write_env_file(folder: Path, **settings: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / ".env"
    path.write_text("".join(f"{key}={value}\n" for key, value in settings.items()), encoding="utf-8")
    return path


class BotProcess:
    """One bot (or other ``tricknight`` command) process with its output collected."""

    def __init__(self, argv: Sequence[str], *, cwd: Path, env: dict[str, str]) -> None:
        self.argv = list(argv)
        self.proc = subprocess.Popen(
            self.argv, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        self.lines: list[str] = []
        self._lock = threading.Lock()
        self._readers = [
            threading.Thread(target=self._read, args=(stream,), daemon=True)
            for stream in (self.proc.stdout, self.proc.stderr)
        ]
        for reader in self._readers:
            reader.start()

    def _read(self, stream: Any) -> None:
        for line in stream:
            with self._lock:
                self.lines.append(line.rstrip("\n"))

    @property
    def pid(self) -> int:
        return self.proc.pid

    def output(self) -> str:
        with self._lock:
            return "\n".join(self.lines)

    async def wait_for_line(self, pattern: str, timeout: float = 30.0) -> str:
        """The first output line matching ``pattern``; fails if the process ends or time runs out."""
        rx = re.compile(pattern)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                found = next((line for line in self.lines if rx.search(line)), None)
            if found is not None:
                return found
            if self.proc.poll() is not None:
                await asyncio.sleep(0.2)  # let the readers collect the last lines
                raise AssertionError(f"exited {self.proc.returncode} before {pattern!r}:\n{self.output()}")
            await asyncio.sleep(0.05)
        raise AssertionError(f"no line {pattern!r} within {timeout}s:\n{self.output()}")

    async def wait_exit(self, timeout: float = 30.0) -> int:
        deadline = time.monotonic() + timeout
        while self.proc.poll() is None:
            if time.monotonic() > deadline:
                self.proc.kill()
                raise AssertionError(f"still running after {timeout}s:\n{self.output()}")
            await asyncio.sleep(0.05)
        for reader in self._readers:
            reader.join(timeout=5)
        return self.proc.returncode

    async def stop(self, sig: signal.Signals = signal.SIGTERM, timeout: float = 30.0) -> tuple[int, float]:
        """Send ``sig`` (unless the process already ended); the exit status and the seconds it took."""
        started = time.monotonic()
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        code = await self.wait_exit(timeout)
        return code, time.monotonic() - started

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)


def source_bot(fake: FakeDiscord, home: Path, cwd: Path, *args: str, **env: str) -> BotProcess:
    """``python -m bot ARGS`` from the source checkout, talking to ``fake``."""
    environ = clean_environ(
        home,
        PYTHONPATH=os.pathsep.join([str(ROOT), str(WIRE_SITE)]),
        TRICKNIGHT_TEST_DISCORD=f"http://127.0.0.1:{fake.port}",
        **env,
    )
    return BotProcess([sys.executable, "-m", "bot", *args], cwd=cwd, env=environ)


async def start_fake() -> FakeDiscord:
    # The bot is another process: nothing in this one needs patching.
    return await FakeDiscord(patch_discord=False).start()


# ----- playing through the fake ------------------------------------------------------------------


def table_option(name: str, **values: Any) -> list[dict[str, Any]]:
    """The options payload of ``/table NAME key:value …``."""
    options = [{"type": 3, "name": key, "value": value} for key, value in values.items()]
    return [{"type": 1, "name": name, "options": options}]


async def slash(fake: FakeDiscord, name: str, options: list[dict[str, Any]]) -> dict[str, Any]:
    """Dispatch a slash command and return the body of its answer."""
    mark = len(fake.requests)
    await fake.dispatch("INTERACTION_CREATE", fake.slash_interaction(name, options))
    return (await fake.wait_for_request("POST", CALLBACK, since=mark, timeout=15)).json  # type: ignore[no-any-return]


def read_game(db: Path, game_id: int) -> tuple[str, list[tuple[int, str]], Game | None]:
    """A game's status, action log and engine state, read from the database file (read-only)."""
    conn = sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True, timeout=10)
    try:
        row = conn.execute(
            "SELECT variant, players, options, seed, status FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        actions = [
            (int(seat), str(action))
            for seat, action in conn.execute(
                "SELECT seat, action FROM actions WHERE game_id = ? ORDER BY idx", (game_id,)
            )
        ]
    finally:
        conn.close()
    variant, players, options, seed, status = row
    if status not in ("playing", "ended"):
        return status, actions, None
    record = {"variant": variant, "players": players, "options": json.loads(options), "seed": seed,
              "log": [[seat, action] for seat, action in actions]}  # fmt: skip
    return status, actions, Game.from_json(record)


def ephemeral_hand(fake: FakeDiscord, custom_id: str) -> dict[str, Any]:
    """The message a click comes from: an ephemeral hand holding that button (discord.py finds the
    clicked component in the message), so the answer edits it (type 7)."""
    button = {"type": 2, "style": 1, "label": custom_id.rsplit(":", 1)[-1], "custom_id": custom_id}
    return fake.message(content="Your hand", flags=64, components=[{"type": 1, "components": [button]}])


async def click(fake: FakeDiscord, custom_id: str) -> tuple[str, dict[str, Any]]:
    """Dispatch a button click by the fake's user; its interaction token and the interaction."""
    interaction = fake.component_interaction(custom_id, ephemeral_hand(fake, custom_id))
    await fake.dispatch("INTERACTION_CREATE", interaction)
    return interaction["token"], interaction


def answer_to(fake: FakeDiscord, token: str) -> dict[str, Any] | None:
    """The bot's answer to the interaction with ``token``, if it has answered."""
    for request in fake.requests:
        match = re.match(CALLBACK, request.path)
        if request.method == "POST" and match and match["token"] == token:
            return request.json  # type: ignore[no-any-return]
    return None


async def wait_answer(fake: FakeDiscord, token: str, timeout: float = 15.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        answer = answer_to(fake, token)
        if answer is not None:
            return answer
        await asyncio.sleep(0.02)
    raise AssertionError(f"no answer to interaction {token}")


def accepted(answer: dict[str, Any] | None) -> bool:
    """Whether an answer to a click says the action was taken ("You: …")."""
    if answer is None:
        return False
    content = (answer.get("data") or {}).get("content") or ""
    return content.startswith("You: ")


async def wait_for_turn(db: Path, game_id: int, seat: int, timeout: float = 30.0) -> Game:
    """Wait until the stored game waits for ``seat`` (the computers play the other seats)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status, _, game = read_game(db, game_id)
        assert status != "ended", "the game ended: make it longer"
        if game is not None and seat in game.to_act:
            return game
        await asyncio.sleep(0.05)
    raise AssertionError(f"seat {seat} never got the turn")


def act_id(game_id: int, game: Game, seat: int) -> tuple[str, str]:
    """The custom id of a button for one of ``seat``'s legal actions now, and the action."""
    action = str(game.legal_actions(seat)[0])  # as stored, e.g. "play 10D"
    return f"tn:act:{game_id}:{len(game.log)}:{action.lower()}", action
