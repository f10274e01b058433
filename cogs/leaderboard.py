"""Per-server leaderboards, player stats and league standings (the admin side is ``cogs.admin``).

Thin handlers: the store does the counting and rating; this file checks input and renders.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot import render
from bot.discord_ui import (
    FAMILY_CHOICES,
    ORDER_CHOICES,
    answering,
    answers_refusals,
    limits,
    reply,
    services,
    services_of,
    standings_text,
)
from bot.discord_ui.history import (
    CHART_FILE,
    STANDINGS_FILE,
    as_file,
    board_files,
    league_files,
    may_attach,
    stats_chart,
)
from bot.discord_ui.pictures import can_attach
from bot.errors import Refusal
from bot.store import StoreError
from bot.store.ratings import computer_player_name, default_rating

log = logging.getLogger(__name__)
PAGE = 10
ORDER_NAMES = {c.value: c.name for c in ORDER_CHOICES}
NEW_SIGMA = default_rating()[1]  # a rated game always lowers it
UNRATED = "no rated games here yet (games with computer players are unrated unless an admin turns that on)"


async def board_message(
    interaction: discord.Interaction, family: str | None, league_id: int | None, order: str, page: int
) -> tuple[discord.Embed, discord.ui.View, list[discord.File]]:
    """One page of the leaderboard with Previous/Next buttons, and the page as a compact card
    (the text stays). Until someone has played a rated game every rating is 0, so the board goes
    by wins and shows no rating."""
    if order not in ORDER_NAMES or (league_id or 0) >= 2**63:  # a forged or damaged button
        raise Refusal("That leaderboard button is damaged. Use /leaderboard show for a fresh one.")
    store = services(interaction).store
    guild_id = interaction.guild_id or 0
    rated = await store.boards.any_rated(guild_id, family=family)
    shown_order = order if rated or order != "rating" else "wins"
    total = await store.boards.count(guild_id, family=family, league_id=league_id)
    pages = max(1, -(-total // PAGE))
    page = min(max(page, 0), pages - 1)
    rows = await store.boards.page(
        guild_id, family=family, league_id=league_id, order=shown_order, limit=PAGE, offset=page * PAGE
    )
    scope = {"pitch": "Pitch", "pinochle": "Pinochle", "double-deck": "Double-deck"}.get(
        family or "", "All games"
    )
    title = f"Leaderboard — {scope}" + (" (league)" if league_id else "")
    lines = [
        f"**{row.rank}.** {computer_player_name(row.user_id) or f'<@{row.user_id}>'} — "
        + (f"rating {row.rating:.1f} · " if rated else "")
        + f"{row.wins}/{render.count(row.games, 'game')} won ({row.win_pct:.0f}%)"
        for row in rows
    ]
    embed = discord.Embed(title=title, description="\n".join(lines) or "No finished games yet.")
    by = f"By {ORDER_NAMES[shown_order]}" + (f" ({UNRATED})" if shown_order != order else "")
    embed.set_footer(
        text=limits.clip(
            f"{by} · page {page + 1} of {pages} · {render.count(total, 'player')}", limits.FOOTER
        )
    )
    view = discord.ui.View(timeout=None)
    view.add_item(BoardButton(family, league_id, order, page - 1, "Previous", disabled=page == 0))
    view.add_item(BoardButton(family, league_id, order, page + 1, "Next", disabled=page >= pages - 1))
    limits.check(embed=embed, view=view)
    files = await board_files(
        store, interaction.guild, title, rows, rated=rated, allowed=may_attach(interaction)
    )
    if files:
        embed.set_image(url=f"attachment://{STANDINGS_FILE}")
    return embed, view, files


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
        async def work() -> None:
            embed, view, files = await board_message(
                interaction, self.family, self.league_id, self.order, self.page
            )
            await interaction.response.edit_message(embed=embed, view=view, attachments=files)

        await answering(interaction, work)


async def end_due_leagues(bot: discord.Client) -> int:
    """End every league past its planned end (each in one transaction, standings included), then
    post the standings of every ended league whose standings have not reached its channel yet:
    also those of a league closed just before the bot stopped."""
    store = services_of(bot).store
    ended = 0
    tables = services_of(bot).tables
    for due in await store.leagues.due():
        if not tables.owns_guild(due.guild_id):
            continue  # another process runs this guild's shard and closes its league
        await store.leagues.end(due.guild_id)
        ended += 1
    await post_standings(bot)
    return ended


async def post_standings(bot: discord.Client) -> int:
    """Post the final standings of ended leagues not yet posted where they were started; each is
    marked posted once its message is out (so a stop in between posts it at the next start)."""
    store, tables = services_of(bot).store, services_of(bot).tables
    posted = 0
    for league in await store.leagues.unposted():
        if not tables.owns_guild(league.guild_id):
            continue
        assert league.channel_id is not None
        channel = bot.get_channel(league.channel_id)
        if channel is None:
            try:
                channel = await bot.fetch_channel(league.channel_id)
            except (discord.NotFound, discord.Forbidden):
                log.warning("league %s: its channel %s is gone; standings not posted", league.id,
                            league.channel_id)  # fmt: skip
                await store.leagues.mark_posted(league.id)  # nowhere to post them, ever
                continue
        if not isinstance(channel, discord.abc.Messageable):
            await store.leagues.mark_posted(league.id)
            continue
        rows = await store.leagues.standings(league.id)
        guild = bot.get_guild(league.guild_id)
        files = await league_files(store, guild, league, rows, allowed=can_attach(channel))
        await channel.send(
            **limits.checked(content="🏆 League over! " + standings_text(league, rows)), files=files
        )
        await store.leagues.mark_posted(league.id)
        posted += 1
    return posted


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
            log.warning("could not end a due league or post its standings: %s", err)

    @league_clock.before_loop
    async def until_ready(self) -> None:
        # Channels are known only once the guilds have arrived: posting earlier would find none.
        await self.bot.wait_until_ready()

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
                raise Refusal("No league is running here. An admin can start one with /admin league-start.")
            league_id = running.id
        embed, view, files = await board_message(interaction, game, league_id, order, 0)
        await interaction.response.send_message(embed=embed, view=view, files=files)

    @app_commands.command(name="stats", description="A player's games, wins, streaks and ratings here")
    @app_commands.describe(
        user="Whose stats (default: yours)", share="Show them to the channel (default: only you)"
    )
    @app_commands.guild_only()
    @answers_refusals
    async def stats(
        self, interaction: discord.Interaction, user: discord.User | None = None, share: bool = False
    ) -> None:
        who = user or interaction.user
        stats = await services(interaction).store.boards.player_stats(interaction.guild_id or 0, who.id)
        embed = discord.Embed(title=limits.clip(f"Stats — {who.display_name}", limits.EMBED_TITLE))
        average = f"{stats.average_score:.1f}" if stats.average_score is not None else "—"
        ratings = "\n".join(
            f"{r.family}: {r.rating:.1f} ({r.trend:+.1f} over the last games), {r.wins}/{r.games} won"
            if r.sigma < NEW_SIGMA
            else f"{r.family}: not rated yet (no rated game), {r.wins}/{r.games} won"
            for r in stats.ratings
        )
        recent = "\n".join(
            f"{g.variant}: place {g.place}, score {g.score} — <t:{int(g.finished_at)}:R>"
            for g in stats.recent
        )
        games = f"{render.count(stats.games, 'game')} played, {stats.wins} won ({stats.win_pct:.0f}%)"
        limits.add_fields(
            embed,
            [
                ("Games", games),
                ("Streaks", f"best {stats.best_streak}, current {stats.current_streak}"),
                ("Average score", average),
                ("Favourite", stats.favourite_variant or "—"),
                ("Ratings", ratings or "—"),
                ("Recent games", recent or "—"),
            ],
            inline=("Games", "Streaks", "Average score", "Favourite"),
        )
        chart = None
        if may_attach(interaction):  # the trend as a picture; the Ratings field says it in words
            chart = await stats_chart(services(interaction).store, interaction.guild_id or 0, who.id,
                                      who.display_name)  # fmt: skip
        files = [as_file(chart, CHART_FILE)] if chart is not None else []
        if files:
            embed.set_image(url=f"attachment://{CHART_FILE}")
        if share:
            await interaction.response.send_message(**limits.checked(embed=embed), files=files)
        else:
            await reply(interaction, None, embed=embed, files=files)

    @league.command(name="status", description="The running league's standings")
    @answers_refusals
    async def league_status(self, interaction: discord.Interaction) -> None:
        store = services(interaction).store
        league = await store.leagues.active(interaction.guild_id or 0)
        if league is None:
            raise Refusal("No league is running here.")
        rows = await store.leagues.standings(league.id)
        files = await league_files(store, interaction.guild, league, rows, allowed=may_attach(interaction))
        await reply(interaction, standings_text(league, rows), files=files)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(BoardButton)
    await bot.add_cog(LeaderboardCog(bot))
