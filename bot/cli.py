"""Command line: ``tricknight`` / ``python -m bot`` runs the Discord bot; ``check``, ``backup``,
``restore`` and ``health`` look after a hosted bot; ``worker`` serves its searches over NATS;
``play`` runs a game in the terminal against computer players; ``simulate`` plays computer-only
games."""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from bot import __version__, render
from bot.ai import decide, levels, make_player
from bot.bid_menu import amounts, ladder_hint
from bot.config import ConfigError, Settings, load_settings, read_settings, token_problem
from bot.engine import (
    EngineError,
    Game,
    Kind,
    find_variant,
    new_game,
    parse_action,
    parse_option_pairs,
    variant_names,
)
from bot.irreversible import IRREVERSIBLE, question
from bot.levels import computer_label, find_level, level_name
from bot.simulate import simulate

INTERRUPTED = 130  # the exit status after Ctrl-C: 128 + SIGINT, as shells expect
BROKEN_PIPE = 141  # 128 + SIGPIPE: what a shell reports for a program whose reader went away


class UsageError(Exception):
    """Bad command-line input: printed as one line, exit status 2."""


def build_parser() -> argparse.ArgumentParser:
    # --env-file is accepted before or after the command; SUPPRESS keeps a later default from
    # overwriting an earlier value.
    env_file = argparse.ArgumentParser(add_help=False)
    env_file.add_argument(
        "--env-file", type=Path, default=argparse.SUPPRESS, metavar="PATH",
        help="read settings from this file instead of ./.env (the environment still wins)",
    )  # fmt: skip
    parser = argparse.ArgumentParser(
        prog="tricknight",
        parents=[env_file],
        description="Trick Night: Pinochle and Pitch tables for Discord. "
        "With no command, runs the Discord bot (needs DISCORD_TOKEN).",
    )
    parser.add_argument(
        "--version", action="version", version=f"tricknight {__version__} (Python {sys.version.split()[0]})"
    )
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("run", parents=[env_file], help="run the Discord bot (the default)")
    sub.add_parser(
        "check", parents=[env_file],
        help="check the settings, token and database without connecting; print the invite URL",
    )  # fmt: skip
    backup = sub.add_parser(
        "backup", parents=[env_file], help="copy the database to PATH (safe while the bot runs)"
    )
    backup.add_argument("path", help="the backup file (or a folder for a dated file)")
    backup.add_argument("--force", action="store_true", help="replace PATH if it exists")
    restore = sub.add_parser(
        "restore", parents=[env_file], help="replace the database with the backup at PATH (bot stopped)"
    )
    restore.add_argument("path", type=Path, help="a backup made by tricknight backup")
    sub.add_parser(
        "health", parents=[env_file], help="exit 0 if the bot on this database is running and connected"
    )
    migrate = sub.add_parser(
        "migrate-store",
        help="copy an SQLite database to an empty PostgreSQL database (or back), and verify the copy",
    )
    migrate.add_argument("--from", dest="source", required=True, metavar="PATH", help="the SQLite database")
    migrate.add_argument(
        "--to", dest="target", required=True, metavar="URL", help="postgresql://user@host:port/database"
    )
    worker = sub.add_parser(
        "worker", parents=[env_file],
        help="serve hard decisions and hints to the bots over NATS (TRICKNIGHT_NATS_URL)",
        description="Serve the bots' searching (hard) decisions and hints over the NATS server of "
        "TRICKNIGHT_NATS_URL, listening on <prefix>.decide and <prefix>.hint (TRICKNIGHT_NATS_PREFIX, "
        "default tricknight) in the queue group 'workers': start as many workers as you like, on any "
        "machine, and stop them at any time. Each search runs in a process of the worker's own pool. "
        "SIGTERM (or Ctrl-C) finishes the requests in hand, takes no new ones and exits 0. A request "
        "carries the whole game, every hand included: run workers only where the bot itself may run, "
        "on a NATS server no one else reaches (or with credentials and TLS in the URL).",
    )  # fmt: skip
    worker.add_argument(
        "--processes", type=int, default=None, metavar="N",
        help="searches at once, each in a process of its own (default: one per core, here "
        f"{os.cpu_count() or 1})",
    )  # fmt: skip
    worker.add_argument(
        "--check", action="store_true",
        help="do not serve: exit 0 if a worker on this host answers on <prefix>.status, 1 if not "
        "(a container's health check)",
    )  # fmt: skip

    play = sub.add_parser("play", help="play one game in the terminal against computer players")
    play.add_argument("variant", help=f"one of: {', '.join(variant_names())}")
    # --players and --seed stay text: the engine checks them (once, for every front end).
    play.add_argument(
        "--players", help="number of players (default: the variant's usual number); you are seat 1"
    )
    play.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="house rule, e.g. --option target=21 --option smudge=on",
    )
    play.add_argument(
        "--level", default="easy",
        help="the computers' level: easy (rule-based, the default) or hard (searches sampled deals, "
        "up to a second a move); random plays random legal moves, for testing",
    )  # fmt: skip
    play.add_argument("--seed", help="seed for a repeatable game (a whole number)")

    sim = sub.add_parser("simulate", help="play computer-only games and print the results")
    sim.add_argument("variant", help=f"one of: {', '.join(variant_names())}")
    sim.add_argument("--games", type=int, default=100, help="how many games to play (default 100)")
    sim.add_argument("--seed", default="1", help="seed of the first game (a whole number; default 1)")
    sim.add_argument("--players", help="number of players (default: the variant's usual number)")
    sim.add_argument(
        "--seats",
        help="comma-separated level per seat, e.g. easy,random,random (default: easy in every seat). "
        "Levels: easy (rule-based), hard (searches sampled deals, up to a second a move), "
        "random (random legal moves, a yardstick for testing)",
    )
    sim.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE",
        help="house rule, e.g. --option target=21 --option smudge=on",
    )  # fmt: skip
    sim.add_argument(
        "--max-deals",
        type=int,
        default=1000,
        help="stop a game after this many deals (random play can go on for ever; default 1000)",
    )
    meld = sub.add_parser("meld", help="count the meld in a pinochle hand")
    meld.add_argument("variant", help="a pinochle variant, e.g. pinochle-4")
    meld.add_argument("--trump", required=True, help="trump suit: S, H, D or C (or ♠ ♥ ♦ ♣)")
    meld.add_argument("cards", nargs="+", help="the cards, e.g. AH 10H KH QH JH QS JD")
    meld.add_argument("--json", action="store_true", help='print {"total": N, "melds": [...]}')
    meld.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE",
        help="a house rule that changes the pack or the meld table, e.g. --option deck64=on (pinochle-2) "
        "or --option meld=toby-thomas (double-deck)",
    )  # fmt: skip
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command == "play":
            return play_command(args, sys.stdin, sys.stdout)
        if args.command == "simulate":
            return simulate_command(args)
        if args.command == "meld":
            return meld_command(args, sys.stdout)
        if args.command == "check":
            return check_command(args)
        if args.command == "migrate-store":
            from bot.migrate import migrate_command

            return migrate_command(args.source, args.target, sys.stdout, sys.stderr)
        if args.command == "worker":
            return worker_command(args, load_settings(getattr(args, "env_file", None)))
        if args.command in HOSTING_COMMANDS:
            return HOSTING_COMMANDS[args.command](args, load_settings(getattr(args, "env_file", None)))
        return run_command(load_settings(getattr(args, "env_file", None)))
    except ConfigError as err:
        for problem in err.problems:  # every bad setting, one a line
            print(f"tricknight: {problem}", file=sys.stderr)
        return 2
    except (UsageError, EngineError, ValueError) as err:
        print(f"tricknight: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # e.g. a long simulate; play and the bot say so themselves
        print("\ntricknight: stopped by Ctrl-C", file=sys.stderr)
        return INTERRUPTED
    except BrokenPipeError:
        # The reader of the output went away (`… | head`): stop quietly, as other commands do. Later
        # writes (Python's own flush at exit) go nowhere instead of failing again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return BROKEN_PIPE


def this_command(argv0: str | None = None, executable: str | None = None, cwd: Path | None = None) -> str:
    """The command that started this program, as one would type it again here: ``tricknight``
    when that is what the shell finds, else the script's path (``.venv/bin/tricknight``), or the
    interpreter with ``-m bot`` (``.venv/bin/python -m bot``; ``python -m bot`` only when ``python``
    is this interpreter, as in an active virtual environment). Hints name it, so they work as
    printed whether or not a virtual environment is active."""
    argv0 = sys.argv[0] if argv0 is None else argv0
    executable = sys.executable if executable is None else executable
    cwd = Path.cwd() if cwd is None else cwd
    if Path(argv0).name == "__main__.py" or not argv0:
        program, suffix = Path(executable), " -m bot"
    else:
        program, suffix = Path(argv0), ""
    found = shutil.which(program.name)
    if found is not None and Path(found).absolute() == (cwd / program).absolute():
        return program.name + suffix
    try:
        shown = (cwd / program).absolute().relative_to(cwd.absolute())
    except ValueError:
        return f"{program}{suffix}"
    return f"{shown}{suffix}"


def run_command(settings: Settings) -> int:
    if settings.token is None:
        print(
            "tricknight: DISCORD_TOKEN is not set: put it in a .env file here (copy .env.example) "
            f"or in the environment. To play without Discord: {this_command()} play pitch",
            file=sys.stderr,
        )
        return 2
    problem = token_problem(settings.token)
    if problem is not None:
        raise UsageError(f"{problem} ({this_command()} check tells more)")
    from bot.lifecycle import run

    return run(settings)


def check_command(args: argparse.Namespace) -> int:
    """``tricknight check``: every problem found, bad settings among them, one ``problem:`` line
    each (exit 1), or ready (exit 0)."""
    from bot.checkup import check_settings, print_check

    settings, problems = read_settings(getattr(args, "env_file", None))
    return print_check(check_settings(settings, setting_problems=problems), command=this_command())


def health_command(args: argparse.Namespace, settings: Settings) -> int:
    from bot.checkup import print_health

    return print_health(settings)


def worker_command(args: argparse.Namespace, settings: Settings) -> int:
    if args.processes is not None and args.processes < 1:
        raise UsageError("--processes must be at least 1")
    if settings.nats_url is None:
        raise UsageError(
            "worker: TRICKNIGHT_NATS_URL is not set: the worker serves the bots over a NATS server, e.g. "
            "TRICKNIGHT_NATS_URL=nats://127.0.0.1:4222 (README: Worker processes over NATS)"
        )
    from bot.remote import install_hint, nats_available

    if not nats_available():
        raise UsageError(f"worker: the NATS client is not installed: {install_hint()}")
    if args.check:
        import asyncio

        from bot.worker import check_here

        healthy, text = asyncio.run(check_here(settings.nats_url, settings.nats_prefix))
        print(text)
        return 0 if healthy else 1
    from bot.worker import run

    return run(settings.nats_url, settings.nats_prefix, args.processes, log_level=settings.log_level)


def not_for_postgresql(command: str, settings: Settings) -> int | None:
    """``backup`` and ``restore`` copy SQLite files: on PostgreSQL, say which tools do it (exit 2)."""
    if settings.database_url is None:
        return None
    label = settings.database_label
    print(
        f"tricknight: {command}: the database is PostgreSQL ({label}), which `tricknight {command}` does "
        "not copy (it copies SQLite files). Use the server's own tools, with the bot stopped for a "
        f"restore: pg_dump --format=custom --file tricknight.dump '{label}' to back up, and "
        f"pg_restore --clean --if-exists --dbname '{label}' tricknight.dump to restore.",
        file=sys.stderr,
    )
    return 2


def backup_command(args: argparse.Namespace, settings: Settings) -> int:
    from bot.backup import BackupError, backup_database

    if (refused := not_for_postgresql("backup", settings)) is not None:
        return refused

    try:
        info = backup_database(settings.database, args.path, force=args.force)
    except BackupError as err:
        print(f"tricknight: backup: {err}", file=sys.stderr)
        return 1
    print(f"backed up {settings.database} to {info.path}: {info.summary()}; integrity check ok")
    return 0


def restore_command(args: argparse.Namespace, settings: Settings) -> int:
    from bot.backup import BackupError, restore_database

    if (refused := not_for_postgresql("restore", settings)) is not None:
        return refused

    try:
        done = restore_database(args.path, settings.database)
    except BackupError as err:
        print(f"tricknight: restore: {err}", file=sys.stderr)
        return 1
    print(f"restored {done.database} from {args.path.expanduser().absolute()}: {done.info.summary()}")
    if done.kept is not None:
        print(f"the database it replaced is kept as {done.kept}")
    return 0


HOSTING_COMMANDS: dict[str, Callable[[argparse.Namespace, Settings], int]] = {
    "health": health_command,
    "backup": backup_command,
    "restore": restore_command,
}


def _game_from_args(args: argparse.Namespace) -> Game:
    options = parse_option_pairs(args.option)
    find_variant(args.variant)
    return new_game(args.variant, players=args.players, options=options, seed=args.seed)


QUIT_WORDS = {"quit", "q", "exit"}
YES_WORDS = {"yes", "y"}
YES_TEXT = {"declare-out": "declare out", "concede": "concede", "throw-in": "throw in"}


class Abandoned(Exception):
    """The player typed 'quit' or the input ended (Ctrl-D): the game stops without a result."""


def play_command(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    """One game in the terminal: you are seat 1, computers fill the other seats. Exit status 0,
    also when you quit; 130 when Ctrl-C stops it."""
    game = _game_from_args(args)
    family = type(game).family
    level = find_level(args.level, levels(family))
    names = ["You"] + [computer_label(f"Computer {seat + 1}", level) for seat in range(1, game.players)]
    bots = [make_player(family, level, game.seed + seat) for seat in range(game.players)]
    out: Callable[[str], Any] = lambda text: print(text, file=stdout, flush=True)  # noqa: E731
    opponents = render.count(game.players - 1, f"{level_name(level)} computer player")
    out(
        f"{game.title}: you are seat 1 against {opponents}. Type a number or an action such as "
        "'bid 2' or 'play 10H'; 'help' for the actions; 'quit' (or Ctrl-D) to stop."
    )
    out(render.player_text(game.rules_text))
    shown = -1  # the game's length when the table was last shown
    try:
        while not game.is_over:
            seat = game.to_act[0]
            if seat != 0:
                events = game.apply(seat, decide(bots[seat], game, seat))
            else:
                # After help or a refusal nothing changed: only the hand and the choices again,
                # so the message stays right above them.
                taken = your_turn(game, names, stdin, out, table=shown != len(game.log))
                shown = len(game.log)
                if taken is None:
                    continue
                events = taken
            tell_events(game, events, names, out)
    except Abandoned:
        out("Game abandoned.")
        return 0
    except KeyboardInterrupt:
        out("")  # Ctrl-C leaves the cursor after "^C"
        out("Game abandoned.")
        return INTERRUPTED
    return 0


def read_line(stdin: TextIO) -> str:
    """The next line typed, stripped; ``Abandoned`` at the end of the input or on 'quit'."""
    line = stdin.readline()
    if not line or line.strip().lower() in QUIT_WORDS:
        raise Abandoned
    return line.strip()


def your_turn(
    game: Game, names: list[str], stdin: TextIO, out: Callable[[str], Any], *, table: bool = True
) -> list[dict[str, Any]] | None:
    """Show the table (unless ``table`` is false) and your choices, read one, and apply it: its
    events, or ``None`` when nothing was done (help, a refusal, a question answered no) and the
    turn is asked again."""
    view = game.view(0)
    out("")
    if table:
        out(render.table_text(view, names))
    out("Your hand: " + render.pretty_cards(view["hand"]))
    for text in render.seat_lines(view, names):
        out(text)
    choices = menu(view)
    for text in choice_lines(view, choices):
        out(text)
    choice = read_line(stdin)
    if choice.lower() in {"help", "h", "?"}:
        out(help_text(view))
        return None
    try:
        if choice.isdigit():
            if not 1 <= int(choice) <= len(choices):
                out(f"Choose a number from 1 to {len(choices)}.")
                return None
            choice = choices[int(choice) - 1]
        unknown = unknown_action(choice, view)
        if unknown:
            out(unknown)
            return None
        action = str(parse_action(choice))
        if action in IRREVERSIBLE and not confirmed(game, action, names, stdin, out):
            return None
        return game.apply(0, action)
    except EngineError as err:
        out(f"Not allowed: {render.name_seats(str(err), names)}")
        return None


def confirmed(game: Game, action: str, names: list[str], stdin: TextIO, out: Callable[[str], Any]) -> bool:
    """Ask before an action that cannot be undone, as Discord does: the question states what it
    would do; only 'yes' goes ahead. Raises the engine's error if the action is not open now."""
    out(f"{render.name_seats(question(game, 0, action), names)} Type 'yes' to {YES_TEXT[action]}, "
        "anything else to go back.")  # fmt: skip
    if read_line(stdin).lower() in YES_WORDS:
        return True
    out(f"You did not {YES_TEXT[action]}: nothing was changed.")
    return False


def tell_events(
    game: Game, events: list[dict[str, Any]], names: list[str], out: Callable[[str], Any]
) -> None:
    """Print each event's public line and, after it, what only seat 1 (you) sees of it."""
    view = game.public_view()
    mine = game.view(0)
    for event in events:
        public = render.describe_event(event, view, names)
        for text in (public, render.private_event_line(event, mine, names)):
            if text:
                out(text)


MENU_BIDS = 5  # bids listed by number; any other is typed as 'bid N'
ACTION_HELP = {
    "pass": "pass",
    "bid": "bid N — bid N points (now {bids})",
    "play": "play CARD — play a card, e.g. 'play {card}' (also '10♥' or 'th' for 10H)",
    "trump": "trump SUIT — name trump: trump S, H, D or C",
    "meld": "meld CARDS — lay a meld, e.g. 'meld QS JD'",
    "bury": "bury CARD — bury a card",
    "discard": "discard CARD — discard a card face down (point cards may not be discarded)",
    "keep": "keep CARD — keep a card; once you have six, the rest is discarded face down",
    "give": "give CARD — pass a card to your partner",
    "exchange": "exchange CARD — exchange the dix for the turned card",
    "ask": "ask SUIT — name the suit you want from your partner",
    "declare-out": "declare-out — claim you have reached the target (if wrong, your side loses)",
    "concede": "concede — give up this hand",
    "throw-in": "throw-in — throw in the hand without playing it",
    "tell-meld": "tell-meld — tell your meld with your bid (one number, counted without trump)",
}


def choice_lines(view: dict[str, Any], choices: list[str]) -> list[str]:
    """What the terminal asks: the task when it needs words (discarding), then the numbered
    choices, a hint for bids beyond them, and, apart from the rest, what cannot be undone."""
    lines = [f"Your turn: {render.doing_text(view)}."] if view["phase"] == "discard" else []
    for number, action in enumerate(choices, 1):
        if action in IRREVERSIBLE:
            continue
        lines.append(f"  {number}. {render.action_label(view, action)}")
    bids = amounts(view["legal"])
    if len(bids) > len([a for a in choices if a.startswith("bid ")]):
        lines.append(f"  … or type 'bid N' for any other bid up to {render.bid_text(view, bids[-1])}.")
    final = [(number, action) for number, action in enumerate(choices, 1) if action in IRREVERSIBLE]
    if final:
        lines.append("  Cannot be undone (you are asked first):")
        lines += [f"  {number}. {render.action_label(view, action)}…" for number, action in final]
    return lines


def menu(view: dict[str, Any]) -> list[str]:
    """The numbered choices: every legal action but bids, of which only the next few; what cannot
    be undone comes last."""
    bids = set(amounts(view["legal"])[:MENU_BIDS])
    shown = [a for a in view["legal"] if not a.startswith("bid ") or int(a.split()[1]) in bids]
    return [a for a in shown if a not in IRREVERSIBLE] + [a for a in shown if a in IRREVERSIBLE]


def _kinds(view: dict[str, Any]) -> list[str]:
    return list(dict.fromkeys(action.split()[0] for action in view["legal"]))


def help_text(view: dict[str, Any]) -> str:
    """The actions of this game open to you now (a Pitch table never lists pinochle actions)."""
    bids = amounts(view["legal"])
    card = next((a.split()[1] for a in view["legal"] if a.startswith("play ")), "10H")
    lines = ["Type a number from the list, or one of the actions you can take now:"]
    for kind in _kinds(view):
        text = ACTION_HELP.get(kind, kind)
        lines.append("  " + text.format(bids=ladder_hint(view, bids), card=card))
    lines.append("'quit' (or Ctrl-D) stops the game.")
    return "\n".join(lines)


def unknown_action(choice: str, view: dict[str, Any]) -> str | None:
    """A sentence for a word that is no action at all (the engine's own message would list
    every action of every game); ``None`` when it is one."""
    word = choice.split(maxsplit=1)[0].lower() if choice.split() else ""
    if word in {kind.value for kind in Kind}:
        return None
    now = ", ".join(f"'{kind}'" for kind in _kinds(view))
    return f"Not allowed: unknown action {word!r}: now you can {now} ('help' explains them)."


def simulate_command(args: argparse.Namespace) -> int:
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    family = find_variant(args.variant).family
    seats = [find_level(level, levels(family)) for level in args.seats.split(",")] if args.seats else None
    result = simulate(
        args.variant,
        games=args.games,
        seed=args.seed,
        players=args.players,
        seat_levels=seats,
        options=parse_option_pairs(args.option),
        max_deals=args.max_deals,
    )
    print(result.report())
    return 0


def meld_command(args: argparse.Namespace, stdout: TextIO) -> int:
    """Print every meld in the given cards (with the cards each uses) and the total."""
    import json

    from bot.engine.pinochle import meld_hand

    result = meld_hand(args.variant, args.trump, args.cards, parse_option_pairs(args.option))
    if args.json:
        print(json.dumps(result.to_json(), ensure_ascii=False), file=stdout)
        return 0
    width = max([len(meld.name) for meld in result.melds] + [4])
    for meld in result.melds:
        cards = " ".join(card.pretty for card in meld.cards)
        print(f"{meld.name:<{width}}  {meld.points:>5}  {cards}", file=stdout)
    if not result.melds:
        print("no meld", file=stdout)
    print(f"{'total':<{width}}  {result.total:>5}", file=stdout)
    return 0
