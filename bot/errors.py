"""Requests the bot declines, with a sentence for the person who asked."""


class Refusal(Exception):
    """A request the bot declines; ``str(error)`` is the sentence shown to the person."""
