"""Running the bot as a service: one process per database, what it logs at start, a clean stop.

``run(settings)`` is what ``tricknight`` (``tricknight run``) does:

1. take the database's instance lock (``bot.instance``; on PostgreSQL, once the server answers,
   ``bot.postgres_instance``), or stop with the holder's pid;
2. open the database once, so a bad database stops start-up before anything connects (a
   PostgreSQL server out of reach is waited for, with back-off, each try logged), and log its
   backend, where it is (a file's absolute path, a server's URL without its password), its schema
   version, the shard settings and where the searching computers think (a local process pool, or
   ``tricknight worker`` over NATS); warn if others can read an SQLite file;
3. connect to Discord; once ready, log the guild count and keep a heartbeat in the lock file for
   ``tricknight health``;
4. on SIGTERM or SIGINT: refuse new clicks, let the write in flight finish, flush the table
   messages, close the database and the connection, and exit 0 (1 if that takes longer than
   ``STOP_TIMEOUT``). Every accepted action is stored, so every game resumes on the next start.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, cast

import aiohttp
import discord

from bot import __version__
from bot.app import TrickNightBot
from bot.config import Settings, legacy_database_problem
from bot.files import exposure_warning
from bot.instance import HEARTBEAT_SECONDS, Instance, InstanceLock, InstanceLocked, lock_supported
from bot.remote import install_hint, nats_available
from bot.store import Store, StoreError

if TYPE_CHECKING:
    from bot.cluster import ClusterMember

log = logging.getLogger(__name__)

STOP_TIMEOUT = 10.0
REFUSED = 2  # exit status when start-up stops before connecting (settings, database, lock)
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
SERVER_WAIT = float("inf")  # a PostgreSQL server out of reach at start is waited for (each try logged)


def _fail(message: str, status: int = 1) -> int:
    print(f"tricknight: {message}", file=sys.stderr)
    return status


def run(settings: Settings) -> int:
    """Run the bot until a stop signal; the exit status (0 after a clean stop)."""
    assert settings.token is not None
    setup_logging(settings.log_level)
    problem = legacy_database_problem(settings)
    if problem is not None:
        return _fail(problem, REFUSED)
    if settings.nats_url is not None and not nats_available():
        return _fail(
            f"TRICKNIGHT_NATS_URL is set, but the NATS client is not installed: {install_hint()}", REFUSED
        )
    if settings.database_url is not None:
        try:
            from bot.postgres_instance import PostgresInstance
        except ImportError:
            return _fail(
                "TRICKNIGHT_DATABASE names a PostgreSQL server, but its driver is not installed: "
                "pip install 'tricknight[postgresql]'",
                REFUSED,
            )
        instance: Instance = PostgresInstance(settings.database_url)
        if settings.cluster and settings.shard_count is not None:
            from bot.cluster import ClusterMember

            wanted = settings.shard_ids or tuple(range(settings.shard_count))
            instance = ClusterMember(
                settings.database_url,
                shard_count=settings.shard_count,
                shard_ids=None if settings.standby else wanted,
            )
        try:
            return asyncio.run(serve(settings, instance))
        finally:
            instance.release()
    lock = InstanceLock(settings.database)
    if lock_supported():
        try:
            lock.acquire()
        except InstanceLocked as err:
            return _fail(str(err), REFUSED)
        except OSError as err:
            return _fail(f"cannot create the lock file {lock.path}: {err.strerror or err}", REFUSED)
    else:
        log.warning("this system has no flock: nothing stops a second bot on the same database")
    try:
        return asyncio.run(serve(settings, lock))
    finally:
        lock.release()


def setup_logging(level: str) -> None:
    """Log to stderr: coloured on a terminal, plain text for journald and ``docker logs``."""
    silence_voice_warnings()
    if sys.stderr.isatty():
        discord.utils.setup_logging(level=getattr(logging, level))
        return
    plain = logging.Formatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s", "%Y-%m-%d %H:%M:%S")
    discord.utils.setup_logging(level=getattr(logging, level), formatter=plain)


VOICE_LOGGER = "discord.client"  # discord.Client.__init__ warns there when voice libraries are missing
VOICE_WARNINGS = (
    "PyNaCl is not installed, voice will NOT be supported",
    "davey is not installed, voice will NOT be supported",
)


def _not_about_voice(record: logging.LogRecord) -> bool:
    """False for discord.py's two warnings that voice libraries are missing: the bot uses no
    voice, so they only alarm whoever reads the log. Every other record passes."""
    return record.getMessage() not in VOICE_WARNINGS


def silence_voice_warnings() -> None:
    """Drop the voice warnings at their logger, whatever handlers are set up (once)."""
    logger = logging.getLogger(VOICE_LOGGER)
    if _not_about_voice not in logger.filters:
        logger.addFilter(_not_about_voice)


async def open_database_once(settings: Settings) -> int:
    """Open (creating or upgrading) and close the database; its schema version."""
    store = await Store.open(
        settings.store_target, default_computer_delay=settings.computer_delay, wait=SERVER_WAIT
    )
    try:
        return store.schema_version
    finally:
        await store.close()


async def serve(settings: Settings, lock: Instance) -> int:
    """Check the database, log where everything is, then run the bot until stopped."""
    assert settings.token is not None
    warning = exposure_warning(settings.database) if settings.database_url is None else None
    try:
        schema = await open_database_once(settings)
    except StoreError as err:
        return _fail(str(err), REFUSED)
    if not lock.held:  # a server's lock is taken once the server answers
        try:
            await asyncio.to_thread(lock.acquire)
        except InstanceLocked as err:
            return _fail(str(err), REFUSED)
    member = lock if settings.cluster else None
    keeper = None
    if member is not None:
        cluster = cast("ClusterMember", member)
        log.info("cluster mode on %s: %s", settings.database_label, settings.shards_text())
        shards = await cluster.wait_for_shards()  # a standby waits here until a process dies
        keeper = asyncio.create_task(cluster.keep(), name="shard-leases")
        settings = replace(settings, shard_ids=shards)
    if warning:
        log.warning(warning)
    log.info(
        "Trick Night %s: database %s %s (schema %d; %s); %s",
        __version__, settings.backend, settings.database_label, schema, settings.database_source,
        settings.shards_text(),
    )  # fmt: skip
    log.info("computer players: %s", settings.searches_text())
    if settings.env_file is not None:
        log.info("settings: the environment, then %s", settings.env_file)
    for name in settings.unknown:
        log.warning("%s is not a Trick Night setting (a typo?); the settings are in .env.example", name)
    bot = TrickNightBot(settings, cluster=cast("ClusterMember | None", member))
    assert settings.token is not None
    try:
        return await run_until_stopped(bot, settings.token, lock)
    finally:
        if keeper is not None:
            keeper.cancel()


async def run_until_stopped(
    bot: TrickNightBot, token: str, lock: Instance, signals: Sequence[signal.Signals] = STOP_SIGNALS
) -> int:
    """Run ``bot`` until it fails (1) or one of ``signals`` arrives (clean stop: 0)."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    received: list[str] = []

    def on_signal(sig: signal.Signals) -> None:
        received.append(sig.name)
        stop.set()

    for sig in signals:
        loop.add_signal_handler(sig, on_signal, sig)
    try:
        async with bot:
            runner = asyncio.create_task(bot.start(token), name="discord")
            beat = asyncio.create_task(heartbeat(bot, lock), name="heartbeat")
            stopper = asyncio.create_task(stop.wait(), name="stop-signal")
            guard = asyncio.create_task(lock.guard(), name="instance-guard")
            while True:
                await asyncio.wait({runner, stopper, beat, guard}, return_when=asyncio.FIRST_COMPLETED)
                lost = guard.done()
                if stop.is_set() or runner.done() or lost:
                    break
                # The bot runs on without its status (tricknight health will say it is stale).
                log.error("the heartbeat failed", exc_info=beat.exception())
                beat = asyncio.create_task(never(), name="no-heartbeat")
            guard.cancel()
            if not stop.is_set() and not lost:
                stopper.cancel()
                beat.cancel()
                return _ended(runner)
            why = (
                f"{received[0]} received" if stop.is_set() else "this process's hold on the database was lost"
            )
            log.info("%s: finishing the action in flight, then stopping", why)
            beat.cancel()
            await asyncio.to_thread(lock.write_status, "stopping")
            try:
                await asyncio.wait_for(finish_in_flight(bot), STOP_TIMEOUT)
                await asyncio.wait_for(bot.close(), STOP_TIMEOUT)
                await asyncio.wait_for(asyncio.gather(runner, return_exceptions=True), STOP_TIMEOUT)
            except TimeoutError:
                log.error("the bot did not stop within %.0f s; exiting anyway", STOP_TIMEOUT)
                return 1
            log.info("stopped cleanly: every game resumes at the next start")
            return 0 if stop.is_set() else 1
    finally:
        for sig in signals:
            loop.remove_signal_handler(sig)


