"""House rules as data: each variant declares an option schema with defaults and validation."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.engine.errors import BadOption

_TRUE = {"true", "yes", "on", "1", "y"}
_FALSE = {"false", "no", "off", "0", "n"}


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
            if raw == choice or str(raw).strip().lower() == str(choice).lower():
                return choice
        raise BadOption(f"option '{self.name}' cannot be {raw!r}: valid values are {self.describe_values()}")


def resolve_options(
    specs: tuple[OptionSpec, ...], given: Mapping[str, Any] | None, variant: str
) -> dict[str, Any]:
    """Defaults overlaid with ``given``; unknown names or bad values raise ``BadOption``."""
    by_name = {spec.name: spec for spec in specs}
    resolved = {spec.name: spec.default for spec in specs}
    for name, raw in (given or {}).items():
        spec = by_name.get(name)
        if spec is None:
            valid = ", ".join(f"{s.name} ({s.describe_values()})" for s in specs) or "none"
            raise BadOption(f"{variant} has no option {name!r}; its options are: {valid}")
        resolved[name] = spec.coerce(raw)
    return resolved


def parse_option_pairs(pairs: list[str]) -> dict[str, str]:
    """Parse ``key=value`` strings (as typed on a command line) into a dict."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise BadOption(f"{pair!r} is not key=value, e.g. target=21 or smudge=on")
        out[key.strip()] = value.strip()
    return out
