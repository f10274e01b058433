"""``/history`` and ``/replay`` messages and their controls, and the charts of ``/stats`` and the
leaderboards.

A replay is rebuilt from the stored seed + action log by ``bot.history.replay`` (off the event
loop, kept for the few games looked at last) and shows only deals that are over: every hand as it
was dealt, the bidding, each trick in the order it was played (as a picture with its alt text, and
as text), and the deal's score on its last page. Its buttons and deal menu are ``DynamicItem``s
whose custom ids carry the game and the page, so they keep working after a restart; each click
looks the game up again within the clicking server.
"""

from __future__ import annotations

import asyncio
import io
import re
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import discord

from bot import render
from bot.discord_ui import limits
from bot.discord_ui.replies import answering, reply
from bot.discord_ui.services import services
from bot.engine import EngineError, find_variant
from bot.errors import Refusal
from bot.history import DealReplay, Replay, clamp, is_first, is_last, replay, step
from bot.pictures import Rendered, render_off_loop, render_trick
from bot.pictures.charts import Series, StandingLine, render_standings, render_trend
from bot.store import GameNotFound, GameRecord, League, StandingRow, Store
from bot.store.history import HistoryGame, HistorySeat, TrendPoint, seat_name
from bot.store.ratings import computer_player_name

HISTORY_PAGE = 5
REPLAY_FILE = "trick.png"
CHART_FILE = "chart.png"
STANDINGS_FILE = "standings.png"
CHART_FAMILIES = 4
REPLAY_CACHE = 16


# ----- small shared pieces ---------------------------------------------------------------------------
def as_file(rendered: Rendered, filename: str) -> discord.File:
    """The picture as an upload, its alt text as the attachment's description."""
    return discord.File(io.BytesIO(rendered.png), filename, description=rendered.alt_text)


def date_text(timestamp: float) -> str:
    """``3 Jan 2025`` (UTC): a date drawn into a picture, where Discord's ``<t:…>`` cannot go."""
    day = datetime.fromtimestamp(timestamp, UTC)
    return f"{day.day} {day:%b %Y}"


def variant_title(variant: str) -> str:
    try:
        return find_variant(variant).title
    except EngineError:  # a variant since renamed: its stored name still says what it was
        return variant


async def picture_names(store: Store, guild: discord.Guild | None, user_ids: list[int]) -> dict[int, str]:
    """Names for a picture, which cannot show mentions: the member's display name when the bot
    has the member cached, else the name their latest game here showed."""
    stored = await store.history.names(guild.id if guild is not None else 0, user_ids)
    out = {}
    for user_id in user_ids:
        member = guild.get_member(user_id) if guild is not None else None
        if (computer := computer_player_name(user_id)) is not None:
            out[user_id] = computer
        elif member is not None:
            out[user_id] = member.display_name
        else:
            out[user_id] = stored.get(user_id) or f"Player {str(user_id)[-4:]}"
    return out


def may_attach(interaction: discord.Interaction) -> bool:
    return bool(interaction.app_permissions.attach_files)


# ----- /history ----------------------------------------------------------------------------------------
def _who(seat: HistorySeat) -> str:
    return f"<@{seat.user_id}>" if seat.user_id is not None else seat.name


def _place(place: int) -> str:
    if place == 1:
        return "**won**"
    suffix = {2: "nd", 3: "rd"}.get(place if place < 20 else place % 10, "th")
    return f"{place}{suffix} place"


def history_entry(game: HistoryGame) -> str:
    """``**Game 12** · Auction Pitch · <t:…:d> — **won**, 11 points`` and who sat with and against."""
    head = (
        f"**Game {game.game_id}** · {variant_title(game.variant)} · <t:{int(game.finished_at)}:d> — "
        f"{_place(game.place)}, {render.count(game.score, 'point')}"
    )
    partners = game.partners()
    sides: dict[int, list[str]] = {}
    for seat in game.opponents():
        sides.setdefault(seat.side, []).append(_who(seat))
    against = ", ".join(" & ".join(names) for names in sides.values())
    seats = (
        f"with {', '.join(_who(s) for s in partners)} · " if partners else ""
    ) + f"against {against or '—'}"
    return f"{head}\n{seats}"


