"""Slash commands in the player's language: discord.py's ``app_commands.Translator`` over the
catalogs. Descriptions and choice names are translated; command and option names stay as they
are (Discord checks names against its own rules, and people type them)."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import SOURCE, language_of, translate


class CatalogTranslator(app_commands.Translator):
    """Gives Discord the Japanese and French of every command and option description."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        language = language_of(locale)
        if language == SOURCE:
            return None
        names = (
            app_commands.TranslationContextLocation.command_name,
            app_commands.TranslationContextLocation.group_name,
            app_commands.TranslationContextLocation.parameter_name,
        )
        if context.location in names:
            return None
        message = string.message
        translated = translate(message, language)
        return translated if translated != message else None
