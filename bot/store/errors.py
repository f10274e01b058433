"""What the store raises. Callers catch ``StoreError``; the SQLite error, if any, is its ``__cause__``."""

from __future__ import annotations

from bot.errors import Refusal


class StoreError(Exception):
    """Something the store cannot do; the message says what and why in plain words."""


class StoreRefusal(StoreError, Refusal):
    """A request declined because of its input or the data's state (a bad setting, a league already
    running); the message is a sentence for the person who asked."""


class GameNotFound(StoreError):
    """No game with that id."""


class ActionOutOfOrder(StoreError):
    """``games.append_action`` was given an index other than the next one (e.g. a double write)."""
