"""``/admin …``: the server admins' tools under one top-level command.

Discord hides only whole top-level commands from members, so every admin tool is a subcommand of
``/admin``, whose default permissions ask for Manage Server: members never see it. Rights are
still checked when a subcommand runs (a server can change a command's permissions).
"""

from __future__ import annotations

import contextlib
import io
import re
import secrets
import time
from datetime import datetime
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
    require_posting,
    services,
    standings_text,
)
from bot.discord_ui.duplicate import (
    MAX_DEALS,
    event_choices,
    event_ranking,
    event_text,
    event_view,
    find_event,
    ranking_files,
    ranking_text,
)
from bot.discord_ui.history import league_files, may_attach
from bot.discord_ui.leagues import (
    guild_zone,
    league_choices,
    pick_league,
    schedule_confirmation,
    start_announcement,
)
from bot.engine import find_variant, new_game, parse_option_pairs
from bot.engine.options import resolve_options
from bot.errors import Refusal
from bot.when import parse_when, parse_zone, zone_name

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


def require_posting_in(channel: discord.TextChannel) -> None:
    """Refuse a league channel the bot cannot post its announcements in."""
    me = channel.guild.me
    if me is not None and not channel.permissions_for(me).send_messages:
        raise Refusal(
            f"I cannot post in {channel.mention}, so the league could not be announced there: "
            "allow me to send messages there, or choose another channel."
        )


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

    @admin.command(
        name="league-schedule", description="Schedule a league night ahead, announced in a channel"
    )
    @app_commands.describe(
        name="League name",
        starts="2026-11-28 19:00 (server timezone: /admin timezone; or add UTC+1), in 2h, or now",
        ends="2026-11-28 23:00 (like starts), in 5h, or for 3h (that long after the start)",
        game="Only this game family counts (default: all)",
        channel="Where its start and final standings are announced (default: here)",
    )  # fmt: skip
    @app_commands.choices(game=FAMILY_CHOICES)
    @answers_refusals
    async def league_schedule(
        self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 80],
        starts: app_commands.Range[str, 1, 100], ends: app_commands.Range[str, 1, 100],
        game: str | None = None, channel: discord.TextChannel | None = None,
    ) -> None:  # fmt: skip
        require_admin(interaction)
        store = services(interaction).store
        guild_id = interaction.guild_id or 0
        zone = await guild_zone(store, guild_id)
        now = time.time()
        start = parse_when(starts, now=now, zone=zone, allow_now=True)
        end = parse_when(ends, now=now, zone=zone, start=start)
        where = channel or interaction.channel
        if channel is not None:
            require_posting_in(channel)
        league = await store.leagues.start(
            guild_id, name, game, end, started_at=max(start, now), channel_id=where.id if where else None
        )
        text = (
            start_announcement(league)
            if league.start_announced_at is not None
            else schedule_confirmation(league, where if isinstance(where, discord.abc.GuildChannel) else None)
        )
        await interaction.response.send_message(**limits.checked(content=text))
        if (
            league.start_announced_at is not None
            and channel is not None
            and channel.id != interaction.channel_id
        ):
            # Started at once: the chosen channel hears it too (the clock announces only scheduled starts).
            with contextlib.suppress(discord.HTTPException):
                await channel.send(**limits.checked(content=text))

    @admin.command(name="league-cancel", description="Cancel a scheduled league that has not started")
    @app_commands.describe(league="Which scheduled league (pick from the list)")
    @answers_refusals
    async def league_cancel(self, interaction: discord.Interaction, league: str) -> None:
        require_admin(interaction)
        store = services(interaction).store
        guild_id = interaction.guild_id or 0
        chosen = await pick_league(store, guild_id, league)
        cancelled = await store.leagues.cancel(guild_id, chosen.id)
        await interaction.response.send_message(
            **limits.checked(content=f"The scheduled league **{cancelled.name}** was cancelled.")
        )

    @league_cancel.autocomplete("league")
    async def league_cancel_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        store = services(interaction).store
        return await league_choices(store, interaction.guild_id or 0, current, scheduled_only=True)

    @admin.command(name="timezone", description="The timezone of times typed for leagues here")
    @app_commands.describe(zone="A name like Europe/Berlin or America/New_York, or an offset like UTC+1")
    @answers_refusals
    async def timezone(self, interaction: discord.Interaction, zone: str | None = None) -> None:
        require_admin(interaction)
        store = services(interaction).store
        guild_id = interaction.guild_id or 0
        if zone is not None:
            await store.leagues.set_timezone(guild_id, zone_name(parse_zone(zone)))
        shown = zone_name(await guild_zone(store, guild_id))
        example = datetime.fromtimestamp(time.time() + 86_400, await guild_zone(store, guild_id))
        await reply(
            interaction,
            f"Times typed for leagues here are read in **{shown}**"
            + (" (the default; set one with `zone:`)" if zone is None and shown == "UTC" else "")
            + f": `{example:%Y-%m-%d} 19:00` means 19:00 there. A time may name its own offset "
            "(`… 19:00 UTC+1`).",
        )

    @admin.command(
        name="season-new", description="Start a new season: season ratings from zero, history kept"
    )
    @app_commands.describe(name="The new season's name (the current one, if any, ends now)")
    @answers_refusals
    async def season_new(
        self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 80]
    ) -> None:
        require_admin(interaction)
        season, previous = await services(interaction).store.seasons.start(interaction.guild_id or 0, name)
        ended = (
            f" Season **{previous.name}** ended (<t:{int(previous.started_at)}:d> – "
            f"<t:{int(season.started_at)}:d>); its board stays under `/leaderboard show season:`."
            if previous is not None
            else ""
        )
        await interaction.response.send_message(
            **limits.checked(
                content=f"🌱 Season **{season.name}** has begun: season ratings start from zero, and "
                "`/leaderboard show` shows this season unless you choose `season: all`. All-time ratings "
                f"and every result stay.{ended}"
            )
        )

    @admin.command(
        name="duplicate-start", description="Start a duplicate event: every table plays the same deals"
    )
    @app_commands.describe(
        game="Which game every table plays", deals="Deals every table plays, then stops",
        players="Players per table (default: the game's usual number)",
    )  # fmt: skip
    @app_commands.choices(game=VARIANT_CHOICES)
    @answers_refusals
    async def duplicate_start(
        self, interaction: discord.Interaction, game: str, deals: app_commands.Range[int, 1, MAX_DEALS],
        players: app_commands.Range[int, 2, 8] | None = None,
    ) -> None:  # fmt: skip
        require_admin(interaction)
        require_posting(interaction)
        store = services(interaction).store
        guild_id = interaction.guild_id or 0
        cls = find_variant(game)
        defaults = (await store.settings.get(guild_id)).default_options.get(cls.name, {})
        options = resolve_options(cls.option_specs, None, cls.name, house=defaults)
        if options.get("match") == "deal" and deals > 1:
            raise Refusal(
                f"This server plays {cls.title} as one deal a game (house rule match=deal): choose deals: 1, "
                "or change the house rule."
            )
        count = new_game(cls.name, players=players, options=options, seed=0).players
        event = await store.duplicates.create(
            guild_id=guild_id, channel_id=interaction.channel_id or 0, organizer_id=interaction.user.id,
            variant=cls.name, players=count, options=options, deals=deals,
            seed=secrets.randbelow(2**53 - 1) + 1,  # never 0: a lobby's 0 means "shuffle at the start"
        )  # fmt: skip
        await interaction.response.send_message(
            **limits.checked(content=event_text(event), view=event_view(event))
        )

    @admin.command(name="duplicate-end", description="End a duplicate event now and post its ranking")
    @app_commands.describe(event="Which event (pick from the list); unfinished tables stop where they are")
    @answers_refusals
    async def duplicate_end(self, interaction: discord.Interaction, event: str) -> None:
        require_admin(interaction)
        store, tables = services(interaction).store, services(interaction).tables
        chosen = await find_event(store, interaction.guild_id or 0, event)
        if not chosen.open:
            raise Refusal(
                f"Duplicate event #{chosen.id} has already ended: /duplicate show shows its ranking."
            )
        for entry in await store.duplicates.tables(chosen.id):
            table = tables.by_id.get(entry.game_id)
            if table is not None and table.status in ("lobby", "playing"):
                await tables.end(table, interaction.user.id, is_admin=True)
        ended = await store.duplicates.end(chosen.id)
        ranking = await event_ranking(store, ended)
        files = await ranking_files(ranking, allowed=may_attach(interaction))
        await interaction.response.send_message(**limits.checked(content=ranking_text(ranking, final=True)),
                                                files=files)  # fmt: skip
        await store.duplicates.mark_posted(ended.id)

    @duplicate_end.autocomplete("event")
    async def duplicate_end_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await event_choices(
            services(interaction).store, interaction.guild_id or 0, current, open_only=True
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
        rate_computer_games="Whether games with computer players move ratings (each level as one player)",
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
