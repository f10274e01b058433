"""Discord's documented limits in one place, and the one check every message the bot builds goes
through (``check``), with the helpers that keep long text inside them without cutting a sentence.

Discord answers a message over any limit with HTTP 400 and the person sees "The application did
not respond", so a broken limit is a bug of ours: ``check`` raises ``LimitExceeded`` naming each
one, before anything is sent.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

import discord

from bot import render

# Messages and embeds.
CONTENT = 2000
EMBEDS = 10
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
AUTHOR = 256
EMBED_TOTAL = 6000  # title, description, field names and values, footer and author together
# Components.
ROWS = 5
ROW_BUTTONS = 5
CUSTOM_ID = 100
LABEL = 80
SELECT_OPTIONS = 25
OPTION_TEXT = 100  # a select option's label, value and description
PLACEHOLDER = 150
# Modals.
MODAL_TITLE = 45
INPUT_LABEL = 45
INPUT_PLACEHOLDER = 100
INPUT_VALUE = 4000

ELLIPSIS = "…"


class LimitExceeded(ValueError):
    """Something the bot built breaks one of Discord's limits (a bug: Discord would refuse it)."""

    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = list(problems)


# ----- the check -----------------------------------------------------------------------------------
def check(
    *,
    content: str | None = None,
    embed: discord.Embed | None = None,
    embeds: Sequence[discord.Embed] = (),
    view: discord.ui.View | None = None,
    modal: discord.ui.Modal | None = None,
) -> None:
    """Raise ``LimitExceeded`` unless the message (or modal) is inside every limit."""
    found = problems(content=content, embed=embed, embeds=embeds, view=view, modal=modal)
    if found:
        raise LimitExceeded(found)


def checked(**message: Any) -> dict[str, Any]:
    """The keyword arguments of a send or an edit, unchanged, once ``check`` has passed them:
    ``await channel.send(**limits.checked(content=text, view=view))``."""
    embed, embeds, view = message.get("embed"), message.get("embeds"), message.get("view")
    check(
        content=message.get("content") if isinstance(message.get("content"), str) else None,
        embed=embed if isinstance(embed, discord.Embed) else None,
        embeds=embeds if isinstance(embeds, list | tuple) else (),
        view=view if isinstance(view, discord.ui.View) else None,
    )
    return message


def problems(
    *,
    content: str | None = None,
    embed: discord.Embed | None = None,
    embeds: Sequence[discord.Embed] = (),
    view: discord.ui.View | None = None,
    modal: discord.ui.Modal | None = None,
) -> list[str]:
    """Every limit the message breaks, in words (empty when it is fine)."""
    found: list[str] = []
    if content is not None and len(content) > CONTENT:
        found.append(f"content is {len(content)} characters (limit {CONTENT})")
    every = [*([embed] if embed is not None else []), *embeds]
    if len(every) > EMBEDS:
        found.append(f"{len(every)} embeds (limit {EMBEDS})")
    for index, item in enumerate(every):
        found.extend(f"embed {index + 1}: {p}" for p in embed_problems(dict(item.to_dict())))
    if view is not None:
        found.extend(component_problems(view.to_components()))
    if modal is not None:
        found.extend(modal_problems(modal))
    return found


def _too_long(what: str, value: Any, limit: int) -> list[str]:
    if isinstance(value, str) and len(value) > limit:
        return [f"{what} is {len(value)} characters (limit {limit}): {value[:40]!r}…"]
    return []


def embed_size(data: dict[str, Any]) -> int:
    """The characters Discord counts towards an embed's 6,000."""
    size = len(data.get("title") or "") + len(data.get("description") or "")
    size += sum(len(f.get("name") or "") + len(f.get("value") or "") for f in data.get("fields") or [])
    size += len((data.get("footer") or {}).get("text") or "")
    size += len((data.get("author") or {}).get("name") or "")
    return size


def embed_problems(data: dict[str, Any]) -> list[str]:
    found = _too_long("title", data.get("title"), EMBED_TITLE)
    found += _too_long("description", data.get("description"), EMBED_DESCRIPTION)
    fields = data.get("fields") or []
    if len(fields) > FIELDS:
        found.append(f"{len(fields)} fields (limit {FIELDS})")
    for field in fields:
        found += _too_long("field name", field.get("name"), FIELD_NAME)
        found += _too_long(f"field {field.get('name')!r} value", field.get("value"), FIELD_VALUE)
        if not field.get("name") or not field.get("value"):
            found.append(f"field {field.get('name')!r} has an empty name or value")
    found += _too_long("footer", (data.get("footer") or {}).get("text"), FOOTER)
    found += _too_long("author", (data.get("author") or {}).get("name"), AUTHOR)
    total = embed_size(data)
    if total > EMBED_TOTAL:
        found.append(f"embed is {total} characters in all (limit {EMBED_TOTAL})")
    return found


def component_problems(rows: Sequence[dict[str, Any]]) -> list[str]:
    """Problems of a message's action rows (``View.to_components()`` or a raw payload)."""
    found: list[str] = []
    if len(rows) > ROWS:
        found.append(f"{len(rows)} action rows (limit {ROWS})")
    for number, row in enumerate(rows, 1):
        children = row.get("components") or []
        selects = [c for c in children if c.get("type") in (3, 5, 6, 7, 8)]
        if selects and len(children) > 1:
            found.append(f"row {number}: a select shares its row")
        if len(children) > ROW_BUTTONS:
            found.append(f"row {number}: {len(children)} buttons (limit {ROW_BUTTONS})")
        for child in children:
            found += _item_problems(child)
    return found


