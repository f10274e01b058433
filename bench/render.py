"""Card pictures: render time and bytes per image, per variant, and the event loop's lag under load.

States come from real seeded games of every variant, played by ``basic`` computer players: at each
card-play decision the acting seat's hand (playable cards marked) and the trick so far (lead and
current winner marked, seats still to play shown), at each pass decision the hand with the cards
chosen so far, and every distinct set of laid melds. Each image is rendered with the picture cache
cleared (card faces stay cached, as they do in the bot), on one core (the process is pinned to one
CPU where the OS allows it), ``--repeats`` times, the best counting. Goals: p99 <= 15 ms and <= 40 KiB
per image. The time judged is the rendering thread's CPU time, which other processes on a shared
machine cannot inflate; wall-clock times are printed beside it (best of the repeats, and every run).

The loop-lag run puts ``--tables`` tables' worth of renders (the acting seat's hand and the table's
trick every turn, all tables at once, none cached) through ``render_off_loop`` while a ticker
coroutine measures how late it wakes; the same renders done on the loop are shown for contrast.

``--samples DIR`` writes sample pictures instead (``docs/images`` holds the committed ones).

Usage: python bench/render.py [--states N] [--repeats 3] [--tables 20] [--turns 60] [--samples DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402

from bot.ai import make_player  # noqa: E402
from bot.ai.base import decide  # noqa: E402
from bot.engine import Card, Rank, Suit, find_variant, new_game, variant_names  # noqa: E402
from bot.engine.tricks import trick_winner  # noqa: E402
from bot.pictures import (  # noqa: E402
    MeldGroup,
    Rendered,
    SeatMelds,
    clear_render_cache,
    render_hand,
    render_melds,
    render_off_loop,
    render_trick,
)
from bot.pictures.draw import use_builtin_font  # noqa: E402
from bot.pictures.faces import card_face  # noqa: E402

GOAL_MS = 15.0
GOAL_BYTES = 40 * 1024
NAMES = ("Alice", "Bob", "Computer 3", "Dmitri", "Élodie", "Farah", "Gus", "Hiroko")
PINOCHLE_ORDER = (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.NINE)
PITCH_ORDER = (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK, *reversed(list(Rank)[:9]))
DARK, LIGHT = (0x31, 0x33, 0x38), (0xFF, 0xFF, 0xFF)


@dataclass
class States:
    """Render calls collected from play, by picture kind: each a zero-argument render."""

    hand: list[Callable[[], Rendered]] = field(default_factory=list)
    trick: list[Callable[[], Rendered]] = field(default_factory=list)
    melds: list[Callable[[], Rendered]] = field(default_factory=list)
    seen_melds: set[str] = field(default_factory=set)


def strength_of(family: str) -> dict[Rank, int]:
    order = PITCH_ORDER if family == "pitch" else PINOCHLE_ORDER
    return {rank: len(order) - i for i, rank in enumerate(order)}


def trick_call(view: dict[str, Any], players: int, family: str) -> Callable[[], Rendered] | None:
    plays = view.get("trick") or []
    if not plays:
        return None
    cards = [(play["seat"], Card.parse(play["card"])) for play in plays]
    trump = Suit.parse(view["trump"]) if view.get("trump") else None
    winner = trick_winner(cards, trump, strength_of(family))
    first = plays[0]["seat"]
    waiting = [NAMES[(first + k) % players] for k in range(len(plays), players)]
    named = [(NAMES[play["seat"]], play["card"]) for play in plays]
    return lambda: render_trick(named, winner=winner, waiting=waiting, trump=view.get("trump"))


def melds_call(view: dict[str, Any], states: States) -> Callable[[], Rendered] | None:
    melds = view.get("melds")
    if not melds or str(melds) in states.seen_melds:
        return None
    states.seen_melds.add(str(melds))
    seats = []
    for entry in melds:
        groups = [
            MeldGroup(meld["name"], meld["cards"], meld["points"], meld.get("class"))
            for meld in entry["melds"]
        ]
        note = "meld not laid" if entry.get("laid") is False else None
        seats.append(SeatMelds(NAMES[entry["seat"]], groups, entry["total"], note))
    return lambda: render_melds(seats, trump=view.get("trump"))


def collect(variant: str, wanted: int) -> States:
    """Play seeded games of ``variant`` with ``basic`` players until ``wanted`` hand states, half as
    many tricks and a tenth as many distinct laid melds (where the variant has melds) are seen."""
    states = States()
    cls = find_variant(variant)
    wanted_melds = 0 if cls.family == "pitch" else max(1, wanted // 10)

    def enough() -> bool:
        return (
            len(states.hand) >= wanted
            and len(states.trick) >= wanted // 2
            and len(states.melds) >= wanted_melds
        )

    for seed in range(1, 400):
        game = new_game(variant, seed=seed)
        players = [make_player(cls.family, "basic", seed * 10 + seat) for seat in range(game.players)]
        while not game.is_over and not enough():
            seat = game.to_act[0]
            view = game.view(seat)
            plays = [action.split(" ", 1)[1] for action in view["legal"] if action.startswith("play ")]
            gives = [action.split(" ", 1)[1] for action in view["legal"] if action.startswith("give ")]
            if plays and len(states.hand) < wanted:
                states.hand.append(lambda h=view["hand"], p=plays: render_hand(h, legal=p))
            elif gives and view.get("giving") and len(states.hand) < wanted:
                cards, chosen = view["hand"] + view["giving"], view["giving"]
                states.hand.append(lambda c=cards, s=chosen, g=gives: render_hand(c, legal=g, selected=s))
            call = trick_call(view, game.players, cls.family) if plays else None
            if call is not None and len(states.trick) < wanted:
                states.trick.append(call)
            meld = melds_call(view, states)
            if meld is not None and len(states.melds) < wanted:
                states.melds.append(meld)
            game.apply(seat, decide(players[seat], game, seat))
        if enough():
            break
    return states


@dataclass
class Timing:
    wall: list[float]
    cpu: list[float]
    raw_wall: list[float]
    sizes: list[int]
    largest: Rendered


def timed(calls: list[Callable[[], Rendered]], repeats: int) -> Timing:
    """Per state the best of ``repeats`` uncached renders (wall and CPU ms), every wall time, bytes."""
    for call in calls:
        call()  # draws every card face these states need: the bot keeps them cached too
    timing = Timing([], [], [], [], calls[0]())
    for call in calls:
        walls, cpus = [], []
        for _ in range(repeats):
            clear_render_cache()
            cpu_start, wall_start = time.thread_time(), time.perf_counter()
            rendered = call()
            walls.append((time.perf_counter() - wall_start) * 1000)
            cpus.append((time.thread_time() - cpu_start) * 1000)
        timing.wall.append(min(walls))
        timing.cpu.append(min(cpus))
        timing.raw_wall.extend(walls)
        timing.sizes.append(len(rendered.png))
        if len(rendered.png) > len(timing.largest.png):
            timing.largest = rendered
    return timing


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def report(
    variant: str, kind: str, calls: list[Callable[[], Rendered]], repeats: int, dump: Path | None
) -> bool:
    if not calls:
        print(f"{variant:23} {kind:5} (none in this variant)")
        return True
    timing = timed(calls, repeats)
    p50, p99 = percentile(timing.cpu, 0.5), percentile(timing.cpu, 0.99)
    wall_p50, wall_p99 = percentile(timing.wall, 0.5), percentile(timing.wall, 0.99)
    worst = max(timing.sizes)
    ok = p99 <= GOAL_MS and worst <= GOAL_BYTES
    print(
        f"{variant:23} {kind:5} n={len(calls):3}  p50 {p50:5.2f} ms  p99 {p99:5.2f} ms"
        f" (goal <= {GOAL_MS:.0f})  [wall p50 {wall_p50:5.2f} p99 {wall_p99:5.2f},"
        f" every run p99 {percentile(timing.raw_wall, 0.99):6.2f}]"
        f"  bytes mean {statistics.mean(timing.sizes) / 1024:4.1f} KiB max {worst / 1024:4.1f} KiB"
        f" (goal <= {GOAL_BYTES // 1024})  {verdict(ok)}"
    )
    if dump is not None:
        dump.mkdir(parents=True, exist_ok=True)
        (dump / f"{variant}-{kind}.png").write_bytes(timing.largest.png)
    return ok


def resident_mib() -> float | None:
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, IndexError, ValueError):
        return None
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def pin_to_one_core() -> str:
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (no sched_setaffinity here)"
    cpu = max(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    return f"pinned to CPU {cpu}"


# ----- event-loop lag ----------------------------------------------------------------------------
async def loop_lag(
    turns: Iterator[tuple[Callable[..., Rendered], tuple[Any, ...], dict[str, Any]]],
    tables: int,
    per_table: int,
    *,
    off_loop: bool,
) -> tuple[list[float], int, float]:
    """Lateness of a 5 ms ticker (ms) while ``tables`` tables render ``per_table`` turns each."""
    interval = 0.005
    lags: list[float] = []
    done = asyncio.Event()
    loop = asyncio.get_running_loop()

    async def ticker() -> None:
        while not done.is_set():
            before = loop.time()
            await asyncio.sleep(interval)
            lags.append((loop.time() - before - interval) * 1000)

    work = [next(turns) for _ in range(tables * per_table)]
    count = 0

    async def table(number: int) -> None:
        nonlocal count
        for turn in range(per_table):
            render, args, kwargs = work[number * per_table + turn]
            # A title unique to the table and turn: every render misses the cache.
            kwargs = {**kwargs, "title": f"Table {number} · turn {turn}"}
            if off_loop:
                await render_off_loop(render, *args, **kwargs)
            else:
                render(*args, **kwargs)
                await asyncio.sleep(0)
            count += 1

    tick = asyncio.create_task(ticker())
    await asyncio.sleep(0.05)
    start = time.perf_counter()
    await asyncio.gather(*(table(n) for n in range(tables)))
    elapsed = time.perf_counter() - start
    done.set()
    await tick
    return lags, count, elapsed


def lag_work() -> Iterator[tuple[Callable[..., Rendered], tuple[Any, ...], dict[str, Any]]]:
    """Endless turns of a four-hand pinochle table: the acting seat's hand, then the trick."""
    while True:
        for seed in range(1, 50):
            game = new_game("pinochle-4", seed=seed)
            players = [make_player("pinochle", "basic", seat) for seat in range(4)]
            while not game.is_over:
                seat = game.to_act[0]
                view = game.view(seat)
                plays = [action.split(" ", 1)[1] for action in view["legal"] if action.startswith("play ")]
                if plays:
                    yield render_hand, (view["hand"],), {"legal": plays}
                    named = [(NAMES[play["seat"]], play["card"]) for play in view["trick"]]
                    yield render_trick, (named,), {"trump": view["trump"]}
                game.apply(seat, decide(players[seat], game, seat))


