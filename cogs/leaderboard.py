"""Per-server leaderboards, player stats, league nights and server settings.

Thin handlers: the store does the counting and rating; this file checks input, checks permissions
and renders.
"""

from __future__ import annotations

import io
import logging
import re
import time
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.discord_ui import (
    FAMILY_CHOICES,
    ORDER_CHOICES,
    VARIANT_CHOICES,
    answers_refusals,
    is_admin,
    reply,
    services,
    services_of,
)
from bot.engine import find_variant, parse_option_pairs
from bot.errors import Refusal
from bot.store import League, StoreError

log = logging.getLogger(__name__)
PAGE = 10
ORDER_NAMES = {c.value: c.name for c in ORDER_CHOICES}


def require_admin(interaction: discord.Interaction) -> None:
    if not is_admin(interaction):
        raise Refusal("You need the Manage Server permission for that.")


async def board_message(
    interaction: discord.Interaction, family: str | None, league_id: int | None, order: str, page: int
) -> tuple[discord.Embed, discord.ui.View]:
    """One page of the leaderboard with Previous/Next buttons."""
    store = services(interaction).store
    guild_id = interaction.guild_id or 0
    total = await store.boards.count(guild_id, family=family, league_id=league_id)
    pages = max(1, -(-total // PAGE))
    page = min(max(page, 0), pages - 1)
    rows = await store.boards.page(
        guild_id, family=family, league_id=league_id, order=order, limit=PAGE, offset=page * PAGE
    )
    scope = {"pitch": "Pitch", "pinochle": "Pinochle", "double-deck": "Double-deck"}.get(
        family or "", "All games"
    )
    title = f"Leaderboard — {scope}" + (" (league)" if league_id else "")
    lines = [
        f"**{row.rank}.** <@{row.user_id}> — rating {row.rating:.1f} · {row.wins}/{row.games} won "
        f"({row.win_pct:.0f}%)"
        for row in rows
    ]
    embed = discord.Embed(title=title, description="\n".join(lines) or "No finished games yet.")
    embed.set_footer(text=f"By {ORDER_NAMES[order]} · page {page + 1} of {pages} · {total} players")
    view = discord.ui.View(timeout=None)
    view.add_item(BoardButton(family, league_id, order, page - 1, "Previous", disabled=page == 0))
    view.add_item(BoardButton(family, league_id, order, page + 1, "Next", disabled=page >= pages - 1))
    return embed, view


class BoardButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tn:lb:(?P<family>[a-z-]*):(?P<league>\d+):(?P<order>[a-z]+):(?P<page>-?\d+):(?P<label>[A-Za-z]+)",
):
    """Previous / Next on a leaderboard message (works after restarts too)."""

    def __init__(self, family: str | None, league_id: int | None, order: str, page: int, label: str,
                 *, disabled: bool = False) -> None:  # fmt: skip
        custom_id = f"tn:lb:{family or ''}:{league_id or 0}:{order}:{page}:{label}"
        super().__init__(discord.ui.Button(label=label, custom_id=custom_id, disabled=disabled))
        self.family, self.league_id, self.order, self.page = family, league_id, order, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> BoardButton:
        league = int(match["league"]) or None
        return cls(match["family"] or None, league, match["order"], int(match["page"]), match["label"])

    async def callback(self, interaction: discord.Interaction) -> None:
        embed, view = await board_message(interaction, self.family, self.league_id, self.order, self.page)
        await interaction.response.edit_message(embed=embed, view=view)


class ResetButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tn:lbreset:(?P<family>[a-z-]*):(?P<user>\d+)",
):
    """The confirmation of ``/leaderboard reset``: only the admin who asked can press it."""

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
        if interaction.user.id != self.user_id or not is_admin(interaction):
            await reply(interaction, "Only the admin who asked for the reset can confirm it.")
            return
        removed = await services(interaction).store.boards.reset(interaction.guild_id or 0, self.family)
        scope = self.family or "every game"
        await interaction.response.edit_message(
            content=f"The leaderboard for {scope} was reset ({removed} results removed).", view=None
        )


