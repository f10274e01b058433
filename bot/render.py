"""Plain-text rendering of engine views and events, shared by the terminal table and Discord.

Everything here reads ``public_view()``/``view(seat)`` dicts and event dicts, so it can only show
what those already allow; it decides no rule.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from bot.engine import Card, Suit


def name_seats(text: str, names: Sequence[str]) -> str:
    """Replace the engine's ``seat 3`` / ``seats 1 & 3`` wording with the players' names."""
    text = re.sub(
        r"\bseats (\d+) & (\d+)",
        lambda m: f"{names[int(m.group(1)) - 1]} & {names[int(m.group(2)) - 1]}",
        text,
    )
    return re.sub(r"\bseat (\d+)", lambda m: names[int(m.group(1)) - 1], text)


def says(name: str, verb: str) -> str:
    """``Ann plays`` but ``You play``: ``verb`` is given in the third person."""
    if name == "You":
        verb = {"passes": "pass", "pitches": "pitch"}.get(verb, verb[:-1])
    return f"{name} {verb}"


def pretty(code: str) -> str:
    """``10H`` → ``10♥``."""
    return Card.parse(code).pretty


def pretty_cards(codes: Sequence[str]) -> str:
    return " ".join(pretty(code) for code in codes) or "—"


def suit_name(code: str | None) -> str:
    if code is None:
        return "not named yet"
    suit = Suit.parse(code)
    return f"{suit.symbol} {suit.label}"


def bid_text(view: dict[str, Any], amount: int | None) -> str:
    if amount is None:
        return "pass"
    if view.get("family") == "pitch" and view.get("variant") == "pitch-partnership" and amount == 5:
        return "smudge"
    return str(amount)


def action_label(view: dict[str, Any], action: str) -> str:
    """A button label for an action's canonical text (``bid 5`` → ``Smudge`` in partnership pitch)."""
    kind, _, rest = action.partition(" ")
    if kind == "play":
        return pretty(rest)
    if kind == "bid":
        return "Bid " + bid_text(view, int(rest)).capitalize()
    if kind == "pass":
        return "Pass"
    if kind == "trump":
        return "Trump " + suit_name(rest)
    return action


def side_label(view: dict[str, Any], side: int, names: Sequence[str]) -> str:
    return " & ".join(names[seat] for seat in view["sides"][side])


def describe_event(event: dict[str, Any], view: dict[str, Any], names: Sequence[str]) -> str:
    """One line of table talk for an event (empty for events that need no line)."""
    kind = event["type"]
    if kind == "bid":
        if event["amount"] is None:
            return f"{says(names[event['seat']], 'passes')}."
        return f"{says(names[event['seat']], 'bids')} {bid_text(view, event['amount'])}."
    if kind == "redeal":
        return f"Everyone passed: {says(names[event['dealer']], 'deals')} again."
    if kind == "pitcher":
        return f"{says(names[event['seat']], 'pitches')} for {bid_text(view, event['bid'])}."
    if kind == "trump":
        return f"Trump is {suit_name(event['suit'])}."
    if kind == "play":
        return f"{says(names[event['seat']], 'plays')} {pretty(event['card'])}."
    if kind == "trick":
        return f"{says(names[event['winner']], 'takes')} the trick ({pretty_cards(event['cards'])})."
    if kind == "deal_scored":
        return deal_summary(event, view, names)
    if kind == "deal":
        return f"Deal {event['deal']}: {says(names[event['dealer']], 'deals')}."
    if kind == "game_over":
        winners = " & ".join(names[seat] for seat in event["winners"])
        verb = "wins" if len(event["winners"]) == 1 else "win"
        return f"Game over: {winners} {verb} ({name_seats(event['reason'], names)})."
    return ""


