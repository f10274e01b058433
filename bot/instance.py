"""One bot per database: an exclusive lock file beside the database, and the bot's status in it.

``InstanceLock(database).acquire()`` takes ``fcntl.flock`` on ``<database>.lock`` (mode 0600). The
kernel drops the lock when the process ends in any way, SIGKILL included, so a stale file never
blocks the next start; the file itself stays (removing it could let two processes lock two
different files). A second process is refused with ``InstanceLocked``, naming the holder's pid.

The holder keeps a small JSON status in the file (pid, state, last heartbeat, guild count), which
``tricknight health`` reads without touching the lock: a health probe must never take the lock,
or it could make a bot that starts at that moment refuse to run.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
import time
from pathlib import Path
from typing import Any, Protocol

from bot.files import FILE_MODE, make_private_folder

LOCK_SUFFIX = ".lock"
STATUS_BYTES = 512  # the status is padded to this size, so a rewrite always covers the old one
HEARTBEAT_SECONDS = 30.0
STALE_AFTER = 120.0  # a status older than this means the bot is hung or gone


class InstanceLocked(Exception):
    """Another process holds the database's lock; the message names its pid."""

    def __init__(self, message: str, pid: int | None) -> None:
        super().__init__(message)
        self.pid = pid


def lock_path(database: Path) -> Path:
    """The lock file of the database at ``database``: ``tricknight.db`` -> ``tricknight.db.lock``."""
    return database.with_name(database.name + LOCK_SUFFIX)


def read_status(database: Path) -> dict[str, Any] | None:
    """The status the holder last wrote, or None (no file, or nothing readable in it)."""
    try:
        text = lock_path(database).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    try:
        status = json.loads(text)
    except ValueError:
        return None
    return status if isinstance(status, dict) else None


def _holder(database: Path) -> int | None:
    # The holder may be writing its status right now: a second look is enough.
    for _ in range(2):
        status = read_status(database)
        if status is not None and isinstance(status.get("pid"), int):
            return int(status["pid"])
        time.sleep(0.05)
    return None


class Instance(Protocol):
    """A bot's hold on its database: the lock file here, or ``bot.postgres_instance`` on a server."""

    @property
    def held(self) -> bool: ...

    def acquire(self) -> None: ...

    def write_status(self, state: str, **details: Any) -> None: ...

    async def guard(self) -> None:
        """Returns if the hold was lost to another process (the bot must stop)."""

    def release(self) -> None: ...


class InstanceLock:
    """The exclusive lock on one database. Use ``acquire()`` / ``release()`` or ``with``."""

    def __init__(self, database: Path, *, purpose: str = "bot") -> None:
        self.database = database
        self.path = lock_path(database)
        self.purpose = purpose  # "bot" or a command such as "restore", written into the status
        self._fd: int | None = None
        self._started = time.time()

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self) -> None:
        """Take the lock or raise ``InstanceLocked`` (``OSError`` if the file cannot be made)."""
        import fcntl

        make_private_folder(self.path.parent)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, FILE_MODE)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            pid = _holder(self.database)
            holder = f"pid {pid}" if pid is not None else "pid unknown"
            raise InstanceLocked(
                f"another Trick Night process ({holder}) is using the database {self.database}. "
                "Stop it first: two bots on one database would both answer every click.",
                pid,
            ) from None
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd
        self.write_status("starting")

    def write_status(self, state: str, **details: Any) -> None:
        """Record the holder's state (``starting``, ``running``, ``stopping``, ``stopped``) and the
        time, for ``tricknight health``. Best effort: a full disk must not stop the bot."""
        if self._fd is None:
            return
        status = {
            "pid": os.getpid(),
            "purpose": self.purpose,
            "state": state,
            "started": round(self._started, 3),
            "updated": round(time.time(), 3),
            **details,
        }
        data = json.dumps(status, sort_keys=True).encode()[: STATUS_BYTES - 1]
        with contextlib.suppress(OSError):
            os.pwrite(self._fd, data.ljust(STATUS_BYTES - 1) + b"\n", 0)  # JSON allows trailing blanks

    async def guard(self) -> None:
        """A lock on a file is never lost while the process lives: waits for ever."""
        await asyncio.Event().wait()

    def release(self) -> None:
        """Let go of the lock (safe to call twice). The file stays, marked stopped."""
        if self._fd is None:
            return
        self.write_status("stopped")
        fd, self._fd = self._fd, None
        os.close(fd)  # closing the only descriptor releases the flock

    def __enter__(self) -> InstanceLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # it exists, under another user
    return True


def health_problem(
    database: Path, *, now: float | None = None, stale_after: float = STALE_AFTER
) -> str | None:
    """Why the bot on ``database`` is not healthy (not running, not connected, hung), or None."""
    status = read_status(database)
    if status is None:
        return f"no Trick Night is running on {database} (no status in {lock_path(database)})"
    pid, state = status.get("pid"), status.get("state")
    if status.get("purpose") != "bot":
        return f"{lock_path(database)} was last held by `tricknight {status.get('purpose')}`, not the bot"
    if not isinstance(pid, int) or not _alive(pid):
        return f"the bot (pid {pid}) is not running"
    if state != "running":
        return f"the bot (pid {pid}) is {state}"
    age = (time.time() if now is None else now) - float(status.get("updated") or 0)
    if age > stale_after:
        return f"the bot (pid {pid}) has not reported for {age:.0f} s (hung?)"
    if not status.get("connected", False):
        return f"the bot (pid {pid}) is not connected to Discord"
    return None


def lock_supported() -> bool:
    """``fcntl.flock`` exists on Linux, macOS and the BSDs; not on Windows."""
    return sys.platform != "win32"
