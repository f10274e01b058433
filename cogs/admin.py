"""``/admin …``: the server admins' tools under one top-level command.

Discord hides only whole top-level commands from members, so every admin tool is a subcommand of
``/admin``, whose default permissions ask for Manage Server: members never see it. Rights are
still checked when a subcommand runs (a server can change a command's permissions).
"""

from __future__ import annotations

import io
import re
import time
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import render
from bot.discord_ui import (
    FAMILY_CHOICES,
    VARIANT_CHOICES,
    answering,
    answers_refusals,
    check_length,
    is_admin,
    limits,
    reply,
    services,
    standings_text,
)
from bot.discord_ui.history import league_files, may_attach
from bot.engine import find_variant, parse_option_pairs
from bot.errors import Refusal

MAX_HOUSE_RULES_TEXT = 400  # key=value pairs: every option of a variant fits easily


THREAD_WORDS = {
    "public": "each in a public thread of its own",
    "private": "each in a private thread of its own",
    "off": "in the channel itself (one per channel)",
}
THREAD_CHOICES = [
    app_commands.Choice(name="A public thread per table", value="public"),
    app_commands.Choice(name="A private thread per table (players are added)", value="private"),
    app_commands.Choice(name="No threads: in the channel (one table per channel)", value="off"),
]


def require_admin(interaction: discord.Interaction) -> None:
    if not is_admin(interaction):
        raise Refusal("You need the Manage Server permission for that.")


