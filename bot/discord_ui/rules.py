"""``/rules`` as pages Discord accepts: the rules text and the house-rule options split between
paragraphs (never inside a rule), each page well inside one embed, with page buttons that keep
working after a restart."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot import render
from bot.discord_ui import limits
from bot.discord_ui.messages import COLOUR, options_text
from bot.discord_ui.reach import table_here
from bot.discord_ui.replies import answering
from bot.engine import find_variant
from bot.tables import Table

PAGE_TEXT = 3500  # characters of text per page: room for the title, fields and footer
OPTIONS_HEADING = "**House rules** — set them with `/table new options:key=value`:"


def option_lines(variant: str) -> str:
    cls = find_variant(variant)
    lines = [
        f"`{spec.name}` ({spec.describe_values()}, default "
        f"{('on' if spec.default else 'off') if spec.is_flag else spec.default}): {spec.help}"
        for spec in cls.option_specs
    ]
    return render.player_text("\n".join(lines)) if lines else "This game has no house-rule options."


def page_texts(variant: str) -> list[tuple[str, str]]:
    """(section, text) per page: the rules, then the house-rule options."""
    cls = find_variant(variant)
    rules = limits.split_text(render.player_text(cls.rules_text), PAGE_TEXT)
    options = limits.split_text(f"{OPTIONS_HEADING}\n{option_lines(variant)}", PAGE_TEXT)
    return [("rules", text) for text in rules] + [("house", text) for text in options]


def rules_page(variant: str, page: int, table: Table | None = None) -> tuple[discord.Embed, discord.ui.View]:
    """One page of a game's rules (clamped to the pages there are) and its buttons. ``table``:
    the table of the channel asking (``reach.table_here``: never one of another guild), whose
    settings the first page shows when it plays this game."""
    cls = find_variant(variant)
    texts = page_texts(cls.name)
    page = min(max(page, 0), len(texts) - 1)
    embed = discord.Embed(
        title=limits.clip(f"{cls.title} — rules", limits.EMBED_TITLE),
        description=texts[page][1],
        colour=COLOUR,
    )
    if page == 0:
        embed.add_field(name="Players", value=", ".join(str(n) for n in cls.player_counts), inline=True)
        if table is not None and table.variant == cls.name:
            limits.add_fields(embed, [(f"This table (#{table.id})", options_text(table))])
    embed.set_footer(text=f"Page {page + 1} of {len(texts)}")
    view = discord.ui.View(timeout=None)
    if len(texts) > 1:
        house = next(i for i, (section, _) in enumerate(texts) if section == "house")
        view.add_item(RulesButton(cls.name, page - 1, "prev", disabled=page == 0))
        view.add_item(RulesButton(cls.name, page + 1, "next", disabled=page == len(texts) - 1))
        view.add_item(RulesButton(cls.name, 0, "rules", disabled=page == 0))
        view.add_item(RulesButton(cls.name, house, "house", disabled=page == house))
    limits.check(embed=embed, view=view)
    return embed, view


LABELS = {"prev": "Previous", "next": "Next", "rules": "Rules", "house": "House rules"}


class RulesButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tn:rules:(?P<variant>[a-z0-9-]+):(?P<page>\d+):(?P<label>[a-z]+)",
):
    """A page button under ``/rules`` (the label part keeps two buttons to one page apart)."""

    def __init__(self, variant: str, page: int, label: str, *, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=LABELS.get(label, "Page"), disabled=disabled, style=discord.ButtonStyle.secondary,
                custom_id=f"tn:rules:{variant}:{max(page, 0)}:{label}",
            )
        )  # fmt: skip
        self.variant, self.page = variant, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> RulesButton:
        return cls(match["variant"], int(match["page"]), match["label"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            embed, view = rules_page(self.variant, self.page, table_here(interaction))
            await interaction.response.edit_message(embed=embed, view=view)

        await answering(interaction, work)


ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (RulesButton,)
