"""Where Trick Night's runtime data (the SQL migrations) is read from, with ``importlib.resources``.

The repository keeps the migrations in ``data/migrations/`` beside ``bot/``. A wheel carries them
inside the package as ``bot/_data/migrations/`` (``pyproject.toml`` force-includes the folder
there), so an installed Trick Night never looks outside its own package. A source checkout (run
with ``PYTHONPATH``, or an editable install, which imports ``bot`` from the checkout) has no
``bot/_data``: there the repository's ``data/`` folder beside the package is the data folder.
"""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

PACKAGED_DATA = "_data"


def data_folder() -> Traversable:
    """The folder holding ``migrations/``: the package's own copy, else the checkout's ``data/``."""
    package = resources.files("bot")
    packaged = package / PACKAGED_DATA
    if packaged.is_dir():
        return packaged
    if isinstance(package, Path):
        checkout = package.parent / "data"
        if (checkout / "migrations").is_dir():
            return checkout
    return packaged  # missing: whoever reads it reports the path that should have been there


def migrations_folder() -> Traversable:
    """The folder of numbered SQL migrations (``0001_initial.sql``, …)."""
    return data_folder() / "migrations"
