"""Settings from the environment and a ``.env`` file. The token is never printed or logged.

Where settings come from, strongest first:

1. the process environment (``DISCORD_TOKEN=… tricknight``, Docker's ``environment:``, systemd's
   ``Environment=``/``EnvironmentFile=``);
2. the ``.env`` file given with ``--env-file PATH``, else ``.env`` in the working directory;
3. the defaults below.

The database is ``TRICKNIGHT_DATABASE`` when set: a ``postgresql://`` URL selects PostgreSQL
(``database_url``), anything else is an SQLite file's path. A relative path there is relative to
the folder of the ``.env`` file that sets it, or to the working directory when it comes from the
environment. When it is not set, the database lives in the per-user data folder
(``default_data_folder``), so a bot started from another directory still finds the same database.
"""

from __future__ import annotations

import base64
import binascii
import os
import re
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TypeVar
from urllib.parse import urlsplit, urlunsplit

from bot.store.database import redacted

APP_NAME = "tricknight"
DATABASE_NAME = "tricknight.db"
LEGACY_DATABASE = Path("data") / DATABASE_NAME  # the old default, under the working directory
MAX_COMPUTER_DELAY = 30.0  # the same ceiling as /admin settings (bot.store.MAX_COMPUTER_DELAY)
DEFAULT_SOURCE = "the default: the per-user data folder"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
SETTING_NAMES = (
    "DISCORD_TOKEN",
    "TRICKNIGHT_DATABASE",
    "TRICKNIGHT_LOG_LEVEL",
    "TRICKNIGHT_DEV_GUILD_ID",
    "TRICKNIGHT_SHARD_COUNT",
    "TRICKNIGHT_SHARD_IDS",
    "TRICKNIGHT_COMPUTER_DELAY",
    "TRICKNIGHT_NATS_URL",
    "TRICKNIGHT_NATS_PREFIX",
)
DEFAULT_NATS_PREFIX = "tricknight"
NATS_SCHEMES = ("nats", "tls", "ws", "wss")
_SUBJECT_TOKENS = re.compile(r"^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$")

# A bot token is three base64url parts joined by dots: the application id, a timestamp, an HMAC.
_TOKEN = re.compile(r"^([A-Za-z0-9_-]{16,})\.([A-Za-z0-9_-]{5,})\.([A-Za-z0-9_-]{20,})$")


_T = TypeVar("_T")


def is_postgresql_url(text: str) -> bool:
    """Whether a ``TRICKNIGHT_DATABASE`` value names a PostgreSQL server."""
    return text.startswith(("postgresql://", "postgres://"))


class ConfigError(ValueError):
    """One or more settings are missing or malformed: ``problems`` says which and where to set
    each (the message is all of them, one a line)."""

    def __init__(self, *problems: str) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


