"""The rules prose is package data: one ``rules/<variant>.md`` per variant, shared passages as fragments."""

from __future__ import annotations

import re
from importlib.resources import files

import pytest

from bot.engine import find_variant, variant_names
from bot.engine.prose import rules_prose

RULES_DIR = files("bot.engine") / "rules"
FILES = {entry.name.removesuffix(".md") for entry in RULES_DIR.iterdir() if entry.name.endswith(".md")}


@pytest.mark.parametrize("name", variant_names())
def test_every_variant_reads_its_rules_file(name: str) -> None:
    text = find_variant(name).rules_text
    assert name in FILES
    assert text == rules_prose(name)
    assert text.strip() == text and len(text) > 400
    assert "{{" not in text and "}}" not in text


def test_every_rules_file_is_a_variant_or_a_used_fragment() -> None:
    raw = {name: (RULES_DIR / f"{name}.md").read_text(encoding="utf-8") for name in FILES}
    used = {fragment for text in raw.values() for fragment in re.findall(r"\{\{(_[a-z0-9-]+)\}\}", text)}
    fragments = {name for name in FILES if name.startswith("_")}
    assert used == fragments
    assert FILES - fragments == set(variant_names())


def test_fragments_are_filled_in_place() -> None:
    six, eight = rules_prose("pinochle-6"), rules_prose("pinochle-8")
    assert six.startswith("Six-Hand Pinochle: 96 cards (two pinochle packs)")
    assert eight.removeprefix("Eight-Hand Pinochle: ") == six.removeprefix("Six-Hand Pinochle: ")
    shared = rules_prose("_pinochle-partnership")
    for name in ("pinochle-4", "pinochle-4-auction", "pinochle-6", "pinochle-8"):
        assert f"\n{shared}\n" in rules_prose(name)
    for name in ("double-deck", "double-deck-npa", "double-deck-pass", "double-deck-toby-thomas"):
        blurb, rest = rules_prose(name).split("\n\n", 1)
        assert blurb.startswith(f"Preset {name}: ") and rest == rules_prose("_double-deck")


def test_a_variant_without_rules_file_is_an_error() -> None:
    with pytest.raises(FileNotFoundError):
        rules_prose("no-such-variant")
