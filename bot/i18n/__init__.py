"""Players in their own language: one translation function over gettext catalogs.

English is the source language: every player-facing string is written in English in the code and
goes through ``_`` (or ``ngettext`` where a number decides its form), with named ``{placeholders}``
for what varies, so a translation may put them in its own order. The catalogs are gettext ``.po``
files in ``bot/i18n/locale/<language>/LC_MESSAGES/tricknight-<part>.po`` (one per part of the bot;
extracted with Babel, see the README), compiled to ``.mo`` when the wheel is built
(``hatch_build.py``); a checkout without the compiled files compiles them in memory at first use.

Which language a message is built in is the ``language`` in force (a ``ContextVar``, so each
task has its own): ``with speaking("ja"):`` around what one person sees (their locale, from
``interaction.locale``), or the server's language around a public message. ``N_`` marks a
constant for extraction and leaves it in English (it is translated where it is shown).

A pseudo-language, ``PSEUDO``, wraps every translated string in ``⟦…⟧`` and accents its letters
(placeholders left as they are): tests run whole games in it and find any English that does not
go through ``_``.
"""

from __future__ import annotations

import contextlib
import functools
import gettext
import io
import re
from collections.abc import Iterator
from contextvars import ContextVar
from importlib.resources import files
from typing import Any

DOMAIN = "tricknight"
SOURCE = "en"
LANGUAGES = ("en", "ja", "fr")
PSEUDO = "qps"  # BCP 47's private-use pseudo-locale tag: tests only
NAMES = {"en": "English", "ja": "日本語", "fr": "Français"}

_language: ContextVar[str] = ContextVar("tricknight_language", default=SOURCE)
_PLACEHOLDER = re.compile(r"\{[a-z_][a-z0-9_]*(?:![rsa])?(?::[^{}]*)?\}")


def language_of(tag: object) -> str:
    """The supported language for a Discord locale (``discord.Locale`` or its value: ``ja``,
    ``fr``, ``en-US``, …) or a language code; English for anything else."""
    text = str(getattr(tag, "value", tag) or "").lower()
    code = text.split("-")[0].split("_")[0]
    if code in LANGUAGES or text == PSEUDO:
        return text if text == PSEUDO else code
    return SOURCE


def current() -> str:
    """The language messages are built in now."""
    return _language.get()


@contextlib.contextmanager
def speaking(language: str) -> Iterator[None]:
    """Build the messages of this block in ``language`` (a supported code, or ``PSEUDO``)."""
    token = _language.set(language if language in (*LANGUAGES, PSEUDO) else SOURCE)
    try:
        yield
    finally:
        _language.reset(token)


def _format(template: str, params: dict[str, Any]) -> str:
    return template.format(**params) if params else template


def _(message: str, /, **params: Any) -> str:
    """``message`` in the language in force, its ``{placeholders}`` filled from ``params``."""
    return _format(_catalog(current()).gettext(message), params)


def ngettext(singular: str, plural: str, n: int, /, **params: Any) -> str:
    """The form of ``singular``/``plural`` for the number ``n`` in the language in force (each
    language has its own plural rules); ``{n}`` and the other placeholders are filled."""
    return _format(_catalog(current()).ngettext(singular, plural, n), {"n": n, **params})


def N_(message: str, /) -> str:  # noqa: N802 (gettext's own name for it)
    """Marks ``message`` for the catalogs and leaves it as it is (translate it where shown)."""
    return message


def translate(message: str, language: str, /, **params: Any) -> str:
    """``message`` in ``language`` whatever is in force (e.g. a command's localized name)."""
    with speaking(language):
        return _(message, **params)


# ----- catalogs -------------------------------------------------------------------------------------
class _Pseudo(gettext.NullTranslations):
    """Every string wrapped and accented, placeholders kept: English that escapes ``_`` shows."""

    _ACCENTS = str.maketrans("aeiouyAEIOUYcnCN", "àéîõüÿÅÉÎÕÜŸçñÇÑ")

    def _mark(self, text: str) -> str:
        parts = _PLACEHOLDER.split(text)
        holders = _PLACEHOLDER.findall(text)
        out = [parts[0].translate(self._ACCENTS)]
        for holder, part in zip(holders, parts[1:], strict=True):
            out += [holder, part.translate(self._ACCENTS)]
        return "⟦" + "".join(out) + "⟧"

    def gettext(self, message: str) -> str:
        return self._mark(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return self._mark(msgid1 if n == 1 else msgid2)


def locale_folder() -> Any:
    """Where the catalogs are (inside the package, in a checkout and in the wheel alike)."""
    return files("bot.i18n") / "locale"


@functools.cache
def _catalog(language: str) -> gettext.NullTranslations:
    """Every catalog of ``language`` as one: ``tricknight*.po`` files (one per part of the bot, so
    their translators never edit one file at once), compiled ``.mo`` preferred, chained."""
    if language == PSEUDO:
        return _Pseudo()
    if language == SOURCE:
        return gettext.NullTranslations()
    folder = locale_folder() / language / "LC_MESSAGES"
    if not folder.is_dir():
        return gettext.NullTranslations()
    sources = sorted((f for f in folder.iterdir() if f.name.endswith(".po")), key=lambda f: f.name)
    chain: gettext.NullTranslations | None = None
    for source in sources:
        compiled = folder / (source.name[:-3] + ".mo")
        data = compiled.read_bytes() if compiled.is_file() else compile_po(source.read_bytes(), language)
        part = gettext.GNUTranslations(io.BytesIO(data))
        if chain is None:
            chain = part
        else:
            chain.add_fallback(part)
    return chain or gettext.NullTranslations()


def compile_po(po: bytes, language: str) -> bytes:
    """A ``.po`` catalog compiled to ``.mo`` bytes (Babel), fuzzy entries left out."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    catalog = read_po(io.BytesIO(po), locale=language)
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def forget_catalogs() -> None:
    """Load the catalogs again at next use (tests that edit them)."""
    _catalog.cache_clear()


__all__ = [
    "LANGUAGES",
    "NAMES",
    "N_",
    "PSEUDO",
    "SOURCE",
    "_",
    "compile_po",
    "current",
    "forget_catalogs",
    "language_of",
    "ngettext",
    "speaking",
    "translate",
]
