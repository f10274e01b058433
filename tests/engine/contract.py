"""A checker of JSON-like values against the engine's ``TypedDict``s (events and views)."""

from __future__ import annotations

import types
import typing
from typing import Any, Literal, get_args, get_origin, get_type_hints, is_typeddict


def mismatches(value: Any, tp: Any, path: str = "") -> list[str]:
    """Where ``value`` (parsed JSON or a view) does not conform to the type ``tp`` (empty: it does)."""
    if tp is Any:
        return []
    if is_typeddict(tp):
        if not isinstance(value, dict):
            return [f"{path}: {value!r} is not a {tp.__name__}"]
        hints = get_type_hints(tp)
        keys = set(value)
        out = [f"{path}.{key}: missing" for key in tp.__required_keys__ - keys]
        out += [f"{path}.{key}: not a key of {tp.__name__}" for key in keys - set(hints)]
        for key in keys & set(hints):
            out += mismatches(value[key], hints[key], f"{path}.{key}")
        return out
    origin = get_origin(tp)
    if origin is typing.NotRequired:
        return mismatches(value, get_args(tp)[0], path)
    if origin is Literal:
        return [] if value in get_args(tp) else [f"{path}: {value!r} is not one of {get_args(tp)}"]
    if origin in (types.UnionType, typing.Union):
        tried = [mismatches(value, arg, path) for arg in get_args(tp)]
        return [] if any(not found for found in tried) else min(tried, key=len)
    if origin is list:
        if not isinstance(value, list):
            return [f"{path}: {value!r} is not a list"]
        (item,) = get_args(tp)
        return [found for i, x in enumerate(value) for found in mismatches(x, item, f"{path}[{i}]")]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{path}: {value!r} is not a dict"]
        key_tp, value_tp = get_args(tp)
        return [
            found
            for k, x in value.items()
            for found in (*mismatches(k, key_tp, path), *mismatches(x, value_tp, f"{path}[{k!r}]"))
        ]
    if tp is type(None):
        return [] if value is None else [f"{path}: {value!r} is not None"]
    if tp is int and isinstance(value, bool):
        return [f"{path}: {value!r} is a bool, not an int"]
    return [] if isinstance(value, tp) else [f"{path}: {value!r} is not a {tp.__name__}"]
