"""Fixtures for every test: the bot's level registry restored after each test (the bench's entry
points and some tests register bench-only levels, ``bench.frozen``, ``bench.oracle``, and the tests
run after them must see the bot's own levels whatever the order), PostgreSQL for the tests that
run on both store backends (``tests/services/postgres.py``) and NATS for the worker tests
(``tests/services/nats.py``)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from bot.ai import base
from tests.services import nats as nats_service
from tests.services import postgres
from tests.services.pg_proxy import PostgresProxy
from tests.services.postgres import PostgresTestServer


@pytest.fixture(autouse=True)
def bot_levels_restored() -> Iterator[None]:
    saved = {family: dict(found) for family, found in base._LEVELS.items()}
    yield
    base._LEVELS.clear()
    base._LEVELS.update(saved)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresTestServer]:
    """The run's own PostgreSQL database (see ``tests/services/postgres.py``), dropped at the end."""
    admin = postgres.admin_url()
    try:
        import psycopg  # noqa: F401  (the driver is the optional 'postgresql' install)
    except ImportError:
        postgres.unavailable("psycopg is not installed (pip install -e '.[test]')")
    try:
        server = PostgresTestServer(admin)
    except ConnectionError as err:
        postgres.unavailable(f"{postgres.redacted(admin)} cannot be reached ({err})")
    try:
        yield server
    finally:
        server.drop()


@pytest.fixture
def postgres_url(postgres_server: PostgresTestServer) -> str:
    """A PostgreSQL URL of a fresh, empty schema for this test."""
    return postgres_server.schema_url()


@pytest.fixture
async def postgres_proxy(postgres_url: str) -> AsyncIterator[PostgresProxy]:
    """A fault-making proxy in front of this test's PostgreSQL schema (``proxy.url``)."""
    proxy = await PostgresProxy.start(postgres_url)
    try:
        yield proxy
    finally:
        await proxy.stop()


@pytest.fixture(scope="session")
def nats_url() -> str:
    """The test NATS server's URL (see ``tests/services/nats.py``), checked once a run."""
    url = nats_service.server_url()
    why = nats_service.problem(url)
    if why is not None:
        nats_service.unavailable(why)
    return url


@pytest.fixture
def nats_prefix(nats_url: str) -> str:
    """A subject prefix of this test's own on the test NATS server."""
    return nats_service.unique_prefix()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if postgres.skipped:
        reasons = sorted(set(postgres.skipped))
        terminalreporter.write_line(
            f"PostgreSQL tests were skipped ({'; '.join(reasons)}): {postgres.HOW}.", yellow=True
        )
    if nats_service.skipped:
        reasons = sorted(set(nats_service.skipped))
        terminalreporter.write_line(
            f"NATS tests were skipped ({'; '.join(reasons)}): {nats_service.HOW}.", yellow=True
        )