def deal_summary(
    summary: dict[str, Any], view: dict[str, Any], names: Sequence[str], *, with_cards: bool = False
) -> str:
    """Who took which point, whether the bid was made, and the new scores.

    Card names are left out unless asked for: by the time a summary is shown the next deal is in
    the players' hands, and a public line naming cards must never look like one of them.
    """
    lines = [f"Deal {summary['deal']} — trump {suit_name(summary['trump'])}."]
    for award in summary["awards"]:
        card = f" ({pretty(award['card'])})" if with_cards and award.get("card") else ""
        lines.append(f"  {award['point'].capitalize()}{card}: {side_label(view, award['side'], names)}")
    for name in ("high", "low", "jack", "game"):
        if name not in {a["point"] for a in summary["awards"]}:
            why = "not dealt" if name == "jack" else "tied"
            lines.append(f"  {name.capitalize()}: nobody ({why})")
    pitcher = names[summary["pitcher"]]
    verdict = "made it" if summary["made"] else "was set back"
    lines.append(f"  {pitcher} bid {bid_text(view, summary['bid'])} and {verdict}.")
    lines.append("  Scores: " + scores_line(view, summary["scores"], names, summary["changes"]))
    return "\n".join(lines)


def scores_line(
    view: dict[str, Any],
    scores: Sequence[int],
    names: Sequence[str],
    changes: Sequence[int] | None = None,
) -> str:
    parts = []
    for side, score in enumerate(scores):
        change = f" ({changes[side]:+d})" if changes is not None else ""
        parts.append(f"{side_label(view, side, names)} {score}{change}")
    return ", ".join(parts)


def trick_text(plays: Sequence[dict[str, Any]], names: Sequence[str]) -> str:
    return ", ".join(f"{names[p['seat']]} {pretty(p['card'])}" for p in plays) or "—"


def table_fields(view: dict[str, Any], names: Sequence[str]) -> list[tuple[str, str]]:
    """The table as (heading, text) pairs, from the public view only."""
    to_act = set(view["to_act"])
    seat_lines = []
    for seat, name in enumerate(names):
        marks = []
        if seat == view.get("dealer"):
            marks.append("dealer")
        if seat == view.get("pitcher"):
            marks.append("pitcher")
        sizes = view.get("hand_sizes")
        cards = f" · {sizes[seat]} cards" if sizes and view["phase"] != "over" else ""
        side = ""
        if len(view["sides"][0]) > 1:
            side = f" · team {'AB'[next(i for i, s in enumerate(view['sides']) if seat in s)]}"
        arrow = "▶ " if seat in to_act else ""
        extra = f" ({', '.join(marks)})" if marks else ""
        seat_lines.append(f"{arrow}{seat + 1}. {name}{extra}{side}{cards}")
    fields = [("Seats", "\n".join(seat_lines))]
    if view.get("bids"):
        fields.append(
            ("Bids", ", ".join(f"{names[b['seat']]} {bid_text(view, b['amount'])}" for b in view["bids"]))
        )
    if view.get("trump"):
        pitcher = view.get("pitcher")
        by = f" — {names[pitcher]} bid {bid_text(view, view['high_bid'])}" if pitcher is not None else ""
        fields.append(("Trump", suit_name(view["trump"]) + by))
    if view.get("trick"):
        fields.append(("Trick", trick_text(view["trick"], names)))
    if view.get("last_trick"):
        last = view["last_trick"]
        fields.append(("Last trick", f"{trick_text(last['plays'], names)} → {names[last['winner']]}"))
    target = f" (game to {view['target']})" if view.get("target") else ""
    fields.append((f"Scores{target}", scores_line(view, view["scores"], names)))
    return fields


def status_text(view: dict[str, Any], names: Sequence[str]) -> str:
    if view.get("outcome"):
        winners = " & ".join(names[seat] for seat in view["outcome"]["winners"])
        return f"Game over — {winners} won ({name_seats(view['outcome']['reason'], names)})."
    waiting = ", ".join(names[seat] for seat in view["to_act"])
    doing = "bid" if view["phase"] == "bidding" else "play"
    return f"Deal {view['deal']}: waiting for {waiting} to {doing}."


def table_text(view: dict[str, Any], names: Sequence[str]) -> str:
    """A compact multi-line picture of the table as ``view`` shows it (the terminal table)."""
    lines = [f"{view['title']} — deal {view['deal']}"]
    lines.extend(
        f"{head}: {text}" if "\n" not in text else f"{head}:\n{text}"
        for head, text in table_fields(view, names)
    )
    return "\n".join(lines)