async def never() -> None:
    """Waits for ever (in the place of a heartbeat that failed)."""
    await asyncio.Event().wait()


# discord.py runs each slash command and component click in a task with one of these names.
INTERACTION_TASKS = ("CommandTree-invoker", "discord-ui-")
ANSWER_GRACE = 3.0  # Discord's deadline to answer an interaction


async def finish_in_flight(bot: TrickNightBot) -> None:
    """Refuse new changes, let the write in flight finish, and give the clicks being handled the
    time to be answered before the connection closes (an accepted click gets its answer)."""
    tables = getattr(bot, "tables", None)  # None: stopped before setup_hook made it
    if tables is not None:
        await tables.shutdown()
    current = asyncio.current_task()
    pending = [
        task
        for task in asyncio.all_tasks()
        if task is not current and task.get_name().startswith(INTERACTION_TASKS)
    ]
    if pending:
        await asyncio.wait(pending, timeout=ANSWER_GRACE)


def _ended(runner: asyncio.Task[None]) -> int:
    """The exit status when the bot stopped by itself: a clear line for the usual causes."""
    error = runner.exception()
    if error is None:
        return 0
    if isinstance(error, discord.LoginFailure):
        return _fail("Discord refused the token: reset it on the Bot tab and update DISCORD_TOKEN")
    if isinstance(error, discord.PrivilegedIntentsRequired):
        return _fail(f"Discord refused a privileged intent: {error}")
    if isinstance(error, StoreError):
        return _fail(str(error))
    if isinstance(error, aiohttp.ClientError | OSError):
        return _fail(f"cannot reach Discord: {error}")
    log.error("the bot stopped with an error", exc_info=error)
    return 1


async def heartbeat(bot: TrickNightBot, lock: Instance) -> None:
    """Once ready, log the guild count and shards; then keep the status fresh for ``health``
    (off the event loop: on PostgreSQL it is a round trip)."""
    await bot.wait_until_ready()
    log.info(
        "connected as %s: %d guild(s) on shard(s) %s of %s",
        bot.user, len(bot.guilds), ",".join(map(str, sorted(bot.shards))), bot.shard_count,
    )  # fmt: skip
    while True:
        connected = not bot.is_closed() and all(not shard.is_closed() for shard in bot.shards.values())
        await asyncio.to_thread(lock.write_status, "running", connected=connected, guilds=len(bot.guilds))
        await asyncio.sleep(HEARTBEAT_SECONDS)