def default_data_folder(env: Mapping[str, str] | None = None) -> Path:
    """The per-user data folder: ``$XDG_DATA_HOME/tricknight`` (``~/.local/share/tricknight``) on
    Linux and other Unix systems, ``~/Library/Application Support/tricknight`` on macOS,
    ``%LOCALAPPDATA%\\tricknight`` on Windows."""
    env = os.environ if env is None else env
    home = Path(env.get("HOME") or Path.home())
    if sys.platform == "win32":
        base = Path(env.get("LOCALAPPDATA") or home / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = home / "Library" / "Application Support"
    else:
        xdg = env.get("XDG_DATA_HOME", "").strip()
        # The XDG spec says to ignore a relative XDG_DATA_HOME.
        base = Path(xdg) if xdg and Path(xdg).is_absolute() else home / ".local" / "share"
    return base / APP_NAME


def default_database(env: Mapping[str, str] | None = None) -> Path:
    """Where the database lives when ``TRICKNIGHT_DATABASE`` is not set."""
    return default_data_folder(env) / DATABASE_NAME


def _int_or_none(env: Mapping[str, str], name: str) -> int | None:
    raw = env.get(name, "").strip()
    if not raw:
        return None
    if not raw.isdigit():
        raise ConfigError(f"{name} must be a whole number, not {raw!r} (see .env.example)")
    return int(raw)


def _computer_delay(env: Mapping[str, str]) -> float:
    text = env.get("TRICKNIGHT_COMPUTER_DELAY", "").strip() or "1.0"
    try:
        delay = float(text)
    except ValueError:
        raise ConfigError(f"TRICKNIGHT_COMPUTER_DELAY must be seconds, e.g. 1.0, not {text!r}") from None
    if not 0 <= delay <= MAX_COMPUTER_DELAY:  # also refuses nan
        raise ConfigError(
            f"TRICKNIGHT_COMPUTER_DELAY must be between 0 and {MAX_COMPUTER_DELAY:g} seconds, not {text}"
        )
    return delay


def nats_servers(url: str) -> list[str]:
    """The servers of a ``TRICKNIGHT_NATS_URL`` (one URL, or several separated by commas)."""
    return [part.strip() for part in url.split(",") if part.strip()]


def redacted_nats(url: str) -> str:
    """``TRICKNIGHT_NATS_URL`` fit to print: a password (``user:***@``) or a token (the user part
    alone, ``***@``) replaced, for every server of the list."""
    shown = []
    for server in nats_servers(url):
        parts = urlsplit(server)
        if "@" in parts.netloc:
            credentials, host = parts.netloc.rsplit("@", 1)
            user = credentials.split(":", 1)[0] if ":" in credentials else ""
            hidden = f"{user}:***" if user else "***"
            server = urlunsplit((parts.scheme, f"{hidden}@{host}", parts.path, parts.query, parts.fragment))
        shown.append(server)
    return ",".join(shown)


def _nats_url(env: Mapping[str, str]) -> str | None:
    raw = env.get("TRICKNIGHT_NATS_URL", "").strip()
    if not raw:
        return None
    for server in nats_servers(raw):
        parts = urlsplit(server)
        try:
            _ = parts.port  # a port that is not a number raises
            usable = parts.scheme in NATS_SCHEMES and bool(parts.hostname)
        except ValueError:
            usable = False
        if not usable:
            raise ConfigError(
                f"TRICKNIGHT_NATS_URL must be a NATS server's URL such as nats://127.0.0.1:4222 (or several "
                f"separated by commas), not {redacted_nats(server)!r}"
            )
    return ",".join(nats_servers(raw))


def _nats_prefix(env: Mapping[str, str]) -> str:
    prefix = env.get("TRICKNIGHT_NATS_PREFIX", "").strip() or DEFAULT_NATS_PREFIX
    if not _SUBJECT_TOKENS.match(prefix):
        raise ConfigError(
            "TRICKNIGHT_NATS_PREFIX must be NATS subject words (letters, digits, - and _) joined by dots, "
            f"e.g. tricknight or club.tricknight; not {prefix!r}"
        )
    return prefix


def _log_level(env: Mapping[str, str]) -> str:
    level = env.get("TRICKNIGHT_LOG_LEVEL", "").strip().upper() or "INFO"
    if level not in LOG_LEVELS:
        raise ConfigError(
            f"TRICKNIGHT_LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL, not {level!r}"
        )
    return level


def _shard_count(env: Mapping[str, str]) -> int | None:
    count = _int_or_none(env, "TRICKNIGHT_SHARD_COUNT")
    if count == 0:
        raise ConfigError("TRICKNIGHT_SHARD_COUNT must be at least 1 (or empty for Discord's recommendation)")
    return count


STANDBY = "standby"


def _standby(env: Mapping[str, str], count: int | None, postgresql: bool) -> bool:
    """``TRICKNIGHT_SHARD_IDS=standby``: a process that runs no shard until another dies."""
    if env.get("TRICKNIGHT_SHARD_IDS", "").strip().lower() != STANDBY:
        return False
    if count is None:
        raise ConfigError("a standby (TRICKNIGHT_SHARD_IDS=standby) needs TRICKNIGHT_SHARD_COUNT")
    if not postgresql:
        raise ConfigError(
            "a standby (TRICKNIGHT_SHARD_IDS=standby) needs a database the processes share: set "
            "TRICKNIGHT_DATABASE to a postgresql:// URL (with SQLite each process has a database of its own)"
        )
    return True


def _shard_ids(env: Mapping[str, str], count: int | None) -> tuple[int, ...] | None:
    raw = env.get("TRICKNIGHT_SHARD_IDS", "").strip()
    if not raw or raw.lower() == STANDBY:
        return None
    parts = [part.strip() for part in raw.split(",")]
    if not all(part.isdigit() for part in parts):
        raise ConfigError(
            f"TRICKNIGHT_SHARD_IDS must be shard numbers separated by commas, e.g. 0,1; not {raw!r}"
        )
    ids = tuple(int(part) for part in parts)
    if count is None:
        raise ConfigError("TRICKNIGHT_SHARD_IDS needs TRICKNIGHT_SHARD_COUNT (the total over every process)")
    too_big = [shard for shard in ids if shard >= count]
    if too_big:
        raise ConfigError(
            f"TRICKNIGHT_SHARD_IDS: shard {too_big[0]} does not exist with TRICKNIGHT_SHARD_COUNT={count} "
            f"(shards are numbered 0 to {count - 1})"
        )
    if len(set(ids)) != len(ids):
        raise ConfigError(f"TRICKNIGHT_SHARD_IDS lists a shard twice: {raw!r}")
    return tuple(sorted(ids))


def token_problem(token: str) -> str | None:
    """Why ``token`` cannot be a Discord bot token, or None if it is shaped like one. Never quotes it."""
    if token.lower().startswith(("bot ", "bearer ")):
        return "DISCORD_TOKEN starts with 'Bot ': set only the token itself, without the prefix"
    if token[:1] in "'\"" or token[-1:] in "'\"":
        return "DISCORD_TOKEN is wrapped in quotes that are part of the value: remove them"
    if any(char.isspace() for char in token):
        return "DISCORD_TOKEN contains spaces or line breaks: copy the token again"
    if re.fullmatch(r"[0-9a-f]{64}", token):
        return "DISCORD_TOKEN looks like the application's public key; use the token from the Bot tab"
    if re.fullmatch(r"[A-Za-z0-9_-]{32}", token):
        return "DISCORD_TOKEN looks like the OAuth2 client secret; use the token from the Bot tab"
    if _TOKEN.match(token) is None or application_id(token) is None:
        return (
            f"DISCORD_TOKEN is not shaped like a bot token ({len(token)} characters; a token is "
            "three parts joined by dots, the first encoding the application id): copy it again from "
            "the Bot tab (Reset Token)"
        )
    return None


def application_id(token: str) -> int | None:
    """The application (client) id encoded in the first part of a bot token, or None."""
    match = _TOKEN.match(token)
    if match is None:
        return None
    first = match[1]
    try:
        decoded = base64.urlsafe_b64decode(first + "=" * (-len(first) % 4)).decode("ascii")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    return int(decoded) if decoded.isdigit() and 15 <= len(decoded) <= 21 else None


@dataclass(frozen=True)
class Settings:
    """Everything the bot reads from its environment."""

    token: str | None = field(repr=False)
    database: Path = field(default_factory=default_database)
    """The SQLite file (when ``database_url`` is None)."""
    database_url: str | None = field(default=None, repr=False)
    """A PostgreSQL server's URL, which may hold a password: printed only as ``database_label``."""
    log_level: str = "INFO"
    dev_guild_id: int | None = None
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None  # None: every shard of shard_count runs in this process
    standby: bool = False  # TRICKNIGHT_SHARD_IDS=standby: no shard until another process dies
    computer_delay: float = 1.0
    nats_url: str | None = field(default=None, repr=False)
    """``tricknight worker`` processes serve the searches over this NATS server (credentials in it
    are printed only as ``nats_label``); None: a local process pool."""
    nats_prefix: str = DEFAULT_NATS_PREFIX
    # Where the settings were read from, for `tricknight check` and the start-up log.
    env_file: Path | None = None
    database_source: str = DEFAULT_SOURCE
    unknown: tuple[str, ...] = ()  # TRICKNIGHT_* names that are no setting (typos?)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, *, database_base: Path | None = None) -> Settings:
        """Read settings from ``env`` (default: the process environment). A relative database path
        is taken relative to ``database_base`` (default: the working directory). Raises one
        ``ConfigError`` naming every bad setting."""
        settings, problems = cls.read(env, database_base=database_base)
        if problems:
            raise ConfigError(*problems.values())
        return settings

    @classmethod
    def read(
        cls, env: Mapping[str, str] | None = None, *, database_base: Path | None = None
    ) -> tuple[Settings, dict[str, str]]:
        """Like ``from_env``, but a bad setting is not an error: it keeps its default and its
        problem is returned, by setting name (``tricknight check`` reports them all)."""
        env = os.environ if env is None else env
        problems: dict[str, str] = {}

        def checked(name: str, parse: Callable[[], _T], default: _T) -> _T:
            try:
                return parse()
            except ConfigError as err:
                problems[name] = str(err)
                return default

        raw_database = env.get("TRICKNIGHT_DATABASE", "").strip()
        database_url = None
        if is_postgresql_url(raw_database):
            database_url, raw_database = raw_database, ""
            database, source = default_database(env), "TRICKNIGHT_DATABASE"
        elif raw_database:
            database = Path(raw_database).expanduser()
            if not database.is_absolute():
                database = (database_base or Path.cwd()) / database
            source = "TRICKNIGHT_DATABASE"
        else:
            database, source = default_database(env), DEFAULT_SOURCE
        shard_count = checked("TRICKNIGHT_SHARD_COUNT", lambda: _shard_count(env), None)
        shard_ids, standby = None, False
        if "TRICKNIGHT_SHARD_COUNT" not in problems:  # the ids are checked against a valid count
            shard_ids = checked("TRICKNIGHT_SHARD_IDS", lambda: _shard_ids(env, shard_count), None)
            standby = checked(
                "TRICKNIGHT_SHARD_IDS", lambda: _standby(env, shard_count, database_url is not None), False
            )
        settings = cls(
            token=env.get("DISCORD_TOKEN", "").strip() or None,
            database=Path(os.path.abspath(database)),
            database_url=database_url,
            log_level=checked("TRICKNIGHT_LOG_LEVEL", lambda: _log_level(env), "INFO"),
            dev_guild_id=checked(
                "TRICKNIGHT_DEV_GUILD_ID", lambda: _int_or_none(env, "TRICKNIGHT_DEV_GUILD_ID"), None
            ),
            shard_count=shard_count,
            shard_ids=shard_ids,
            standby=standby,
            computer_delay=checked("TRICKNIGHT_COMPUTER_DELAY", lambda: _computer_delay(env), 1.0),
            nats_url=checked("TRICKNIGHT_NATS_URL", lambda: _nats_url(env), None),
            nats_prefix=checked("TRICKNIGHT_NATS_PREFIX", lambda: _nats_prefix(env), DEFAULT_NATS_PREFIX),
            database_source=source,
        )
        order = {name: index for index, name in enumerate(SETTING_NAMES)}  # as .env.example lists them
        return settings, dict(sorted(problems.items(), key=lambda item: order[item[0]]))

    @property
    def store_target(self) -> str | Path:
        """What ``Store.open`` takes: the PostgreSQL URL, or the SQLite file."""
        return self.database_url if self.database_url is not None else self.database

    @property
    def database_label(self) -> str:
        """The database fit to print: the file's path, or the server's URL without a password."""
        return redacted(self.database_url) if self.database_url is not None else str(self.database)

    @property
    def backend(self) -> str:
        return "postgresql" if self.database_url is not None else "sqlite"

    @property
    def cluster(self) -> bool:
        """Cluster mode (``bot.cluster``): processes that share a PostgreSQL database and lease
        their shards (of an explicit ``TRICKNIGHT_SHARD_COUNT``) from it."""
        return self.database_url is not None and self.shard_count is not None

    @property
    def nats_label(self) -> str | None:
        """The NATS server(s) fit to print (no password, no token), or None."""
        return redacted_nats(self.nats_url) if self.nats_url is not None else None

    def searches_text(self) -> str:
        """Where the searching computer players think, for the start-up log and ``tricknight check``."""
        if self.nats_url is None:
            return "searches in a local process pool (TRICKNIGHT_NATS_URL not set)"
        return (
            f"searches and hints served by `tricknight worker` over NATS {self.nats_label} "
            f"(subjects {self.nats_prefix}.decide and {self.nats_prefix}.hint)"
        )

    def owns_guild(self, guild_id: int) -> bool:
        """Whether this process runs the shard of ``guild_id`` (Discord's rule: the guild's
        creation time bits, ``guild_id >> 22``, modulo the shard count)."""
        if self.shard_ids is None or self.shard_count is None:
            return True  # one process runs every shard
        return (guild_id >> 22) % self.shard_count in self.shard_ids

    def shards_text(self) -> str:
        """The shard settings in words, for the start-up log and ``tricknight check``."""
        if self.cluster and self.shard_count is not None:
            leased = "leased from the database"
            if self.standby:
                return f"a standby: the shards of {self.shard_count} whose process dies, {leased}"
            if self.shard_ids is None:
                return f"every shard (0-{self.shard_count - 1}) of {self.shard_count}, {leased}"
            return f"shards {','.join(map(str, self.shard_ids))} of {self.shard_count}, {leased}"
        if self.shard_count is None:
            return "every shard in this process, as many as Discord recommends"
        if self.shard_ids is None:
            return f"every shard (0-{self.shard_count - 1}) of {self.shard_count} in this process"
        return f"shards {','.join(map(str, self.shard_ids))} of {self.shard_count} in this process"


def load_settings(
    env_file: Path | None = None, *, environ: Mapping[str, str] | None = None, cwd: Path | None = None
) -> Settings:
    """Settings from the environment over a ``.env`` file: ``env_file`` if given (it must exist),
    else ``.env`` in the working directory if there is one. Nothing is copied into ``os.environ``.
    Raises one ``ConfigError`` naming every bad setting."""
    settings, problems = read_settings(env_file, environ=environ, cwd=cwd)
    if problems:
        raise ConfigError(*problems.values())
    return settings


def read_settings(
    env_file: Path | None = None, *, environ: Mapping[str, str] | None = None, cwd: Path | None = None
) -> tuple[Settings, dict[str, str]]:
    """Like ``load_settings``, but a bad setting keeps its default and its problem is returned, by
    setting name, for ``tricknight check`` to report with everything else. A missing
    ``env_file`` or an unreadable ``.env`` still raises ``ConfigError``."""
    from dotenv import dotenv_values

    environ = os.environ if environ is None else environ
    cwd = Path.cwd() if cwd is None else cwd
    if env_file is not None:
        chosen = cwd / Path(env_file).expanduser()  # an absolute env_file stays as it is
        if not chosen.is_file():
            raise ConfigError(f"--env-file {env_file}: no such file")
    else:
        chosen = cwd / ".env"
    file = Path(os.path.abspath(chosen)) if chosen.is_file() else None
    from_file: dict[str, str] = {}
    if file is not None:
        try:
            from_file = {key: value or "" for key, value in dotenv_values(file).items()}
        except (OSError, UnicodeDecodeError) as err:
            raise ConfigError(f"cannot read {file}: {err}") from None
    # A relative database path is relative to the file that sets it (else to the working directory).
    in_file = "TRICKNIGHT_DATABASE" in from_file and "TRICKNIGHT_DATABASE" not in environ
    base = file.parent if in_file and file is not None else cwd
    settings, problems = Settings.read({**from_file, **environ}, database_base=base)
    source = settings.database_source
    if source == "TRICKNIGHT_DATABASE":
        source += f" in {file}" if in_file else " in the environment"
    names = {*from_file, *environ}
    unknown = sorted(
        name
        for name in names
        if name.startswith("TRICKNIGHT_")
        and name not in SETTING_NAMES
        and not name.startswith("TRICKNIGHT_TEST_")
    )
    return replace(settings, env_file=file, database_source=source, unknown=tuple(unknown)), problems


def legacy_database_problem(settings: Settings, cwd: Path | None = None) -> str | None:
    """Trick Night used to keep its database at ``data/tricknight.db`` under the working directory.
    If one is there while the new default database does not exist yet, starting would silently
    begin an empty leaderboard: say so instead."""
    if settings.database_source != DEFAULT_SOURCE or settings.database_url or settings.database.exists():
        return None
    old = ((cwd or Path.cwd()) / LEGACY_DATABASE).absolute()
    if not old.is_file():
        return None
    return (
        f"found {old}, where older versions kept the database, but the default is now "
        f"{settings.database}. Set TRICKNIGHT_DATABASE={old} to keep using it, or move it to the "
        "new default path."
    )
