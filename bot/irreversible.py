"""The actions that cannot be undone (declaring out, conceding, throwing in) and the question each
front end asks before taking one: Discord's **Declare out…** button and the terminal's numbered
list both ask it, so a player is told the same consequence wherever they play.

The consequence comes from the engine itself: the action is tried on a copy of the game.
"""

from __future__ import annotations

from bot.engine import Game

IRREVERSIBLE = ("declare-out", "concede", "throw-in")


def question(game: Game, seat: int, action: str) -> str:
    """What taking ``action`` (one of ``IRREVERSIBLE``) would do for ``seat`` now, as a question.
    Raises the engine's error when the game would not take the action now; ``game`` is unchanged."""
    trial = game.copy()
    events = trial.apply(seat, action)
    side = game.side_of[seat]
    ends = " This ends the game." if trial.is_over and action != "declare-out" else ""
    if action == "declare-out":
        declared = next(e for e in events if e["type"] == "declare_out")
        return (
            f"Declare out with {declared['total']:,}? If you are wrong your side loses the game "
            f"(the target is {declared['target']:,})."
        )
    scored = next((e for e in events if e["type"] == "deal_scored"), None)
    changes = scored.get("changes") if scored else None
    change = f" Your score changes by {changes[side]:+,} this deal." if isinstance(changes, list) else ""
    if action == "concede":
        return f"Concede this hand? The deal ends now and is scored as lost.{change}{ends}"
    return f"Throw in the hand? It is not played and your side loses its bid.{change}{ends}"
