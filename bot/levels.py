"""How computer levels are offered and named to people.

The engine-side registry (``bot.ai``) knows levels by their registered names ("random", "basic",
"hard"); people see "easy" for "basic", in Discord and in the terminal alike. Discord offers only
``OFFERED``; "random" (random legal moves) is a testing level, reachable from ``simulate``, ``play``
and code. Stored seats and ratings keep the registered name, so old tables and databases load
unchanged, and the registered names stay accepted where a level is typed.
"""

from __future__ import annotations

from collections.abc import Sequence

OFFERED: dict[str, str] = {"easy": "basic", "hard": "hard"}
"""What ``/table add-computer`` and the lobby offer: the name people see -> the registered level."""

_SHOWN = {registered: shown for shown, registered in OFFERED.items()}

TESTING = "random"
"""The level that plays random legal moves: a yardstick for tests and ``simulate``, never offered."""

DESCRIPTIONS = {
    "easy": "rule-based, the default",
    "hard": "searches sampled deals, up to a second a move",
    TESTING: "random legal moves, for testing",
}
"""What each level is, for help texts."""


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


def shown_levels(known: Sequence[str]) -> list[str]:
    """The names people see for the registered levels ``known``: the offered ones first, weakest
    first, then the testing level ("easy", "hard", "random")."""
    offered = [shown for shown, registered in OFFERED.items() if registered in known]
    return offered + [level_name(level) for level in known if level not in OFFERED.values()]


def find_level(name: str, known: Sequence[str]) -> str:
    """The registered level for a name typed on the command line: a name people see ("easy"), or a
    registered name ("basic"), still accepted. Raises ``ValueError`` naming the choices."""
    typed = name.strip().lower()
    registered = OFFERED.get(typed, typed)
    if registered not in known:
        raise ValueError(f"no computer level {name!r}; choose one of: {', '.join(shown_levels(known))}")
    return registered