def run_lag(tables: int, turns: int) -> None:
    async def main() -> None:
        work = lag_work()
        quiet: list[float] = []
        loop = asyncio.get_running_loop()
        for _ in range(100):
            before = loop.time()
            await asyncio.sleep(0.005)
            quiet.append((loop.time() - before - 0.005) * 1000)
        for off_loop in (True, False):
            lags, count, elapsed = await loop_lag(work, tables, turns, off_loop=off_loop)
            where = "through render_off_loop" if off_loop else "ON the loop (for contrast)"
            print(
                f"{tables} tables x {turns} turns, {count} renders {where} in {elapsed:.2f} s "
                f"({count / elapsed:.0f}/s): loop lag p99 {percentile(lags, 0.99):.1f} ms, "
                f"max {max(lags):.1f} ms (idle loop: p99 {percentile(quiet, 0.99):.1f} ms)"
            )

    asyncio.run(main())


# ----- samples for the README ----------------------------------------------------------------------
def on_background(png: bytes, colour: tuple[int, int, int], margin: int = 16) -> bytes:
    image = Image.open(io.BytesIO(png)).convert("RGBA")
    canvas = Image.new("RGBA", (image.width + 2 * margin, image.height + 2 * margin), (*colour, 255))
    canvas.alpha_composite(image, (margin, margin))
    out = io.BytesIO()
    canvas.convert("RGB").quantize(128, method=Image.Quantize.MEDIANCUT).save(out, "PNG", optimize=True)
    return out.getvalue()


