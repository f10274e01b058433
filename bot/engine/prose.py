"""The player-facing rules of each variant, kept as package data in ``bot/engine/rules/<name>.md``.

A variant's file is its ``rules_text`` as players read it, line breaks included. A passage several
variants share lives in a fragment file whose name starts with ``_`` and is written into a rules file
as ``{{_fragment}}`` (replaced by the fragment's text, which may use fragments itself).
"""

from __future__ import annotations

import re
from functools import cache
from importlib.resources import files

_FRAGMENT = re.compile(r"\{\{(_[a-z0-9-]+)\}\}")


@cache
def rules_prose(name: str) -> str:
    """The rules text stored as ``rules/<name>.md``, fragments filled in (one final newline of the
    file dropped). Raises ``FileNotFoundError`` when the variant has no rules file."""
    text = (files("bot.engine") / "rules" / f"{name}.md").read_text(encoding="utf-8")
    text = text.removesuffix("\n")
    return _FRAGMENT.sub(lambda match: rules_prose(match.group(1)), text)
