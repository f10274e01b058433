"""How computer levels are offered and named to people.

The engine-side registry (``bot.ai``) knows levels by their registered names ("random", "basic",
"hard"); people see "easy" for "basic". Discord offers only ``OFFERED`` ("random" is reachable
from code and tests only). Stored seats keep the registered name, so old tables load unchanged.
"""

from __future__ import annotations

OFFERED: dict[str, str] = {"easy": "basic", "hard": "hard"}
"""What ``/table add-computer`` and the lobby offer: the name people see -> the registered level."""

_SHOWN = {registered: shown for shown, registered in OFFERED.items()}


def level_name(level: str) -> str:
    """The name people see for a registered level ("basic" -> "easy"; others as they are)."""
    return _SHOWN.get(level, level)


def computer_label(name: str, level: str) -> str:
    """A computer seat's name with its level, e.g. "Computer 2 (hard)".

    Seats stored before levels were shown this way carry the registered level in their name
    ("Computer 2 (basic)"); that suffix is replaced, and a name already in brackets gets the level
    inside them ("Computer (Ann's seat, easy)").
    """
    shown = level_name(level)
    for suffix in (f" ({level})", f" ({shown})"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
            break
    if name.endswith(")"):
        return f"{name[:-1]}, {shown})"
    return f"{name} ({shown})"