def _item_problems(item: dict[str, Any]) -> list[str]:
    found = _too_long("custom_id", item.get("custom_id"), CUSTOM_ID)
    kind = item.get("type")
    if kind == 2:
        found += _too_long("button label", item.get("label"), LABEL)
        if not item.get("label") and not item.get("emoji"):
            found.append("a button has neither label nor emoji")
    elif kind == 3:
        found += _too_long("select placeholder", item.get("placeholder"), PLACEHOLDER)
        options = item.get("options") or []
        if not 1 <= len(options) <= SELECT_OPTIONS:
            found.append(f"select has {len(options)} options (1 to {SELECT_OPTIONS})")
        values = [o.get("value") for o in options]
        if len(set(values)) != len(values):
            found.append("select has repeated option values")
        for option in options:
            for key in ("label", "value", "description"):
                found += _too_long(f"select option {key}", option.get(key), OPTION_TEXT)
    elif kind == 4:
        found += _too_long("text input label", item.get("label"), INPUT_LABEL)
        found += _too_long("text input placeholder", item.get("placeholder"), INPUT_PLACEHOLDER)
        found += _too_long("text input value", item.get("value"), INPUT_VALUE)
    return found


def modal_problems(modal: discord.ui.Modal) -> list[str]:
    found = _too_long("modal title", modal.title, MODAL_TITLE)
    found += _too_long("modal custom_id", modal.custom_id, CUSTOM_ID)
    rows = modal.to_components()
    if not 1 <= len(rows) <= ROWS:
        found.append(f"modal has {len(rows)} rows (1 to {ROWS})")
    for row in rows:
        for child in row.get("components") or []:
            found += _item_problems(child)
        if row.get("type") == 18:  # a label wrapping one input (discord.py 2.6+)
            found += _too_long("modal label", row.get("label"), INPUT_LABEL)
            component = row.get("component")
            if isinstance(component, dict):
                found += _item_problems(component)
    return found


# ----- staying inside ------------------------------------------------------------------------------
def clip(text: str, limit: int) -> str:
    """``text`` if it fits, else cut at a word boundary with an ellipsis (for names and labels,
    never for rules: those are split with ``split_text``)."""
    if len(text) <= limit:
        return text
    cut = text[: limit - len(ELLIPSIS)]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut.rstrip() + ELLIPSIS


_SENTENCE_END = re.compile(r"(?<=[.;:!?)])\s+")


def split_text(text: str, limit: int) -> list[str]:
    """Pieces of at most ``limit`` characters, split between paragraphs (lines) where possible,
    else between sentences, else between words: never inside a word."""
    pieces: list[str] = []
    current = ""
    for paragraph in text.split("\n"):
        parts = [paragraph] if len(paragraph) <= limit else _split_long(paragraph, limit)
        for part in parts:
            candidate = f"{current}\n{part}" if current else part
            if len(candidate) <= limit:
                current = candidate
            else:
                if current:
                    pieces.append(current)
                current = part
    if current or not pieces:
        pieces.append(current)
    return pieces


def _split_long(paragraph: str, limit: int) -> list[str]:
    """One over-long paragraph as sentence-sized (or, failing that, word-sized) lines."""
    out: list[str] = []
    current = ""
    for sentence in _SENTENCE_END.split(paragraph):
        words = [sentence] if len(sentence) <= limit else sentence.split(" ")
        for word in words:
            while len(word) > limit:  # one "word" longer than the limit: nothing better to do
                out.append(word[:limit])
                word = word[limit:]
            candidate = f"{current} {word}" if current else word
            if len(candidate) <= limit:
                current = candidate
            else:
                out.append(current)
                current = word
    if current:
        out.append(current)
    return out


def split_field(name: str, value: str) -> list[tuple[str, str]]:
    """One embed field, or several (``name``, ``name (cont.)``) when the value is over 1,024."""
    name = clip(name, FIELD_NAME - len(" (cont.)"))
    parts = split_text(value or "—", FIELD_VALUE)
    return [(name if i == 0 else f"{name} (cont.)", part) for i, part in enumerate(parts)]


def add_fields(
    embed: discord.Embed, fields: Iterable[tuple[str, str]], *, inline: Iterable[str] = ()
) -> discord.Embed:
    """Add (name, value) fields, splitting long values, keeping to 25 fields and 6,000 in all:
    fields that do not fit are left out and the footer says so."""
    inline_names = set(inline)
    left_out = 0
    for name, value in fields:
        for part_name, part_value in split_field(name, value):
            size = embed_size(dict(embed.to_dict())) + len(part_name) + len(part_value)
            if len(embed.fields) >= FIELDS or size > EMBED_TOTAL - 100:  # room for the footer note
                left_out += 1
                continue
            embed.add_field(name=part_name, value=part_value, inline=name in inline_names)
    if left_out:
        footer = embed.footer.text or ""
        note = f"({render.count(left_out, 'more part')} left out: too long for one message)"
        embed.set_footer(text=clip(f"{footer} {note}".strip(), FOOTER))
    return embed


def split_content(text: str) -> list[str]:
    """A message's text as one or more messages of at most 2,000 characters, split between lines."""
    return split_text(text, CONTENT)
