"""The translation function: languages from Discord's locales, the language in force per task,
placeholders filled after translation, plural forms, and the pseudo-language of the tests."""

from __future__ import annotations

import asyncio

from bot.i18n import N_, PSEUDO, _, current, language_of, ngettext, speaking


def test_discord_locales_map_to_the_supported_languages() -> None:
    assert [language_of(tag) for tag in ("ja", "fr", "en-US", "en-GB", "de", None, "FR")] == [
        "ja", "fr", "en", "en", "en", "en", "fr",
    ]  # fmt: skip


def test_english_is_the_source_and_placeholders_are_filled() -> None:
    assert _("{name} bids {amount}.", name="Ann", amount=3) == "Ann bids 3."
    assert _("A brace {kept}") == "A brace {kept}"  # no parameters: nothing is formatted
    assert ngettext("{n} card", "{n} cards", 1) == "1 card"
    assert ngettext("{n} card", "{n} cards", 4) == "4 cards"
    assert N_("marked only") == "marked only"


def test_the_pseudo_language_wraps_every_translated_string_and_keeps_placeholders() -> None:
    with speaking(PSEUDO):
        said = _("{name} bids {amount}.", name="Ann", amount=3)
        assert said.startswith("⟦") and said.endswith("⟧")
        assert "Ann" in said and "3" in said and "bids" not in said


async def test_each_task_speaks_its_own_language() -> None:
    async def said(language: str) -> str:
        with speaking(language):
            await asyncio.sleep(0.01)
            return current()

    assert await asyncio.gather(said("ja"), said("fr"), said("en")) == ["ja", "fr", "en"]
    assert current() == "en"