def shown_value(value: Any) -> str:
    """House-rule values as people type them (``on``/``off``, not True/False)."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


class ResetButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tn:lbreset:(?P<family>[a-z-]*):(?P<user>\d+)",
):
    """The confirmation of ``/admin leaderboard-reset``: only the admin who asked can press it."""

    def __init__(self, family: str | None, user_id: int) -> None:
        super().__init__(
            discord.ui.Button(label="Yes, reset it", style=discord.ButtonStyle.danger,
                              custom_id=f"tn:lbreset:{family or ''}:{user_id}")
        )  # fmt: skip
        self.family, self.user_id = family, user_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ResetButton:
        return cls(match["family"] or None, int(match["user"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            if interaction.user.id != self.user_id or not is_admin(interaction):
                raise Refusal("Only the admin who asked for the reset can confirm it.")
            removed = await services(interaction).store.boards.reset(interaction.guild_id or 0, self.family)
            scope = self.family or "every game"
            done = f"The leaderboard for {scope} was reset ({render.count(removed, 'result')} removed)."
            await interaction.response.edit_message(**limits.checked(content=done, view=None))

        await answering(interaction, work)


class AdminCog(commands.Cog):
    admin = app_commands.Group(
        name="admin",
        description="Server admin tools (Manage Server)",
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    @admin.command(name="leaderboard-reset", description="Clear this server's results and ratings")
    @app_commands.describe(game="Only this game family (default: all)")
    @app_commands.choices(game=FAMILY_CHOICES)
    @answers_refusals
    async def leaderboard_reset(self, interaction: discord.Interaction, game: str | None = None) -> None:
        require_admin(interaction)
        view = discord.ui.View(timeout=None)
        view.add_item(ResetButton(game, interaction.user.id))
        scope = game or "every game"
        await reply(interaction, f"Reset the leaderboard for {scope}? This cannot be undone.", view=view)

    @admin.command(name="leaderboard-export", description="Every result in this server as a CSV file")
    @answers_refusals
    async def leaderboard_export(self, interaction: discord.Interaction) -> None:
        require_admin(interaction)
        csv_text = await services(interaction).store.boards.export_csv(interaction.guild_id or 0)
        file = discord.File(io.BytesIO(csv_text.encode()), filename="tricknight-results.csv")
        await reply(interaction, "Here are this server's results.", file=file)

    @admin.command(name="league-start", description="Start a league night")
    @app_commands.describe(name="League name", game="Only this game family counts (default: all)",
                           hours="Ends after this many hours (default: when ended by hand)")  # fmt: skip
    @app_commands.choices(game=FAMILY_CHOICES)
    @answers_refusals
    async def league_start(self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 80],
                           game: str | None = None,
                           hours: app_commands.Range[float, 0.1, 1440.0] | None = None) -> None:  # fmt: skip
        require_admin(interaction)
        ends = time.time() + hours * 3600 if hours else None
        league = await services(interaction).store.leagues.start(
            interaction.guild_id or 0, name, game, ends, channel_id=interaction.channel_id
        )
        until = f" until <t:{int(ends)}:t>" if ends else ""
        scope = f" ({game})" if game else ""
        await interaction.response.send_message(
            **limits.checked(
                content=f"League **{league.name}**{scope} has started{until}. "
                "Every game finished here counts."
            ),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @admin.command(name="league-end", description="End the league and post its standings")
    @answers_refusals
    async def league_end(self, interaction: discord.Interaction) -> None:
        require_admin(interaction)
        store = services(interaction).store
        league, rows = await store.leagues.end(interaction.guild_id or 0)
        files = await league_files(store, interaction.guild, league, rows, allowed=may_attach(interaction))
        await interaction.response.send_message(
            **limits.checked(content="🏆 League over! " + standings_text(league, rows)),
            allowed_mentions=discord.AllowedMentions.none(),
            files=files,
        )
        await store.leagues.mark_posted(league.id)  # else the league clock posts them where it began

    @admin.command(name="settings", description="Server settings for tables")
    @app_commands.describe(
        turn_timer_minutes="Minutes before a computer plays for an absent player (0 = off)",
        computer_delay="Seconds before a computer's move appears",
        rate_computer_games="Whether games with computer players move ratings",
        game="Set the default house rules of this game", house_rules="key=value pairs for that game",
        table_threads="Where /table new opens a table: its own public or private thread, or the channel",
    )  # fmt: skip
    @app_commands.choices(game=VARIANT_CHOICES, table_threads=THREAD_CHOICES)
    @answers_refusals
    async def settings(
        self, interaction: discord.Interaction,
        turn_timer_minutes: app_commands.Range[int, 0, 1440] | None = None,
        computer_delay: app_commands.Range[float, 0.0, 30.0] | None = None,
        rate_computer_games: bool | None = None, game: str | None = None, house_rules: str | None = None,
        table_threads: str | None = None,
    ) -> None:  # fmt: skip
        require_admin(interaction)
        store = services(interaction).store
        guild_id = interaction.guild_id or 0
        changes: dict[str, Any] = {}
        if turn_timer_minutes is not None:
            changes["turn_timeout_seconds"] = turn_timer_minutes * 60
        if computer_delay is not None:
            changes["computer_delay_seconds"] = float(computer_delay)
        if rate_computer_games is not None:
            changes["rate_computer_games"] = rate_computer_games
        if table_threads is not None:
            changes["table_threads"] = table_threads
        if (game is None) != (house_rules is None):
            raise Refusal("Give both game and house_rules to set a game's default house rules.")
        if game is not None and house_rules is not None:
            check_length(house_rules, "list of house rules", MAX_HOUSE_RULES_TEXT)
            current = (await store.settings.get(guild_id)).default_options
            pairs = parse_option_pairs(house_rules.replace(",", " ").split())
            find_variant(game)
            changes["default_options"] = {**current, game: pairs}
        settings = (
            await services(interaction).tables.update_settings(guild_id, **changes)
            if changes
            else (await store.settings.get(guild_id))
        )
        timer = f"{settings.turn_timeout_seconds // 60} min" if settings.turn_timeout_seconds else "off"
        embed = discord.Embed(title="Default house rules")
        limits.add_fields(
            embed,
            [
                (variant, " ".join(f"{k}={shown_value(v)}" for k, v in opts.items()) or "—")
                for variant, opts in settings.default_options.items()
            ],
        )
        if not embed.fields:
            embed.description = "None: every game starts with its own defaults (see /rules)."
        await reply(
            interaction,
            f"Turn timer: {timer} · computer delay: {settings.computer_delay_seconds:g} s · "
            f"computer games rated: {'yes' if settings.rate_computer_games else 'no'} · "
            f"new tables: {THREAD_WORDS[settings.table_threads]}",
            embed=embed,
        )


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(ResetButton)
    await bot.add_cog(AdminCog())
