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
from bot.discord_ui.leagues import (
    Pace,
    league_choices,
    league_state,
    league_times,
    pick_league,
    pick_season,
    season_choices,
    start_announcement,
)
from bot.discord_ui.pictures import can_attach
from bot.errors import Refusal
from bot.store import FamilyRating, League, Season, Store, StoreError, StoreRefusal
from bot.store.ratings import computer_player_name, default_rating

log = logging.getLogger(__name__)
PAGE = 10
ORDER_NAMES = {c.value: c.name for c in ORDER_CHOICES}
NEW_SIGMA = default_rating()[1]  # a rated game always lowers it
LEAGUE_CLOCK_SECONDS = 20
UNRATED = "no rated games here yet (games with computer players are unrated unless an admin turns that on)"


async def board_message(
    interaction: discord.Interaction, family: str | None, league_id: int | None, order: str, page: int,
    *, season: Season | None = None, seasons_exist: bool = False,
) -> tuple[discord.Embed, discord.ui.View, list[discord.File]]:  # fmt: skip
    """One page of the leaderboard (all time, a league's games, or one season's ratings) with
    Previous/Next buttons, and the page as a compact card (the text stays). Until someone has
    played a rated game every rating is 0, so the board goes by wins and shows no rating.
    ``seasons_exist``: the title says "all time" (there are seasons to tell it from)."""
    if order not in ORDER_NAMES or (league_id or 0) >= 2**63:  # a forged or damaged button
        raise Refusal("That leaderboard button is damaged. Use /leaderboard show for a fresh one.")
    store = services(interaction).store
    guild_id = interaction.guild_id or 0
    if season is not None:
        rated = await store.seasons.any_rated(season.id, family=family)
        total = await store.seasons.count(season.id, family=family)
    else:
        rated = await store.boards.any_rated(guild_id, family=family)
        total = await store.boards.count(guild_id, family=family, league_id=league_id)
    shown_order = order if rated or order != "rating" else "wins"
    pages = max(1, -(-total // PAGE))
    page = min(max(page, 0), pages - 1)
    if season is not None:
        rows = await store.seasons.page(
            season.id, family=family, order=shown_order, limit=PAGE, offset=page * PAGE
        )
    else:
        rows = await store.boards.page(
            guild_id, family=family, league_id=league_id, order=shown_order, limit=PAGE, offset=page * PAGE
        )
    scope = {"pitch": "Pitch", "pinochle": "Pinochle", "double-deck": "Double-deck"}.get(
        family or "", "All games"
    )
    title = f"Leaderboard — {scope}" + (" (league)" if league_id else "")
    if season is not None:
        title = limits.clip(f"{title} · season {season.name}", limits.EMBED_TITLE)
    elif seasons_exist and not league_id:
        title += " · all time"
    lines = [
        f"**{row.rank}.** {computer_player_name(row.user_id) or f'<@{row.user_id}>'} — "
        + (f"rating {render.rating(row.rating)} · " if rated else "")
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
    if season is not None:
        view.add_item(SeasonBoardButton(season.id, family, order, page - 1, "Previous", disabled=page == 0))
        view.add_item(
            SeasonBoardButton(season.id, family, order, page + 1, "Next", disabled=page >= pages - 1)
        )
    else:
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


class SeasonBoardButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tn:lbs:(?P<season>\d{1,19}):(?P<family>[a-z-]*):(?P<order>[a-z]+):(?P<page>-?\d{1,6}):(?P<label>[A-Za-z]+)",
):
    """Previous / Next on a season's leaderboard (works after restarts too; the season is looked
    up again within the clicking server)."""

    def __init__(self, season_id: int, family: str | None, order: str, page: int, label: str,
                 *, disabled: bool = False) -> None:  # fmt: skip
        custom_id = f"tn:lbs:{season_id}:{family or ''}:{order}:{page}:{label}"
        super().__init__(discord.ui.Button(label=label, custom_id=custom_id, disabled=disabled))
        self.season_id, self.family, self.order, self.page = season_id, family, order, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> SeasonBoardButton:
        family = match["family"] or None
        return cls(int(match["season"]), family, match["order"], int(match["page"]), match["label"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            store = services(interaction).store
            season = await store.seasons.get(self.season_id) if self.season_id < 2**63 else None
            if season is None or season.guild_id != (interaction.guild_id or 0):
                raise Refusal("That leaderboard button is damaged. Use /leaderboard show for a fresh one.")
            embed, view, files = await board_message(
                interaction, self.family, None, self.order, self.page, season=season
            )
            await interaction.response.edit_message(embed=embed, view=view, attachments=files)

        await answering(interaction, work)


async def end_due_leagues(bot: discord.Client) -> int:
    """End every league past its planned end (each in one transaction, standings included), then
    post the standings of every ended league whose standings have not reached its channel yet:
    also those of a league closed just before the bot stopped. Then announce the scheduled
    leagues that have started (also those that started while the bot was down)."""
    store = services_of(bot).store
    ended = 0
    tables = services_of(bot).tables
    for due in await store.leagues.due():
        if not tables.owns_guild(due.guild_id):
            continue  # another process runs this guild's shard and closes its league
        try:
            await store.leagues.end(due.guild_id, league_id=due.id)
        except StoreRefusal:
            continue  # an admin ended it a moment ago: its standings are posted below all the same
        ended += 1
    await post_standings(bot)
    await announce_starts(bot)
    return ended


async def league_channel(bot: discord.Client, league: League) -> discord.abc.Messageable | None:
    """Where a league's start and standings go, or None if that channel is gone or closed to us."""
    assert league.channel_id is not None
    channel = bot.get_channel(league.channel_id)
    if channel is None:
        try:
            channel = await bot.fetch_channel(league.channel_id)
        except (discord.NotFound, discord.Forbidden):
            log.warning("league %s: its channel %s is gone", league.id, league.channel_id)
            return None
    return channel if isinstance(channel, discord.abc.Messageable) else None


async def announce_starts(bot: discord.Client) -> int:
    """Announce each scheduled league that has started, in its channel; each is marked announced
    once its message is out (so a stop in between announces it at the next start)."""
    store, tables = services_of(bot).store, services_of(bot).tables
    announced = 0
    for league in await store.leagues.starting():
        if not tables.owns_guild(league.guild_id):
            continue
        job = f"league-start:{league.id}"

        async def unannounced(league_id: int = league.id) -> bool:
            now = await store.leagues.get(league_id)
            return now is not None and now.start_announced_at is None

        if not await store.jobs.take(job, tables.process_id, unannounced):
            continue  # another process announces it (or has)
        channel = await league_channel(bot, league)
        if channel is not None:
            try:
                await channel.send(**limits.checked(content=start_announcement(league)))
                announced += 1
            except discord.Forbidden:  # closed to the bot: asking again every tick would not help
                log.warning("league %s: may not post its start in channel %s", league.id, league.channel_id)
        await store.leagues.mark_start_announced(league.id)  # or nowhere to say it, ever
        await store.jobs.done(job)
    return announced


async def post_standings(bot: discord.Client) -> int:
    """Post the final standings of ended leagues not yet posted where they were started; each is
    marked posted once its message is out (so a stop in between posts it at the next start)."""
    store, tables = services_of(bot).store, services_of(bot).tables
    posted = 0
    for league in await store.leagues.unposted():
        if not tables.owns_guild(league.guild_id):
            continue
        job = f"standings:{league.id}"

        async def unposted(league_id: int = league.id) -> bool:
            now = await store.leagues.get(league_id)
            return now is not None and now.standings_posted_at is None

        if not await store.jobs.take(job, tables.process_id, unposted):
            continue  # another process posts them (or has)
        channel = await league_channel(bot, league)
        if channel is None:
            await store.leagues.mark_posted(league.id)  # nowhere to post them, ever
            await store.jobs.done(job)
            continue
        rows = await store.leagues.standings(league.id)
        guild = bot.get_guild(league.guild_id)
        files = await league_files(store, guild, league, rows, allowed=can_attach(channel))
        await channel.send(
            **limits.checked(content="🏆 League over! " + standings_text(league, rows)), files=files
        )
        await store.leagues.mark_posted(league.id)
        await store.jobs.done(job)
        posted += 1
    return posted


def rating_line(rating: FamilyRating, *, trend: bool) -> str:
    """``pitch: 12.3 (+1.2 over the last games), 4/6 won`` (no trend for a season's rating)."""
    if rating.sigma >= NEW_SIGMA:
        return f"{rating.family}: not rated yet (no rated game), {rating.wins}/{rating.games} won"
    change = f" ({rating.trend:+.1f} over the last games)" if trend else ""
    return f"{rating.family}: {render.rating(rating.rating)}{change}, {rating.wins}/{rating.games} won"


class LeaderboardCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.pace = Pace(LEAGUE_CLOCK_SECONDS)
        self.league_clock.start()

    async def cog_unload(self) -> None:
        self.league_clock.cancel()

    @tasks.loop(seconds=LEAGUE_CLOCK_SECONDS)
    async def league_clock(self) -> None:
        """Scheduled leagues are announced when they start; leagues with a planned end close on
        time and their standings are posted. (Games are credited by the exact start and end times
        whatever this clock's pace: it only announces.)"""
        if not self.pace.due():
            return
        try:
            await end_due_leagues(self.bot)
        except (StoreError, discord.HTTPException) as err:
            log.warning("could not start or end a due league, or announce it: %s", err)

    @league_clock.before_loop
    async def until_ready(self) -> None:
        # Channels are known only once the guilds have arrived: posting earlier would find none.
        await self.bot.wait_until_ready()

    leaderboard = app_commands.Group(
        name="leaderboard", description="This server's leaderboards", guild_only=True
    )
    league = app_commands.Group(name="league", description="League nights", guild_only=True)

    @leaderboard.command(name="show", description="Top players in this server")
    @app_commands.describe(
        game="Which game family (default: all)", league="Only the running league's games", order="Rank by",
        season="A season's ratings (default: the current season; all time if none started), or all",
    )  # fmt: skip
    @app_commands.choices(game=FAMILY_CHOICES, order=ORDER_CHOICES)
    @answers_refusals
    async def show(self, interaction: discord.Interaction, game: str | None = None, league: bool = False,
                   order: str = "rating", season: str | None = None) -> None:  # fmt: skip
        store = services(interaction).store
        if league and season is not None:
            raise Refusal("Choose a league or a season, not both: a league board counts its own games.")
        chosen = None if league else await pick_season(store, interaction.guild_id or 0, season)
        seasons_exist = chosen is not None or bool(
            await store.seasons.list(interaction.guild_id or 0, limit=1)
        )
        league_id = None
        if league:
            running = await services(interaction).store.leagues.active(interaction.guild_id or 0)
            if running is None:
                raise Refusal(
                    "No league is running here. An admin can start or schedule one under /admin; "
                    "/league show shows past ones."
                )
            league_id = running.id
        embed, view, files = await board_message(
            interaction, game, league_id, order, 0, season=chosen, seasons_exist=seasons_exist
        )
        await interaction.response.send_message(embed=embed, view=view, files=files)

    @show.autocomplete("season")
    async def show_season_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await season_choices(services(interaction).store, interaction.guild_id or 0, current)

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
        ratings = "\n".join(rating_line(r, trend=True) for r in stats.ratings)
        season = await services(interaction).store.seasons.current(interaction.guild_id or 0)
        season_field = []
        if season is not None:
            mine = await services(interaction).store.seasons.player_ratings(season.id, who.id)
            season_field = [
                (
                    limits.clip(f"Season ratings — {season.name}", limits.FIELD_NAME),
                    "\n".join(rating_line(r, trend=False) for r in mine) or "no games this season yet",
                )
            ]
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
                ("Ratings (all time)" if season is not None else "Ratings", ratings or "—"),
                *season_field,
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

    @league.command(name="show", description="Any league's standings, running or past")
    @app_commands.describe(
        league="Which league (pick from the list as you type; default: the running or latest one)",
        share="Show them to the channel (default: only you)",
    )
    @answers_refusals
    async def league_show(
        self, interaction: discord.Interaction, league: str | None = None, share: bool = False
    ) -> None:
        store = services(interaction).store
        guild_id = interaction.guild_id or 0
        chosen = await (
            pick_league(store, guild_id, league) if league is not None else default_league(store, guild_id)
        )
        state = league_state(chosen)
        files: list[discord.File] = []
        if state == "scheduled":
            text = f"League **{chosen.name}** is scheduled: it runs {league_times(chosen)}."
        else:
            rows = await store.leagues.standings(chosen.id)
            head = "Final standings — it ran" if state == "ended" else "Standings so far — it runs"
            text = limits.clip(
                f"{head} {league_times(chosen)}.\n" + standings_text(chosen, rows), limits.CONTENT
            )
            files = await league_files(
                store, interaction.guild, chosen, rows, allowed=may_attach(interaction)
            )
        if share:
            await interaction.response.send_message(
                **limits.checked(content=text), files=files, allowed_mentions=discord.AllowedMentions.none()
            )
        else:
            await reply(interaction, text, files=files)

    @league_show.autocomplete("league")
    async def league_show_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await league_choices(services(interaction).store, interaction.guild_id or 0, current)


async def default_league(store: Store, guild_id: int) -> League:
    """The league ``/league show`` shows when none is named: the running one, else the latest ended."""
    running = await store.leagues.active(guild_id)
    if running is not None:
        return running
    for league in await store.leagues.list(guild_id, limit=limits.SELECT_OPTIONS):
        if league_state(league) == "ended":
            return league
    raise Refusal("No league has run here yet. An admin can start or schedule one under /admin.")


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(BoardButton, SeasonBoardButton)
    await bot.add_cog(LeaderboardCog(bot))
