"""Settings from the environment (and a ``.env`` file). The token is never printed or logged."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_DATABASE = Path("data") / "tricknight.db"


class ConfigError(ValueError):
    """A setting is missing or malformed; the message says which and where to set it."""


def _int_or_none(env: Mapping[str, str], name: str) -> int | None:
    raw = env.get(name, "").strip()
    if not raw:
        return None
    if not raw.isdigit():
        raise ConfigError(f"{name} must be a whole number, not {raw!r} (see .env.example)")
    return int(raw)


@dataclass(frozen=True)
class Settings:
    """Everything the bot reads from its environment."""

    token: str | None = field(repr=False)
    database: Path = DEFAULT_DATABASE
    log_level: str = "INFO"
    dev_guild_id: int | None = None
    shard_count: int | None = None
    computer_delay: float = 1.0

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """Read settings from ``env`` (default: the process environment)."""
        env = os.environ if env is None else env
        delay_text = env.get("TRICKNIGHT_COMPUTER_DELAY", "").strip() or "1.0"
        try:
            delay = float(delay_text)
        except ValueError:
            raise ConfigError(
                f"TRICKNIGHT_COMPUTER_DELAY must be seconds, e.g. 1.0, not {delay_text!r}"
            ) from None
        if delay < 0:
            raise ConfigError("TRICKNIGHT_COMPUTER_DELAY cannot be negative")
        level = env.get("TRICKNIGHT_LOG_LEVEL", "").strip().upper() or "INFO"
        if level not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
            raise ConfigError(f"TRICKNIGHT_LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level!r}")
        return cls(
            token=env.get("DISCORD_TOKEN", "").strip() or None,
            database=Path(env.get("TRICKNIGHT_DATABASE", "").strip() or DEFAULT_DATABASE),
            log_level=level,
            dev_guild_id=_int_or_none(env, "TRICKNIGHT_DEV_GUILD_ID"),
            shard_count=_int_or_none(env, "TRICKNIGHT_SHARD_COUNT"),
            computer_delay=delay,
        )