def write_samples(directory: Path) -> None:
    """A hand, a trick and laid melds as made (transparent) and on Discord's dark (#313338) and light
    (#FFFFFF) themes, with their alt texts in ``alt-text.txt``; names in the built-in font."""
    directory.mkdir(parents=True, exist_ok=True)
    use_builtin_font()  # so the samples come out byte-identical on any machine
    hand12 = ["AS", "10S", "KS", "QH", "JH", "9H", "AD", "KD", "QD", "JD", "10C", "9C"]
    hand20 = [
        *("AS", "AS", "10S", "KS", "QS", "JS", "AH", "10H", "KH", "QH"),
        *("JH", "9H", "AD", "10D", "KD", "QD", "JD", "AC", "10C", "KC"),
    ]
    samples = {
        "hand": render_hand(hand12, legal=["QH", "JH", "9H"]),
        "hand-20": render_hand(hand20, legal=["AH", "10H", "KH", "QH", "JH", "9H"]),
        "hand-four-colour": render_hand(hand12, legal=["AD", "KD", "QD", "JD"], four_colour=True),
        "trick": render_trick(
            [("Alice", "KH"), ("Computer 2", "AH"), ("Élodie", "9H")],
            winner=1,
            waiting=["Dmitri"],
            trump="D",
            title="Trick 4 of 12",
        ),
        "melds": render_melds(
            [
                SeatMelds(
                    "Alice",
                    [
                        MeldGroup("Run", ["AD", "10D", "KD", "QD", "JD"], 150),
                        MeldGroup("Pinochle", ["QS", "JD"], 40),
                    ],
                    190,
                ),
                SeatMelds("Computer 2", [MeldGroup("Aces around", ["AS", "AH", "AD", "AC"], 100)], 100),
                SeatMelds("Élodie", [], 0),
                SeatMelds("Dmitri", [MeldGroup("Royal marriage", ["KD", "QD"], 40)], 40),
            ],
            trump="D",
            title="Melds",
        ),
    }
    alt_texts = []
    for name, rendered in samples.items():
        (directory / f"{name}.png").write_bytes(rendered.png)
        for theme, colour in (("dark", DARK), ("light", LIGHT)):
            (directory / f"{name}-{theme}.png").write_bytes(on_background(rendered.png, colour))
        alt_texts.append(f"{name}.png: {rendered.alt_text}")
        print(f"{directory / name}.png ({len(rendered.png) / 1024:.1f} KiB): {rendered.alt_text}")
    (directory / "alt-text.txt").write_text("\n".join(alt_texts) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--states", type=int, default=300, help="hand states per variant (default 300)")
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--turns", type=int, default=60, help="turns per table in the loop-lag run")
    parser.add_argument("--repeats", type=int, default=3, help="uncached renders per state (best one counts)")
    parser.add_argument("--samples", type=Path, help="write sample pictures to this folder and stop")
    parser.add_argument("--largest", type=Path, help="write each variant's largest image of each kind here")
    args = parser.parse_args()
    if args.samples:
        write_samples(args.samples)
        return
    print(
        f"render bench, {pin_to_one_core()}; picture cache cleared before every render;"
        f" times are CPU ms of the rendering thread, best of {args.repeats} (wall clock in brackets)"
    )
    start = time.perf_counter()
    render_hand(["AS"])  # loads Pillow's font and codecs, as the bot's first render would
    cold = []
    for _ in range(3):
        card_face.cache_clear()
        clear_render_cache()
        begin = time.perf_counter()
        render_hand(["AS", "10S", "KS", "QS", "JS", "9S", "AH", "10H", "KH", "QH", "JH", "9H"], legal=["AS"])
        cold.append((time.perf_counter() - begin) * 1000)
    print(f"first 12-card hand with no card face drawn yet: {min(cold):.1f} ms (faces are cached after)")
    ok = True
    memory_before = resident_mib()
    for variant in variant_names():
        states = collect(variant, args.states)
        for kind in ("hand", "trick", "melds"):
            ok &= report(variant, kind, getattr(states, kind), args.repeats, args.largest)
    print(f"all variants within the goals: {'yes' if ok else 'NO'} ({time.perf_counter() - start:.0f} s)")
    if memory_before is not None:
        grown = (resident_mib() or 0.0) - memory_before
        print(
            f"memory: resident size grew {grown:.0f} MiB over playing and rendering every variant"
            f" ({card_face.cache_info().currsize} card faces cached, pictures cache bounded)"
        )
    run_lag(args.tables, args.turns)


if __name__ == "__main__":
    main()
