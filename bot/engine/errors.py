"""Errors raised by the engine. All are ``ValueError`` subclasses carrying a message a player understands."""

from __future__ import annotations


class EngineError(ValueError):
    """Base class of every error the engine raises for bad input."""


class IllegalAction(EngineError):
    """An action that the rules do not allow for that seat now."""


class BadCard(EngineError):
    """Card or suit text that cannot be parsed."""


class BadAction(EngineError):
    """Action text that cannot be parsed."""


class BadOption(EngineError):
    """An unknown house-rule option or a value it does not accept."""


class UnknownVariant(EngineError):
    """A variant name that is not in the registry."""


class BadGameRecord(EngineError):
    """A saved game (``to_json`` output) that cannot be replayed."""
