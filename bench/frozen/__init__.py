"""Frozen copies of earlier computer levels, for benches only (the bot never imports this package).

Importing ``bench.frozen`` registers every frozen level (today: ``basic-2026-11``) for each family,
so that ``make_player(family, "basic-2026-11")`` and the duel bench can seat it.
"""

from bench.frozen.basic_2026_11 import LEVEL as BASIC_2026_11

__all__ = ["BASIC_2026_11"]
