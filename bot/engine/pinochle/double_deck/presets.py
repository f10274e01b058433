"""The double-deck presets as data: each is a variant of its own (a ``DoubleDeck`` subclass
registered under the preset's name) with some option defaults changed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from bot.engine.game import register
from bot.engine.pinochle.double_deck.game import DoubleDeck
from bot.engine.pinochle.double_deck.options import with_defaults
from bot.engine.prose import rules_prose


class Preset(NamedTuple):
    """One preset: its class name, title and changed option defaults (its rules text is
    ``rules/<variant name>.md``)."""

    class_name: str
    title: str
    defaults: Mapping[str, Any]


PRESETS: dict[str, Preset] = {
    "double-deck": Preset("DoubleDeckStandard", "Double-Deck Pinochle", {}),
    "double-deck-npa": Preset("DoubleDeckNPA", "Double-Deck Pinochle (NPA meld scores)", {"meld": "npa"}),
    "double-deck-toby-thomas": Preset(
        "DoubleDeckTobyThomas",
        "Double-Deck Pinochle (Toby Thomas)",
        {
            "meld": "toby-thomas",
            "bidding": "toby-thomas",
            "pass": 3,
            "pass-order": "partner-first",
            "pass-when": "before-trump",
            "ask": "must-give",
        },
    ),
    "double-deck-pass": Preset("DoubleDeckPass", "Double-Deck Pinochle (3-card pass)", {"pass": 3}),
    "double-deck-jim-davis": Preset(
        "DoubleDeckJimDavis",
        "Double-Deck Pinochle (Jim Davis's passing game)",
        {"bidding": "any", "pass": 4},
    ),
}
"""Every preset by variant name, in registration order."""


def _preset_class(name: str, preset: Preset) -> type[DoubleDeck]:
    """The registered variant of one preset."""
    namespace: dict[str, Any] = {
        "__module__": __name__,
        "__qualname__": preset.class_name,
        "name": name,
        "title": preset.title,
        "rules_text": rules_prose(name),
    }
    if preset.defaults:
        namespace["option_specs"] = with_defaults(preset.defaults)
    return register(type(preset.class_name, (DoubleDeck,), namespace))


PRESET_CLASSES: dict[str, type[DoubleDeck]] = {name: _preset_class(name, p) for name, p in PRESETS.items()}
"""The variant class of each preset, by variant name."""
