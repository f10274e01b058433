"""NATS for tests, reached through a setting, never hard-wired.

``TRICKNIGHT_TEST_NATS`` names a NATS server the tests may use (e.g. ``nats://127.0.0.1:4222``).
Each test takes subjects of its own (``tn.test.<pid>.<random>``, the ``nats_prefix`` fixture), so
test runs sharing a server never see each other's requests; core NATS keeps nothing for a subject,
so the cleaning up is each test's: it stops its workers and closes its connections. Without the
setting the NATS tests are skipped, and the run's summary says so and how to run them; with
``TRICKNIGHT_TEST_SERVICES=required`` (CI) a missing or unreachable server fails them instead.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import secrets
from typing import NoReturn

import pytest

from bot.config import redacted_nats
from tests.services.postgres import REQUIRED, required

SETTING = "TRICKNIGHT_TEST_NATS"
HOW = f"set {SETTING}=nats://127.0.0.1:4222 (a NATS server the tests may use) to run them"

skipped: list[str] = []  # why NATS tests were skipped, for the run's summary


def unavailable(reason: str) -> NoReturn:
    """Skip the test (or fail it where the services are required)."""
    if required():
        pytest.fail(f"NATS is required here ({REQUIRED}=required) but {reason}")
    skipped.append(reason)
    pytest.skip(f"NATS tests skipped: {reason}; {HOW}")


def server_url() -> str:
    url = os.environ.get(SETTING, "").strip()
    if not url:
        unavailable(f"{SETTING} is not set")
    return url


def unique_prefix() -> str:
    """Subjects no other test (nor another run on the same server) uses."""
    return f"tn.test.{os.getpid()}.{secrets.token_hex(4)}"


def problem(url: str) -> str | None:
    """Why ``url`` cannot be used (no client, no server), or None. Runs outside any event loop."""
    try:
        import nats
    except ImportError:
        return "nats-py is not installed (pip install -e '.[test]')"

    async def probe() -> None:
        async def quiet(err: Exception) -> None:
            pass

        connection = await asyncio.wait_for(
            nats.connect(url, allow_reconnect=False, max_reconnect_attempts=1, reconnect_time_wait=0,
                         connect_timeout=2, error_cb=quiet),
            5,
        )  # fmt: skip
        await connection.close()

    with concurrent.futures.ThreadPoolExecutor(1) as thread:  # a fixture may run inside a loop
        try:
            thread.submit(asyncio.run, probe()).result()
        except Exception as err:
            return f"{redacted_nats(url)} cannot be reached ({type(err).__name__}: {err})"
    return None
