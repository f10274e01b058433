"""``tricknight check`` (is this configuration ready to go live?) and ``tricknight health`` (is the
running bot well?), plus the invite URL with exactly the scopes and permissions the bot needs.

``check`` never connects to Discord and never changes the database: it reads the settings, looks
at the token's shape (never printing it), opens the database read-only, and says what it found.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from bot import __version__
from bot.backup import inspect_database
from bot.config import Settings, application_id, legacy_database_problem, token_problem
from bot.files import exposure_warning
from bot.instance import health_problem, read_status
from bot.remote import Subjects, find_workers, install_hint, nats_available

INVITE_SCOPES = ("bot", "applications.commands")
# Discord's names (as in the developer portal's URL generator) -> discord.Permissions flags.
INVITE_PERMISSIONS = {
    "View Channels": "view_channel",
    "Send Messages": "send_messages",
    "Send Messages in Threads": "send_messages_in_threads",
    "Create Public Threads": "create_public_threads",
    "Create Private Threads": "create_private_threads",
    "Manage Threads": "manage_threads",  # to lock a finished table's thread (archiving needs none)
    "Embed Links": "embed_links",
    "Attach Files": "attach_files",
    "Read Message History": "read_message_history",
    "Use Application Commands": "use_application_commands",
}


def invite_permissions() -> int:
    """The permissions integer of the invite URL."""
    import discord

    return discord.Permissions(**dict.fromkeys(INVITE_PERMISSIONS.values(), True)).value


def invite_url(client_id: int) -> str:
    """The URL that adds the bot to a server with exactly the scopes and permissions it needs."""
    import discord

    return discord.utils.oauth_url(
        client_id, permissions=discord.Permissions(invite_permissions()), scopes=INVITE_SCOPES
    )


@dataclass
class CheckReport:
    """Lines to show, warnings, and problems (any problem: not ready)."""

    lines: list[tuple[str, str]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    invite: str | None = None

    def add(self, label: str, text: str) -> None:
        self.lines.append((label, text))


def _writable_folder(folder: Path) -> tuple[bool, Path]:
    """Whether the bot can create files in ``folder`` (or create it): the nearest existing folder."""
    probe = folder
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    return probe.is_dir() and os.access(probe, os.W_OK | os.X_OK), probe


UNUSABLE = "not usable (see the problem below)"


def check_settings(
    settings: Settings, cwd: Path | None = None, setting_problems: Mapping[str, str] | None = None
) -> CheckReport:
    """Everything ``tricknight check`` reports about ``settings``; ``setting_problems`` are the
    settings that could not be read (by name; ``bot.config.read_settings``), each a problem."""
    bad = dict(setting_problems or {})
    report = CheckReport()
    if settings.env_file is not None:
        report.add("settings", f"the environment, then {settings.env_file}")
    else:
        report.add("settings", f"the environment only (no .env in {cwd or Path.cwd()})")
    report.problems.extend(bad.values())
    _check_token(settings, report)
    _check_database(settings, report, cwd)
    shards = {"TRICKNIGHT_SHARD_COUNT", "TRICKNIGHT_SHARD_IDS"}
    report.add("shards", UNUSABLE if shards & bad.keys() else settings.shards_text())
    if "TRICKNIGHT_DEV_GUILD_ID" in bad:
        report.add("commands", UNUSABLE)
    elif settings.dev_guild_id:
        report.add("commands", f"synced to the server {settings.dev_guild_id} at once")
    else:
        report.add("commands", "synced globally (the first time, Discord can take up to an hour)")
    delay = f"{settings.computer_delay:g} s before each move"
    report.add("computers", UNUSABLE if "TRICKNIGHT_COMPUTER_DELAY" in bad else delay)
    report.add("log level", UNUSABLE if "TRICKNIGHT_LOG_LEVEL" in bad else settings.log_level)
    _check_searches(settings, report, bad)
    for name in settings.unknown:
        report.warnings.append(
            f"{name} is not a Trick Night setting (a typo?); the settings are in .env.example"
        )
    return report


def _check_searches(settings: Settings, report: CheckReport, bad: Mapping[str, str]) -> None:
    """Where the searching computers think; with NATS, whether the server answers and which
    ``tricknight worker`` processes serve (their status; nothing is asked of them)."""
    if {"TRICKNIGHT_NATS_URL", "TRICKNIGHT_NATS_PREFIX"} & bad.keys():
        report.add("searches", UNUSABLE)
        return
    if settings.nats_url is None:
        report.add("searches", "in a local process pool (TRICKNIGHT_NATS_URL not set)")
        return
    subjects = Subjects.of(settings.nats_prefix)
    report.add(
        "searches", f"tricknight worker over NATS {settings.nats_label} ({subjects.decide}, {subjects.hint})"
    )
    if not nats_available():
        report.problems.append(
            f"TRICKNIGHT_NATS_URL is set, but the NATS client is not installed: {install_hint()}"
        )
        return
    try:
        found = asyncio.run(find_workers(settings.nats_url, settings.nats_prefix))
    except ConnectionError as err:
        report.warnings.append(
            f"the NATS server {settings.nats_label} cannot be reached ({err}): until it can, hard computers "
            "play as easy ones (after a wait of about 2.5 s a move) and hints fail"
        )
        return
    if not found:
        report.warnings.append(
            f"no tricknight worker answers on {subjects.status}: until one runs, hard computers play as "
            "easy ones (after a wait of about 2.5 s a move) and hints fail"
        )
        return
    processes = sum(int(status.get("processes", 0)) for status in found)
    versions = sorted({str(status.get("version")) for status in found})
    report.add("", f"{_count(len(found), 'worker')} answering, {_count(processes, 'process')} "
                   f"(version {', '.join(versions)})")  # fmt: skip
    if versions != [__version__]:
        report.warnings.append(
            f"workers of version {', '.join(versions)} serve this bot of version {__version__}: run the same"
        )


def _count(count: int, noun: str) -> str:
    plural = noun + ("es" if noun.endswith("s") else "s")
    return f"{count} {noun if count == 1 else plural}"


def _check_token(settings: Settings, report: CheckReport) -> None:
    if settings.token is None:
        report.problems.append(
            "DISCORD_TOKEN is not set: put it in a .env file here (copy .env.example) or in the environment"
        )
        report.add("token", "missing")
        return
    problem = token_problem(settings.token)
    if problem is not None:
        report.problems.append(problem)
        report.add("token", "set, but not shaped like a bot token")
        return
    client_id = application_id(settings.token)
    assert client_id is not None  # token_problem checks it decodes
    report.add("token", f"set, shaped like a bot token (application {client_id})")
    report.invite = invite_url(client_id)


def _check_server(settings: Settings, report: CheckReport) -> None:
    """A PostgreSQL database: reached and read (nothing is changed)."""
    assert settings.database_url is not None
    report.add("database", f"PostgreSQL {settings.database_label} ({settings.database_source})")
    try:
        from bot.postgres_instance import health_problem as server_health
        from bot.postgres_instance import inspect_server
    except ImportError:
        report.problems.append(
            "TRICKNIGHT_DATABASE names a PostgreSQL server, but its driver is not installed: "
            "pip install 'tricknight[postgresql]'"
        )
        return
    lines, problems = inspect_server(settings.database_url)
    for line in lines:
        report.add("", line)
    report.problems.extend(problems)
    if not problems and server_health(settings.database_url, stale_after=float("inf")) is None:
        report.add("bot", "running on this database")


def _check_database(settings: Settings, report: CheckReport, cwd: Path | None) -> None:
    if settings.database_url is not None:
        _check_server(settings, report)
        return
    path = settings.database
    report.add("database", f"{path} ({settings.database_source})")
    legacy = legacy_database_problem(settings, cwd)
    if legacy is not None:
        report.problems.append(legacy)
    info = inspect_database(path)
    report.problems.extend(info.problems)
    if info.problems:
        return
    if not info.exists:
        writable, folder = _writable_folder(path.parent)
        if not writable:
            report.problems.append(f"cannot create the database: {folder} is not writable by this user")
            return
        report.add("", "does not exist yet: created (mode 0600) at the first start")
        return
    report.add("", info.summary())
    if not os.access(path, os.W_OK) or not os.access(path.parent, os.W_OK | os.X_OK):
        report.problems.append(
            f"{path} or its folder is not writable by this user (SQLite needs both for its -wal file)"
        )
    warning = exposure_warning(path)
    if warning:
        report.warnings.append(warning)
    status = read_status(path)
    if status and status.get("purpose") == "bot" and health_problem(path, stale_after=float("inf")) is None:
        report.add("bot", f"running on this database (pid {status.get('pid')})")


def print_check(
    report: CheckReport, out: TextIO = sys.stdout, err: TextIO = sys.stderr, command: str = "tricknight"
) -> int:
    """Print the report; the exit status (0 ready, 1 problems). ``command`` is how the bot is
    started here (``bot.cli.this_command``), for the last line."""
    print(
        f"Trick Night {__version__}: configuration check (nothing connects to Discord, nothing is changed)",
        file=out,
    )
    for label, text in report.lines:
        print(f"  {label + ':' if label else '':<11} {text}", file=out)
    if report.invite:
        names = ", ".join(INVITE_PERMISSIONS)
        print(f"Invite URL (scopes {' and '.join(INVITE_SCOPES)}; permissions {names}):", file=out)
        print(f"  {report.invite}", file=out)
    for warning in report.warnings:
        print(f"warning: {warning}", file=err)
    for problem in report.problems:
        print(f"problem: {problem}", file=err)
    if report.problems:
        many = len(report.problems)
        print(f"not ready: {many} problem{'' if many == 1 else 's'} above", file=err)
        return 1
    print(f"ready: start the bot with `{command}`", file=out)
    return 0


def print_health(settings: Settings, out: TextIO = sys.stdout) -> int:
    """``tricknight health``: 0 if the bot on this database is running, connected and recent."""
    if settings.database_url is not None and settings.cluster:
        from bot.cluster import health_problem as process_health

        problem = process_health(settings.database_url)
        print(f"unhealthy: {problem}" if problem else "healthy", file=out)
        return 1 if problem else 0
    if settings.database_url is not None:
        from bot.postgres_instance import health_problem as server_health

        problem = server_health(settings.database_url)
        print(f"unhealthy: {problem}" if problem else "healthy", file=out)
        return 1 if problem else 0
    problem = health_problem(settings.database)
    if problem is not None:
        print(f"unhealthy: {problem}", file=out)
        return 1
    status = read_status(settings.database) or {}
    print(f"healthy: pid {status.get('pid')}, {status.get('guilds')} guild(s)", file=out)
    return 0
