"""Checks on what callers hand the store, before any SQL runs, and the JSON encoding of stored values."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from bot.store.errors import StoreError, StoreRefusal
from bot.store.records import STATUSES

INT64 = 2**63


def is_int(value: Any) -> bool:
    # bool is an int subclass; True as a user id or a timeout is always a bug.
    return isinstance(value, int) and not isinstance(value, bool)


def check_id(value: Any, what: str) -> int:
    if not is_int(value) or not -INT64 <= value < INT64:
        raise StoreError(f"{what} must be a whole number that fits in 64 bits, not {value!r}")
    return int(value)


def dumps(value: Any, what: str) -> str:
    try:
        return json.dumps(value, separators=(",", ":"), sort_keys=True, allow_nan=False)
    except (TypeError, ValueError) as err:
        raise StoreError(f"{what} cannot be saved: {err}") from None


def seats_json(seats: Any) -> str:
    """Check the seat list (human seats need an integer user id, nobody sits twice) and encode it."""
    if not isinstance(seats, list):
        raise StoreError(f"seats must be a list, not {type(seats).__name__}")
    seen: set[int] = set()
    for number, seat in enumerate(seats, start=1):
        if seat is None:
            continue  # an open seat in a lobby
        if not isinstance(seat, dict):
            raise StoreError(f"seat {number} must be a dict or None, not {seat!r}")
        if seat.get("kind") == "human":
            user_id: Any = seat.get("user_id")
            if not is_int(user_id):
                raise StoreError(f"seat {number} is a human seat without an integer user_id")
            # One person in two seats would make ratings and /stats count them twice.
            if user_id in seen:
                raise StoreError(f"user {user_id} already has a seat at this table")
            seen.add(user_id)
    return dumps(seats, "seats")


def check_status(status: str) -> None:
    if status not in STATUSES:
        raise StoreError(f"status must be one of {', '.join(STATUSES)}, not {status!r}")


def options_by_variant(value: Any) -> dict[str, dict[str, Any]]:
    """Check that house-rule defaults have the stored shape ``{variant: {option: value}}``.

    Only the shape: whether the options suit each variant is checked a floor up, by the table
    manager, which knows the engine; the store stores the JSON it is given.
    """
    if not isinstance(value, Mapping):
        raise StoreRefusal("default_options must map a variant name to its options")
    out: dict[str, dict[str, Any]] = {}
    for variant, options in value.items():
        if not isinstance(variant, str):
            raise StoreRefusal(f"default_options: {variant!r} is not a variant name")
        if not isinstance(options, Mapping) or not all(isinstance(name, str) for name in options):
            raise StoreRefusal(f"default_options for {variant} must be a mapping of option to value")
        out[variant] = dict(options)
    return out


def containing(text: str) -> str:
    """A ``LIKE ... ESCAPE '\\'`` pattern for names that contain ``text`` as it is typed."""
    return "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