async def history_message(
    store: Store, guild_id: int, user_id: int, page: int
) -> tuple[discord.Embed, discord.ui.View]:
    """One page of a player's finished games in this server, newest first, with paging buttons
    and a menu to replay one of them."""
    total = await store.history.count(guild_id, user_id)
    pages = max(1, -(-total // HISTORY_PAGE))
    page = min(max(page, 0), pages - 1)
    games = await store.history.recent(guild_id, user_id, limit=HISTORY_PAGE, offset=page * HISTORY_PAGE)
    lines = [f"Finished games of <@{user_id}> in this server, newest first."]
    lines += [history_entry(game) for game in games] or ["No finished games here yet."]
    embed = discord.Embed(
        title="Game history", description=limits.clip("\n\n".join(lines), limits.EMBED_DESCRIPTION)
    )
    embed.set_footer(
        text=f"Page {page + 1} of {pages} · {render.count(total, 'game')} · "
        "/replay game:<number> steps through a game trick by trick"
    )
    view = discord.ui.View(timeout=None)
    view.add_item(HistoryButton(user_id, page - 1, "Previous", disabled=page == 0))
    view.add_item(HistoryButton(user_id, page + 1, "Next", disabled=page >= pages - 1))
    if games:
        view.add_item(HistoryReplaySelect([(g.game_id, g.variant, g.finished_at) for g in games]))
    limits.check(embed=embed, view=view)
    return embed, view


class HistoryButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tn:hist:(?P<user>\d{1,20}):(?P<page>-?\d{1,6}):(?P<label>[A-Za-z]+)",
):
    """Previous / Next on a ``/history`` message (works after restarts too)."""

    def __init__(self, user_id: int, page: int, label: str, *, disabled: bool = False) -> None:
        custom_id = f"tn:hist:{user_id}:{page}:{label}"
        super().__init__(discord.ui.Button(label=label, custom_id=custom_id, disabled=disabled))
        self.user_id, self.page = user_id, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> HistoryButton:
        return cls(int(match["user"]), int(match["page"]), match["label"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            store = services(interaction).store
            embed, view = await history_message(store, interaction.guild_id or 0, self.user_id, self.page)
            await interaction.response.edit_message(embed=embed, view=view)

        await answering(interaction, work)


class HistoryReplaySelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"tn:hist:replay"):
    """A ``/history`` page's menu: replay one of the games listed (opens a new private replay)."""

    def __init__(self, games: Sequence[tuple[int, str, float]] = ()) -> None:
        options = [
            discord.SelectOption(
                label=limits.clip(f"Game {gid} · {variant_title(variant)}", limits.OPTION_TEXT),
                value=str(gid),
                description=date_text(finished),
            )
            for gid, variant, finished in games[: limits.SELECT_OPTIONS]
        ]
        super().__init__(
            discord.ui.Select(
                custom_id="tn:hist:replay",
                placeholder="Replay one of these games…",
                options=options or [discord.SelectOption(label="—", value="-")],
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> HistoryReplaySelect:
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        data: dict[str, Any] = dict(interaction.data or {})
        values: list[str] = list(data.get("values") or [])

        async def work() -> None:
            if not values or not str(values[0]).isdigit():
                raise Refusal("Choose a game from the menu.")
            await send_replay(interaction, int(values[0]), share=False)

        await answering(interaction, work)


# ----- /replay -----------------------------------------------------------------------------------------
_replays: OrderedDict[tuple[int, int], Replay] = OrderedDict()


async def load_replay(store: Store, guild_id: int, game_id: int) -> tuple[GameRecord, Replay]:
    """The game (of this server only) and its replay; a refusal with the reason when there is
    nothing to show yet."""
    try:
        record = await store.history.game_in_guild(game_id, guild_id)
    except GameNotFound:
        raise Refusal(
            f"There is no game {game_id} in this server. /history lists your games with their numbers."
        ) from None
    if record.status == "lobby":
        raise Refusal(f"Game {game_id} has not started yet: there is nothing to replay.")
    key = (record.id, len(record.actions))
    found = _replays.get(key)
    if found is None:
        try:  # a long game takes tens of milliseconds to replay: not on the event loop
            found = await asyncio.to_thread(replay, record.engine_record())
        except (EngineError, KeyError, TypeError, ValueError):
            raise Refusal(f"Game {game_id} cannot be replayed: its stored record does not replay.") from None
        _replays[key] = found
        while len(_replays) > REPLAY_CACHE:
            _replays.popitem(last=False)
    _replays.move_to_end(key)
    if not found.deals:
        raise Refusal(
            f"Game {game_id} has no finished deal yet. A replay shows a deal only once it is over "
            "(no hand of a deal in play is ever shown): try again after this deal."
        )
    return record, found


@dataclass
class ReplayMessage:
    embed: discord.Embed
    view: discord.ui.View
    pictures: list[Rendered] = field(default_factory=list)

    def files(self) -> list[discord.File]:
        return [as_file(picture, REPLAY_FILE) for picture in self.pictures]


def _names(record: GameRecord) -> list[str]:
    return [seat_name(record.seats, seat) for seat in range(record.players)]


def _trick_line(deal: DealReplay, page: int, names: Sequence[str]) -> str:
    trick = deal.tricks[page - 1]
    plays = ", ".join(
        f"{names[seat]} {'led ' if n == 0 else ''}{render.pretty(card)}"
        for n, (seat, card) in enumerate(trick.plays)
    )
    taken = (
        f"**{names[trick.winner]}** took it."
        if trick.winner is not None
        else "The deal ended before this trick was finished."
    )
    return f"**Trick {trick.number} of {len(deal.tricks)}**: {plays}. {taken}"


def _bids_text(deal: DealReplay, replay_: Replay, names: Sequence[str]) -> str:
    view = replay_.table_view()
    return ", ".join(f"{names[seat]} {render.bid_text(view, amount)}" for seat, amount in deal.bids)


def replay_embed(record: GameRecord, replay_: Replay, deal: DealReplay, page: int) -> discord.Embed:
    """The page's text: the deal, the trick (or the hands' introduction), the hands as dealt, the
    bidding and, on the deal's last page, its score."""
    names = _names(record)
    head = [f"Deal {deal.number}"]
    if deal.dealer is not None and 0 <= deal.dealer < len(names):
        head.append(f"dealer {names[deal.dealer]}")
    if deal.trump:
        head.append(f"trump {render.suit_name(deal.trump)}")
    lines = [" · ".join(head)]
    if page == 0:
        lines.append("The hands as they were dealt. **Next** plays the tricks one by one.")
        if not deal.tricks:
            why = (
                "everyone passed and the cards were dealt again"
                if deal.ending == "redeal"
                else "none was played"
            )
            lines.append(f"No trick in this deal: {why}.")
    else:
        lines.append(_trick_line(deal, page, names))
    embed = discord.Embed(
        title=limits.clip(f"Replay — game {record.id}, {replay_.title}", limits.EMBED_TITLE),
        description=limits.clip("\n".join(lines), limits.EMBED_DESCRIPTION),
    )
    hands = "\n".join(
        f"**{names[seat]}**: {render.pretty_cards(list(hand))}" for seat, hand in enumerate(deal.hands)
    )
    fields = [("Hands as dealt", hands or "—")]
    if deal.bids:
        fields.append(("Bidding", _bids_text(deal, replay_, names)))
    if page == deal.pages - 1 and deal.summary is not None:
        summary = render.deal_summary(deal.summary, replay_.table_view(), names)
        fields.append(("Result", summary.split("\n", 1)[1] if "\n" in summary else summary))
    index = replay_.deals.index(deal)
    footer = f"Game {record.id} · deal {index + 1} of {len(replay_.deals)} · page {page + 1} of {deal.pages}"
    if not replay_.game_over:
        footer += " · still being played: only the deals that are over are shown"
    embed.set_footer(text=limits.clip(footer, limits.FOOTER))
    limits.add_fields(embed, fields)
    return embed


def replay_view(record: GameRecord, replay_: Replay, deal: DealReplay, page: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    back = step(replay_, deal.number, page, -1)
    on = step(replay_, deal.number, page, 1)
    view.add_item(ReplayButton(record.id, *back, "prev", disabled=is_first(replay_, deal.number, page)))
    view.add_item(ReplayButton(record.id, *on, "next", disabled=is_last(replay_, deal.number, page)))
    if len(replay_.deals) > 1:
        index = replay_.deals.index(deal)
        start = min(
            max(0, index - limits.SELECT_OPTIONS // 2), max(0, len(replay_.deals) - limits.SELECT_OPTIONS)
        )
        view.add_item(
            ReplayDealSelect(record.id, replay_.deals[start : start + limits.SELECT_OPTIONS], deal.number)
        )
    return view


async def replay_message(
    record: GameRecord,
    replay_: Replay,
    deal_number: int,
    page: int,
    *,
    pictures: bool,
    four_colour: bool = False,
) -> ReplayMessage:
    """The replay page (deal, page), moved to the nearest page that exists."""
    deal_number, page = clamp(replay_, deal_number, page)
    deal = replay_.deal(deal_number)
    assert deal is not None
    message = ReplayMessage(
        replay_embed(record, replay_, deal, page), replay_view(record, replay_, deal, page)
    )
    if pictures and page > 0:
        names = _names(record)
        trick = deal.tricks[page - 1]
        pairs = [(names[seat], card) for seat, card in trick.plays]
        winner = next((n for n, (seat, _) in enumerate(trick.plays) if seat == trick.winner), None)
        message.pictures.append(
            await render_off_loop(
                render_trick, pairs, winner=winner, trump=deal.trump, four_colour=four_colour,
                title=f"Deal {deal.number}, trick {trick.number}",
            )
        )  # fmt: skip
        message.embed.set_image(url=f"attachment://{REPLAY_FILE}")
    limits.check(embed=message.embed, view=message.view)
    return message


async def _pictures_for(interaction: discord.Interaction) -> tuple[bool, bool]:
    prefs = await services(interaction).store.players.prefs(interaction.user.id)
    return prefs.pictures and may_attach(interaction), prefs.four_colour


async def send_replay(interaction: discord.Interaction, game_id: int, *, share: bool) -> None:
    """Answer with the first page of the game's replay (private unless ``share``)."""
    store = services(interaction).store
    record, found = await load_replay(store, interaction.guild_id or 0, game_id)
    pictures, four_colour = await _pictures_for(interaction)
    first = found.deals[0]
    message = await replay_message(record, found, first.number, 0, pictures=pictures, four_colour=four_colour)
    if share:
        await interaction.response.send_message(embed=message.embed, view=message.view, files=message.files())
    else:
        await reply(interaction, None, embed=message.embed, view=message.view, files=message.files())


async def show_replay_page(interaction: discord.Interaction, game_id: int, deal: int, page: int) -> None:
    """Answer a replay control by editing its message to the page asked for."""
    store = services(interaction).store
    record, found = await load_replay(store, interaction.guild_id or 0, game_id)
    pictures, four_colour = await _pictures_for(interaction)
    message = await replay_message(record, found, deal, page, pictures=pictures, four_colour=four_colour)
    await interaction.response.edit_message(
        embed=message.embed, view=message.view, attachments=message.files()
    )


REPLAY_LABELS = {"prev": "◀ Previous", "next": "Next ▶"}


class ReplayButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tn:rp:(?P<gid>\d{1,19}):(?P<deal>\d{1,6}):(?P<page>\d{1,4}):(?P<op>prev|next)",
):
    """Previous / Next on a replay: the custom id names the page it leads to."""

    def __init__(self, game_id: int, deal: int, page: int, op: str, *, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=REPLAY_LABELS[op], custom_id=f"tn:rp:{game_id}:{deal}:{page}:{op}", disabled=disabled,
                style=discord.ButtonStyle.primary if op == "next" else discord.ButtonStyle.secondary,
            )
        )  # fmt: skip
        self.game_id, self.deal, self.page = game_id, deal, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReplayButton:
        return cls(int(match["gid"]), int(match["deal"]), int(match["page"]), match["op"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            await show_replay_page(interaction, self.game_id, self.deal, self.page)

        await answering(interaction, work)


class ReplayDealSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"tn:rpdeal:(?P<gid>\d{1,19})"
):
    """Jump to a deal of the replay (its hands as dealt)."""

    def __init__(self, game_id: int, deals: Sequence[DealReplay] = (), current: int | None = None) -> None:
        options = [
            discord.SelectOption(
                label=f"Deal {deal.number}",
                value=str(deal.number),
                description=limits.clip(
                    (f"trump {render.suit_name(deal.trump)} · " if deal.trump else "")
                    + render.count(len(deal.tricks), "trick"),
                    limits.OPTION_TEXT,
                ),
                default=deal.number == current,
            )
            for deal in deals[: limits.SELECT_OPTIONS]
        ]
        super().__init__(
            discord.ui.Select(
                custom_id=f"tn:rpdeal:{game_id}",
                placeholder="Jump to a deal…",
                options=options or [discord.SelectOption(label="—", value="0")],
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReplayDealSelect:
        return cls(int(match["gid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        data: dict[str, Any] = dict(interaction.data or {})
        values: list[str] = list(data.get("values") or [])

        async def work() -> None:
            if not values or not str(values[0]).isdigit():
                raise Refusal("Choose a deal from the menu.")
            await show_replay_page(interaction, self.game_id, int(values[0]), 0)

        await answering(interaction, work)


HISTORY_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    HistoryButton, HistoryReplaySelect, ReplayButton, ReplayDealSelect,
)  # fmt: skip


# ----- charts ------------------------------------------------------------------------------------------
def trend_series(points: Sequence[TrendPoint], rated: bool) -> list[Series]:
    """Rated: one line per family (the most played first), each carrying its rating forward over
    the games of other families. Unrated: games and wins counted up over time."""
    if not rated:
        wins = 0
        won: list[float | None] = []
        for point in points:
            wins += point.won
            won.append(float(wins))
        return [
            Series("games", tuple(float(n) for n in range(1, len(points) + 1))),
            Series("wins", tuple(won)),
        ]
    counts: dict[str, int] = {}
    for point in points:
        counts[point.family] = counts.get(point.family, 0) + 1
    families = sorted(counts, key=lambda f: (-counts[f], f))[:CHART_FAMILIES]
    series = []
    for family in families:
        current: float | None = None
        values: list[float | None] = []
        for point in points:
            if point.family == family:
                current = point.ordinal
            values.append(current)
        series.append(Series(family, tuple(values)))
    return series


async def stats_chart(store: Store, guild_id: int, user_id: int, name: str) -> Rendered | None:
    """The player's rating trend, or games and wins over time if they have no rated game here;
    None for someone with no finished game."""
    points = await store.history.rating_trend(guild_id, user_id)
    rated = bool(points)
    if not rated:
        points = await store.history.results_trend(guild_id, user_id)
    if not points:
        return None
    title = f"Rating — {name}" if rated else f"Games and wins — {name}"
    return await render_off_loop(
        render_trend, trend_series(points, rated), title=title,
        start=date_text(points[0].finished_at), end=date_text(points[-1].finished_at),
    )  # fmt: skip


async def standings_picture(title: str, lines: Sequence[StandingLine]) -> Rendered:
    return await render_off_loop(render_standings, lines, title=title)


async def board_files(
    store: Store, guild: discord.Guild | None, title: str, rows: Sequence[Any], *, rated: bool, allowed: bool
) -> list[discord.File]:
    """A leaderboard page (``LeaderRow``s) as a compact card, or nothing where files may not go."""
    if not allowed or not rows:
        return []
    names = await picture_names(store, guild, [row.user_id for row in rows])
    lines = [
        StandingLine(
            row.rank,
            names[row.user_id],
            (f"{render.rating(row.rating)} · " if rated else "")
            + f"{row.wins}/{row.games} won · {row.win_pct:.0f}%",
        )
        for row in rows
    ]
    return [as_file(await standings_picture(title, lines), STANDINGS_FILE)]


async def league_files(
    store: Store, guild: discord.Guild | None, league: League, rows: Sequence[StandingRow], *, allowed: bool
) -> list[discord.File]:
    """A league's standings (the first 20, like the text) as a card, or nothing where files may not go."""
    if not allowed or not rows:
        return []
    names = await picture_names(store, guild, [row.user_id for row in rows[:20]])
    lines = [
        StandingLine(
            row.rank,
            names[row.user_id],
            f"{render.count(row.wins, 'win')} in {render.count(row.games, 'game')} · {row.points} pts",
        )
        for row in rows[:20]
    ]
    return [as_file(await standings_picture(f"{league.name} — standings", lines), STANDINGS_FILE)]
