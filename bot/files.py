"""Files only the bot can read: the database holds every live game's seed, from which anyone could
rebuild the hidden hands, so the files the bot creates are private to its user.

New database files, their side files and backups are created mode 0600 (SQLite gives the ``-wal``
and ``-shm`` files the database file's own mode), and a folder the bot creates for them is 0700.
Files that already exist keep their mode; ``exposed`` lets start-up warn about a readable one.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

FILE_MODE = 0o600
FOLDER_MODE = 0o700
SIDE_SUFFIXES = ("-wal", "-shm", "-journal")


def make_private_folder(folder: Path) -> None:
    """Create ``folder`` (and missing parents) if needed; the folder itself gets mode 0700."""
    if folder.is_dir():
        return
    folder.parent.mkdir(parents=True, exist_ok=True)
    try:
        folder.mkdir(mode=FOLDER_MODE)
    except FileExistsError:
        return  # made by someone else meanwhile: leave its mode alone
    os.chmod(folder, FOLDER_MODE)  # mkdir's mode is filtered by the umask


def create_private_file(path: Path) -> bool:
    """Create an empty mode-0600 file at ``path`` unless one exists; True if it was created."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), FILE_MODE)
    except FileExistsError:
        return False
    os.close(fd)
    os.chmod(path, FILE_MODE)  # os.open's mode is filtered by the umask too
    return True


def prepare_database_file(path: Path) -> None:
    """Before SQLite opens ``path``: its folder exists (0700 if new) and, if the database is new, an
    empty 0600 file stands there, so SQLite's database and side files are all private."""
    make_private_folder(path.parent)
    create_private_file(path)


def side_files(path: Path) -> list[Path]:
    """SQLite's side files of the database at ``path`` (whether or not they exist now)."""
    return [path.with_name(path.name + suffix) for suffix in SIDE_SUFFIXES]


def exposed(path: Path) -> list[Path]:
    """The database and side files at ``path`` that other users can read or write."""
    found = []
    for candidate in [path, *side_files(path)]:
        try:
            mode = candidate.stat().st_mode
        except OSError:
            continue
        if mode & (stat.S_IRWXG | stat.S_IRWXO):
            found.append(candidate)
    return found


def exposure_warning(path: Path) -> str | None:
    """A sentence for the log when the database can be read by other users, else None."""
    files = exposed(path)
    if not files:
        return None
    names = ", ".join(str(f) for f in files)
    return (
        f"other users of this machine can read {names}: it holds every game's seed (so every hidden "
        f"hand). Make it private: chmod 600 {' '.join(str(f) for f in files)}"
    )
