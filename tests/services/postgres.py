"""PostgreSQL for tests, reached through a setting, never hard-wired.

``TRICKNIGHT_TEST_POSTGRES`` names a server and a database the tests may use to create their own
(e.g. ``postgresql://postgres@127.0.0.1:5432/postgres``). A test run makes one database of its own
(``tn_test_<pid>_<random>``), gives each test a schema of its own in it, and drops the database at
the end. Without the setting the PostgreSQL tests are skipped, and the run's summary says so and
how to run them; with ``TRICKNIGHT_TEST_SERVICES=required`` (CI) a missing or unreachable server
fails them instead.
"""

from __future__ import annotations

import os
import secrets
from typing import NoReturn
from urllib.parse import urlencode, urlsplit, urlunsplit

import pytest

SETTING = "TRICKNIGHT_TEST_POSTGRES"
REQUIRED = "TRICKNIGHT_TEST_SERVICES"
HOW = (
    f"set {SETTING}=postgresql://postgres@127.0.0.1:5432/postgres (a server where the tests may create "
    "a database) to run them"
)

skipped: list[str] = []  # why PostgreSQL tests were skipped, for the run's summary


def required() -> bool:
    return os.environ.get(REQUIRED, "").strip().lower() == "required"


def unavailable(reason: str) -> NoReturn:
    """Skip the test (or fail it where the services are required)."""
    if required():
        pytest.fail(f"PostgreSQL is required here ({REQUIRED}=required) but {reason}")
    skipped.append(reason)
    pytest.skip(f"PostgreSQL tests skipped: {reason}; {HOW}")


def admin_url() -> str:
    url = os.environ.get(SETTING, "").strip()
    if not url:
        unavailable(f"{SETTING} is not set")
    return url


def redacted(url: str) -> str:
    """The URL without a password, for messages."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    return url.replace(f":{parts.password}@", ":***@")


def with_database(url: str, database: str, **params: str) -> str:
    """``url`` pointing at ``database`` instead, with extra connection parameters."""
    parts = urlsplit(url)
    query = "&".join(q for q in (parts.query, urlencode(params)) if q)
    return urlunsplit((parts.scheme, parts.netloc, f"/{database}", query, parts.fragment))


class PostgresTestServer:
    """The run's own database on the test server; ``schema_url()`` gives each test a fresh schema."""

    def __init__(self, admin: str) -> None:
        import psycopg

        self.admin = admin
        self.name = f"tn_test_{os.getpid()}_{secrets.token_hex(3)}"
        try:
            with psycopg.connect(admin, autocommit=True, connect_timeout=5) as conn:
                conn.execute(f'CREATE DATABASE "{self.name}"')
        except psycopg.OperationalError as err:
            raise ConnectionError(str(err).strip().splitlines()[0]) from None
        self.url = with_database(admin, self.name)

    def schema_url(self) -> str:
        """A URL whose connections see only a new, empty schema."""
        import psycopg

        schema = f"t_{secrets.token_hex(6)}"
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {schema}")
        return with_database(self.url, self.name, options=f"-csearch_path={schema}")

    def drop(self) -> None:
        import psycopg

        with psycopg.connect(self.admin, autocommit=True, connect_timeout=5) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