def standings_text(league: League, rows: list[Any]) -> str:
    lines = [f"**{league.name}** standings:"]
    lines += [
        f"{row.rank}. <@{row.user_id}> — {row.wins} wins in {row.games} games, {row.points} points"
        for row in rows[:20]
    ]
    return "\n".join(lines) if rows else f"**{league.name}**: no games were finished in this league."


async def end_due_leagues(bot: discord.Client) -> int:
    """End every league past its planned end and post its standings where it was started."""
    store = services_of(bot).store
    ended = 0
    tables = services_of(bot).tables
    for due in await store.leagues.due():
        if not tables.owns_guild(due.guild_id):
            continue  # another process runs this guild's shard and closes its league
        league, rows = await store.leagues.end(due.guild_id)
        ended += 1
        channel = bot.get_channel(league.channel_id) if league.channel_id else None
        if isinstance(channel, discord.abc.Messageable):
            await channel.send(
                "🏆 League over! " + standings_text(league, rows),
                allowed_mentions=discord.AllowedMentions.none(),
            )
    return ended


class LeaderboardCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.league_clock.start()

    async def cog_unload(self) -> None:
        self.league_clock.cancel()

    @tasks.loop(minutes=1)
    async def league_clock(self) -> None:
        """Leagues with a planned end close on time, and their standings are posted."""
        try:
            await end_due_leagues(self.bot)
        except (StoreError, discord.HTTPException) as err:
            log.warning("could not end a due league: %s", err)

    leaderboard = app_commands.Group(
        name="leaderboard", description="This server's leaderboards", guild_only=True
    )
    league = app_commands.Group(name="league", description="League nights", guild_only=True)

    @leaderboard.command(name="show", description="Top players in this server")
    @app_commands.describe(game="Which game family (default: all)", league="Only the running league's games",
                           order="Rank by")  # fmt: skip
    @app_commands.choices(game=FAMILY_CHOICES, order=ORDER_CHOICES)
    @answers_refusals
    async def show(self, interaction: discord.Interaction, game: str | None = None, league: bool = False,
                   order: str = "rating") -> None:  # fmt: skip
        league_id = None
        if league:
            running = await services(interaction).store.leagues.active(interaction.guild_id or 0)
            if running is None:
                raise Refusal("No league is running here. An admin can start one with /league start.")
            league_id = running.id
        embed, view = await board_message(interaction, game, league_id, order, 0)
        await interaction.response.send_message(embed=embed, view=view)

    @leaderboard.command(name="reset", description="Clear this server's results and ratings (Manage Server)")
    @app_commands.describe(game="Only this game family (default: all)")
    @app_commands.choices(game=FAMILY_CHOICES)
    @answers_refusals
    async def reset(self, interaction: discord.Interaction, game: str | None = None) -> None:
        require_admin(interaction)
        view = discord.ui.View(timeout=None)
        view.add_item(ResetButton(game, interaction.user.id))
        scope = game or "every game"
        await reply(interaction, f"Reset the leaderboard for {scope}? This cannot be undone.", view=view)

    @leaderboard.command(
        name="export", description="Every result in this server as a CSV file (Manage Server)"
    )
    @answers_refusals
    async def export(self, interaction: discord.Interaction) -> None:
        require_admin(interaction)
        csv_text = await services(interaction).store.boards.export_csv(interaction.guild_id or 0)
        file = discord.File(io.BytesIO(csv_text.encode()), filename="tricknight-results.csv")
        await interaction.response.send_message("Here are this server's results.", file=file, ephemeral=True)

    @app_commands.command(name="stats", description="A player's games, wins, streaks and ratings here")
    @app_commands.guild_only()
    @answers_refusals
    async def stats(self, interaction: discord.Interaction, user: discord.User | None = None) -> None:
        who = user or interaction.user
        stats = await services(interaction).store.boards.player_stats(interaction.guild_id or 0, who.id)
        embed = discord.Embed(title=f"Stats — {who.display_name}")
        average = f"{stats.average_score:.1f}" if stats.average_score is not None else "—"
        embed.add_field(name="Games", value=f"{stats.games} played, {stats.wins} won ({stats.win_pct:.0f}%)")
        embed.add_field(name="Streaks", value=f"best {stats.best_streak}, current {stats.current_streak}")
        embed.add_field(name="Average score", value=average)
        embed.add_field(name="Favourite", value=stats.favourite_variant or "—")
        ratings = "\n".join(
            f"{r.family}: {r.rating:.1f} ({r.trend:+.1f} over the last games), {r.wins}/{r.games} won"
            for r in stats.ratings
        )
        embed.add_field(name="Ratings", value=ratings or "—", inline=False)
        recent = "\n".join(
            f"{g.variant}: place {g.place}, score {g.score} — <t:{int(g.finished_at)}:R>"
            for g in stats.recent
        )
        embed.add_field(name="Recent games", value=recent or "—", inline=False)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @league.command(name="start", description="Start a league night (Manage Server)")
    @app_commands.describe(name="League name", game="Only this game family counts (default: all)",
                           hours="Ends after this many hours (default: when ended by hand)")  # fmt: skip
    @app_commands.choices(game=FAMILY_CHOICES)
    @answers_refusals
    async def league_start(self, interaction: discord.Interaction, name: str, game: str | None = None,
                           hours: app_commands.Range[float, 0.1, 1440.0] | None = None) -> None:  # fmt: skip
        require_admin(interaction)
        ends = time.time() + hours * 3600 if hours else None
        league = await services(interaction).store.leagues.start(
            interaction.guild_id or 0, name, game, ends, channel_id=interaction.channel_id
        )
        until = f" until <t:{int(ends)}:t>" if ends else ""
        scope = f" ({game})" if game else ""
        await interaction.response.send_message(
            f"League **{league.name}**{scope} has started{until}. Every game finished here counts."
        )

    @league.command(name="status", description="The running league's standings")
    @answers_refusals
    async def league_status(self, interaction: discord.Interaction) -> None:
        store = services(interaction).store
        league = await store.leagues.active(interaction.guild_id or 0)
        if league is None:
            raise Refusal("No league is running here.")
        rows = await store.leagues.standings(league.id)
        await reply(interaction, standings_text(league, rows))

    @league.command(name="end", description="End the league and post its standings (Manage Server)")
    @answers_refusals
    async def league_end(self, interaction: discord.Interaction) -> None:
        require_admin(interaction)
        league, rows = await services(interaction).store.leagues.end(interaction.guild_id or 0)
        await interaction.response.send_message(
            "🏆 League over! " + standings_text(league, rows), allowed_mentions=discord.AllowedMentions.none()
        )

    @app_commands.command(name="settings", description="Server settings for tables (Manage Server)")
    @app_commands.describe(
        turn_timer_minutes="Minutes before a computer plays for an absent player (0 = off)",
        computer_delay="Seconds before a computer's move appears",
        rate_computer_games="Whether games with computer players move ratings",
        game="Set the default house rules of this game", house_rules="key=value pairs for that game",
    )  # fmt: skip
    @app_commands.choices(game=VARIANT_CHOICES)
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    @answers_refusals
    async def settings(
        self, interaction: discord.Interaction,
        turn_timer_minutes: app_commands.Range[int, 0, 1440] | None = None,
        computer_delay: app_commands.Range[float, 0.0, 30.0] | None = None,
        rate_computer_games: bool | None = None, game: str | None = None, house_rules: str | None = None,
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
        if (game is None) != (house_rules is None):
            raise Refusal("Give both game and house_rules to set a game's default house rules.")
        if game is not None and house_rules is not None:
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
        defaults = "; ".join(
            f"{variant}: " + ", ".join(f"{k}={v}" for k, v in opts.items())
            for variant, opts in settings.default_options.items()
        )
        await reply(
            interaction,
            f"Turn timer: {timer} · computer delay: {settings.computer_delay_seconds:g} s · "
            f"computer games rated: {'yes' if settings.rate_computer_games else 'no'}\n"
            f"Default house rules: {defaults or 'none'}",
        )


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(BoardButton, ResetButton)
    await bot.add_cog(LeaderboardCog(bot))
