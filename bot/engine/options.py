"""House rules as data: each variant declares an option schema with defaults and validation."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.engine.errors import BadOption, EngineError

_TRUE = {"true", "yes", "on", "1", "y"}
_FALSE = {"false", "no", "off", "0", "n"}
_WHOLE = re.compile(r"-?[0-9]+")


def whole_number(field: str, raw: Any, allowed: str = "a whole number") -> int:
    """``raw`` as an ``int``: an ``int`` (not a ``bool``) or text spelling one (``"4"``, as typed on
    a command line). Anything else, ``4.0`` and ``"4.0"`` included, raises ``EngineError`` naming
    the field, what is allowed and the value, so nothing is silently rounded.

    >>> whole_number("seed", " 17 ")
    17
    >>> whole_number("seed", 1.7)
    Traceback (most recent call last):
    bot.engine.errors.EngineError: seed must be a whole number; got 1.7
    """
    if isinstance(raw, int) and not isinstance(raw, bool):
        return raw
    if isinstance(raw, str) and _WHOLE.fullmatch(raw.strip()):
        return int(raw.strip())
    raise EngineError(f"{field} must be {allowed}; got {raw!r}")


@dataclass(frozen=True)
class OptionSpec:
    """One house rule: its name, default, the values it accepts and a one-line description."""

    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] = ()

    @property
    def is_flag(self) -> bool:
        return isinstance(self.default, bool)

    def describe_values(self) -> str:
        if self.is_flag:
            return "on/off"
        return "/".join(str(choice) for choice in self.choices)

    def coerce(self, raw: Any) -> Any:
        """Turn a raw value (possibly text from a command line) into a valid value, or raise."""
        if self.is_flag:
            if isinstance(raw, bool):
                return raw
            text = str(raw).strip().lower()
            if text in _TRUE:
                return True
            if text in _FALSE:
                return False
            raise BadOption(f"option '{self.name}' is on or off, not {raw!r}")
        for choice in self.choices:
            # Text is compared as text ("21", "Deal"); anything else must be the very value (so
            # neither 7.0 nor True passes for 7 or 1).
            if type(raw) is type(choice) and raw == choice:
                return choice
            if isinstance(raw, str) and raw.strip().lower() == str(choice).lower():
                return choice
        raise BadOption(f"option '{self.name}' cannot be {raw!r}: valid values are {self.describe_values()}")


def option_key(name: Any) -> str:
    """An option name as the schemas spell it: names are case-insensitive, like values."""
    if not isinstance(name, str):
        raise BadOption(f"an option name must be text, e.g. target; got {name!r}")
    return name.strip().lower()


def given_options(
    specs: tuple[OptionSpec, ...], given: Mapping[str, Any] | None, variant: str
) -> dict[str, Any]:
    """Only the options in ``given``, under their schema names and with checked values (what a
    server stores as its house rules); unknown names, a name given twice or bad values raise
    ``BadOption``."""
    if not given and (given is None or type(given) is dict):  # nothing given (most games)
        return {}
    if not isinstance(given, Mapping):
        raise BadOption(f"options must be name=value pairs, e.g. target=21; got {given!r}")
    by_name = {spec.name: spec for spec in specs}
    out: dict[str, Any] = {}
    spelled: dict[str, str] = {}
    for name, raw in given.items():
        key = option_key(name)
        spec = by_name.get(key)
        if spec is None:
            valid = ", ".join(f"{s.name} ({s.describe_values()})" for s in specs) or "none"
            raise BadOption(f"{variant} has no option {name!r}; its options are: {valid}")
        if key in spelled:
            raise BadOption(f"option '{key}' is given twice ({spelled[key]!r} and {name!r}): give it once")
        spelled[key] = name
        out[key] = spec.coerce(raw)
    return out


def resolve_options(
    specs: tuple[OptionSpec, ...],
    given: Mapping[str, Any] | None,
    variant: str,
    *,
    house: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Every option: the defaults, overlaid with ``house`` (a server's own defaults), overlaid with
    ``given``. Names are case-insensitive; unknown names or bad values raise ``BadOption``.

    >>> specs = (OptionSpec("target", 11, "Points needed to win", (7, 11, 21)),)
    >>> resolve_options(specs, {"Target": "21"}, "pitch")
    {'target': 21}
    """
    key: _ResolvedKey | None = None
    if house is None and (given is None or type(given) is dict):
        # Every game resolves its options, most with the same few: the answer is kept by the
        # given names, values and value types (True is not 1 here) for these very specs.
        try:
            key = (id(specs), variant, tuple([(name, type(raw), raw) for name, raw in (given or {}).items()]))
            kept = _RESOLVED.get(key)
        except TypeError:  # an unhashable value: resolved (and refused) the long way
            key = kept = None
        if kept is not None and kept[0] is specs:
            return dict(kept[1])
    resolved = {spec.name: spec.default for spec in specs}
    resolved.update(given_options(specs, house, variant))
    resolved.update(given_options(specs, given, variant))
    if key is not None and len(_RESOLVED) < _RESOLVED_MAX:
        _RESOLVED[key] = (specs, dict(resolved))
    return resolved


_ResolvedKey = tuple[int, str, tuple[tuple[Any, type, Any], ...]]
_RESOLVED: dict[_ResolvedKey, tuple[tuple[OptionSpec, ...], dict[str, Any]]] = {}
"""``resolve_options`` answers by (id of the specs, variant, given items): the specs are kept with
the answer, so an id reused by other specs is not mistaken for them."""
_RESOLVED_MAX = 1024


def parse_option_pairs(pairs: list[str]) -> dict[str, str]:
    """Parse ``key=value`` strings (as typed on a command line) into a dict."""
    out: dict[str, str] = {}
    seen: dict[str, str] = {}  # option name (case-insensitive) -> the pair that gave it
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise BadOption(f"{pair!r} is not key=value, e.g. target=21 or smudge=on")
        name = key.strip().lower()
        if name in seen:
            raise BadOption(f"option '{name}' is given twice ({seen[name]!r} and {pair!r}): give it once")
        seen[name] = pair
        out[key.strip()] = value.strip()
    return out
