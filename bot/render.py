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
    """Replace the engine's ``seat 3`` / ``seats 1 & 3 & 5`` wording with the players' names."""

    def name(number: str) -> str:
        index = int(number) - 1
        return names[index] if 0 <= index < len(names) else f"seat {number}"

    text = re.sub(
        r"\bseats (\d+(?: & \d+)+)",
        lambda m: " & ".join(name(n) for n in re.findall(r"\d+", m.group(1))),
        text,
    )
    return re.sub(r"\bseat (\d+)", lambda m: name(m.group(1)), text)


IRREGULAR = {
    "passes": "pass",
    "pitches": "pitch",
    "buries": "bury",
    "is": "are",
    "has": "have",
    "was": "were",
}


def says(name: str, verb: str, *, plural: bool = False) -> str:
    """``Ann plays`` but ``You play`` (and ``Ann & Bob play`` with ``plural``): ``verb`` is given
    in the third person singular."""
    if name == "You" or plural:
        verb = IRREGULAR.get(verb, verb[:-1])
    return f"{name} {verb}"


def count(number: int, noun: str) -> str:
    """``1 card``, ``3 cards``, ``1 chip``."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def rating(value: float) -> str:
    """A rating to one decimal; a tiny negative one reads ``0.0``, not ``-0.0``."""
    text = f"{value:.1f}"
    return "0.0" if text == "-0.0" else text


_GAP = re.compile(r"\s*\[gap(?::\s*(?P<note>[^\]]*))?\]")


def player_text(text: str) -> str:
    """Rules text as players read it: the spec's ``[gap]`` markers (where the sources are silent
    and the bot had to choose) are for developers; a marker's note stays, in brackets."""
    return _GAP.sub(lambda m: f" ({m['note'].strip()})" if m["note"] else "", text)


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
    named = (view.get("bid_names") or {}).get(str(amount))
    if named:
        return str(named)
    return str(amount)


BARE_LABELS = {
    "declare-out": "Declare out",
    "concede": "Concede",
    "throw-in": "Throw in",
    "tell-meld": "Tell my meld",
}


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
    if kind in ("meld", "bury", "give", "exchange", "discard", "keep"):
        cards = pretty_cards(rest.split())
        if kind == "exchange":
            return f"Exchange dix {cards}"
        return f"{kind.capitalize()} {cards}"
    if kind == "ask":
        return "Ask for " + suit_name(rest)
    return BARE_LABELS.get(kind, action)


def side_index(view: dict[str, Any], seat: int) -> int:
    """The side ``seat`` plays on."""
    return next(index for index, side in enumerate(view["sides"]) if seat in side)


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
        if isinstance(event.get("seat"), int) and view.get("family") == "pitch":
            return f"{says(names[event['seat']], 'names')} trump: {suit_name(event['suit'])}."
        return f"Trump is {suit_name(event['suit'])}."
    if kind == "widow_taken":
        return (
            f"{says(names[event['seat']], 'takes')} the widow ({count(event['count'], 'card')}, face down)."
        )
    if kind == "discard":
        return f"{says(names[event['seat']], 'has')} discarded {count(event['count'], 'card')}, face down."
    if kind == "keep":
        return ""
    if kind == "play":
        return f"{says(names[event['seat']], 'plays')} {pretty(event['card'])}."
    if kind == "trick":
        return f"{says(names[event['winner']], 'takes')} the trick ({pretty_cards(event['cards'])})."
    if kind == "deal_scored":
        return deal_summary(event, view, names)
    text = describe_pinochle_event(event, names)
    if text is not None:
        return text
    if kind == "deal":
        return f"Deal {event['deal']}: {says(names[event['dealer']], 'deals')}."
    if kind == "game_over":
        winners = " & ".join(names[seat] for seat in event["winners"])
        won = says(winners, "wins", plural=len(event["winners"]) > 1)
        return f"Game over: {won} ({name_seats(event['reason'], names)})."
    return ""


def describe_pinochle_event(event: dict[str, Any], names: Sequence[str]) -> str | None:
    """Lines for the events of the pinochle family (``None``: not one of them).

    Only what the event itself makes public is shown: counts of buried or passed cards, never
    which cards.
    """
    kind = event["type"]
    who = names[event["seat"]] if isinstance(event.get("seat"), int) else ""
    if kind == "meld":
        return f"{says(who, 'melds')} {event['name']} ({pretty_cards(event['cards'])}) for {event['points']}."
    if kind == "meld_shown":
        return f"{says(who, 'shows')} meld worth {event['total']}: {melds_text(event['melds'])}."
    if kind == "melds":
        return "Meld is shown: " + "; ".join(
            f"{names[seat]} {points}" for seat, points in enumerate(event.get("seat_meld") or [])
        )
    if kind == "exchange":
        return f"{says(who, 'exchanges')} the dix {pretty(event['gave'])} for {pretty(event['took'])}."
    if kind == "meld_told":
        return f"{says(who, 'tells')} a meld of {event['meld']} (counted without trump)."
    if kind == "exchange_pass":
        return ""
    if kind in ("meld_turn", "draw", "give", "pass_start"):
        return ""
    if kind == "playoff":
        return f"The stock is gone: the playoff begins, {says(names[event['leader']], 'leads')}."
    if kind == "bidder":
        return f"{says(who, 'wins')} the bid at {event['bid']}."
    if kind == "forced_bid":
        return f"Everyone passed: {says(who, 'is')} stuck with the forced bid of {event['bid']}."
    if kind == "widow":
        return f"The widow is turned: {pretty_cards(event['cards'])}."
    if kind == "bury":
        return f"{says(who, 'buries')} {count(event['count'], 'card')}."
    if kind == "pass_cards":
        giver = says(names[event["from"]], "passes")
        return f"{giver} {count(event['count'], 'card')} to {names[event['to']]}."
    if kind == "passed":
        return f"{names[event['from']]} passed {count(event['count'], 'card')} to {names[event['to']]}."
    if kind == "declare_out":
        return f"{says(who, 'declares')} out with {event['total']} (target {event['target']})."
    if kind == "concede":
        return f"{says(who, 'concedes')}."
    if kind == "gave_up":
        return give_up_text(event.get("reason"), who)
    if kind == "throw_in":
        return f"{says(who, 'throws')} in the hand."
    if kind == "ask":
        suit = event.get("suit")
        return f"{says(who, 'asks')} for {suit_name(suit) if suit else 'nothing'}."
    return None


def give_up_text(reason: str | None, who: str) -> str:
    """The line for a double-deck give-up as it happens (a throw-in has its own line already)."""
    if reason == "no-marriage":
        return f"{says(who, 'has')} no marriage to name trump with: the bid is lost without play."
    if reason == "under-20":
        side = "Your side's" if who == "You" else f"{who}'s side's"
        return f"{side} meld is under 20: the bid is lost without play."
    if reason == "throw-in":
        return ""
    return f"{says(who, 'gives')} up the hand."


GAVE_UP_SUMMARY = {
    "no-marriage": "{who} had no marriage to name trump with: the hand was not played.",
    "under-20": "{whose} side had under 20 meld: the bid was lost without play.",
    "throw-in": "{who} threw in the hand.",
}
CONCEDED_SUMMARY = {
    "forced": "{who} conceded the forced bid without looking at the widow.",
    "widow": "{who} conceded after seeing the widow.",
}
MELD_LOST = {
    "set": "lost: the bid was not made",
    "gave-up": "lost: the hand was given up",
    "under-20": "not scored: under 20",
    "tricks-under-20": "lost: under 20 in tricks",
    "giveup-rule": "not scored: the give-up rule",
}
"""Why a side's meld was not scored (``meld_lost`` of a double-deck deal report)."""


def throw_in_cost(offer: dict[str, Any]) -> str:
    """``you lose 80; the opponents score their meld 30``: what throwing in costs the bidding side."""
    meld, bonus = offer["meld"], offer["bonus"]
    if offer["played"]:
        rest = "the hand is still played out and the opponents score their meld and tricks"
    elif meld and bonus:
        rest = f"the opponents score their meld {meld} and {bonus} for the cards"
    elif meld:
        rest = f"the opponents score their meld {meld}"
    elif bonus:
        rest = f"the opponents score {bonus} for the cards"
    else:
        rest = "the opponents score nothing"
    return f"you lose {offer['bid']}; {rest}"


def throw_in_line(view: dict[str, Any]) -> str:
    """The bidder's offer to throw in, with its cost (empty when throwing in is not allowed)."""
    offer = view.get("throw_in_offer")
    if not offer or "throw-in" not in view.get("legal", ()):
        return ""
    why = ""
    if offer["short"]:
        why = f"Your side's meld is more than 50 short of your bid of {offer['bid']}. "
    return f"{why}You may throw in before the first lead: {throw_in_cost(offer)}."


def melds_text(melds: Sequence[dict[str, Any]]) -> str:
    """``Pinochle Q♠ J♦ 40, …`` (or ``no meld``)."""
    return ", ".join(f"{m['name']} {pretty_cards(m['cards'])} {m['points']}" for m in melds) or "no meld"


POINT_NAMES = {
    "high": "High",
    "low": "Low",
    "jack": "Jack",
    "off-jack": "Off-Jack",
    "joker": "Joker",
    "high-joker": "High Joker",
    "low-joker": "Low Joker",
    "three": "Three",
}
"""The pitch points before Game, in the count-out order, as players call them."""
NOT_AWARDED = {
    "low": "no trump but a joker in play",
    "jack": "the jack of trump was not dealt",
    "off-jack": "the off-jack was not dealt",
    "joker": "the joker was not dealt",
    "high-joker": "the High Joker was not dealt",
    "low-joker": "the Low Joker was not dealt",
}


def pitch_points(view: dict[str, Any]) -> list[str]:
    """The points a deal of this table can have besides Game (the extra trumps' from
    ``view["trump_rules"]``; the Three only shows when it was awarded)."""
    points = ["high", "low", "jack"]
    rules = view.get("trump_rules")
    if isinstance(rules, dict):
        if rules.get("off_jack"):
            points.append("off-jack")
        points += [{"JK": "joker", "HJ": "high-joker", "LJ": "low-joker"}[code] for code in rules["jokers"]]
    return points


def deal_summary(summary: dict[str, Any], view: dict[str, Any], names: Sequence[str]) -> str:
    """Who took which point with which card (High, Low, Jack and the other point cards are named:
    they were played in the deal just scored), each side's game count, whether the bid was made,
    and the new scores."""
    if "awards" not in summary:
        return pinochle_summary(summary, view, names)
    lines = [f"Deal {summary['deal']} — trump {suit_name(summary['trump'])}."]
    awards = {award["point"]: award for award in summary["awards"]}
    values = summary.get("game_values")
    points = pitch_points(view) + (["three"] if "three" in awards else [])
    for point in points:
        award = awards.get(point)
        if award is None:
            why = NOT_AWARDED.get(point, "not awarded")
            lines.append(f"  {POINT_NAMES[point]}: nobody ({why})")
            continue
        code = award.get("card")
        named = code and point in ("high", "low", "jack", "three")  # the others name their card
        card = f" ({pretty(code)})" if named else ""
        if point == "three":
            card = f" ({pretty(code)}, 3 points)" if code else " (3 points)"
        lines.append(f"  {POINT_NAMES[point]}{card}: {side_label(view, award['side'], names)}")
    lines.append("  " + game_point_text(awards.get("game"), values, view, names))
    pitcher = names[summary["pitcher"]]
    verdict = "made it" if summary["made"] else f"{'were' if pitcher == 'You' else 'was'} set back"
    lines.append(f"  {pitcher} bid {bid_text(view, summary['bid'])} and {verdict}.")
    lines.append("  Scores: " + scores_line(view, summary["scores"], names, summary["changes"]))
    return "\n".join(lines)


def game_point_text(
    award: dict[str, Any] | None, values: Sequence[int] | None, view: dict[str, Any], names: Sequence[str]
) -> str:
    """``Game: Ann with 23 (Bob 17)``: who took the most card points for game, and the others."""
    if values is None:
        return f"Game: {side_label(view, award['side'], names)}" if award else "Game: nobody (tied)"
    counts = [f"{side_label(view, side, names)} {value}" for side, value in enumerate(values)]
    if award is None:
        return f"Game: nobody (tied: {', '.join(counts)})"
    side = award["side"]
    others = [text for index, text in enumerate(counts) if index != side]
    return f"Game: {side_label(view, side, names)} with {values[side]} ({', '.join(others)})"


def seat_name(names: Sequence[str], seat: Any) -> str:
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "nobody"


def _seq(value: Any) -> list[Any] | None:
    return list(value) if isinstance(value, list | tuple) else None


def pinochle_summary(summary: dict[str, Any], view: dict[str, Any], names: Sequence[str]) -> str:
    """A pinochle deal's score (any variant): per side meld, counters and change; the bid; scores."""
    lines = [f"Deal {summary['deal']} — trump {suit_name(summary.get('trump'))}."]
    bidder = summary.get("bidder")
    who = seat_name(names, bidder)
    whose = "Your" if who == "You" else f"{who}'s"
    if summary.get("conceded"):
        text = CONCEDED_SUMMARY.get(summary["conceded"], "{who} conceded.")
        lines.append("  " + text.format(who=who))
    elif summary.get("gave_up"):
        text = GAVE_UP_SUMMARY.get(summary["gave_up"], "{who} gave up the hand.")
        lines.append("  " + text.format(who=who, whose=whose))
    meld = summary.get("meld")
    meld_counted = _seq(summary.get("meld_counted"))
    counted = _seq(summary.get("counted"))
    counters = summary.get("counters")
    changes = _seq(summary.get("changes"))
    lost = _seq(summary.get("meld_lost"))
    if isinstance(meld, list):
        for side in range(len(view["sides"])):
            parts = [f"meld {meld[side]}"]
            if lost is not None:
                if lost[side] is not None:
                    parts[0] += f" ({MELD_LOST.get(lost[side], 'not scored')})"
            elif meld_counted is not None and meld_counted[side] != meld[side]:
                parts[0] += " (lost: no trick)"
            if counted is not None:
                parts.append(f"counters {counted[side]}")
            elif isinstance(counters, list):
                parts.append(f"counters {counters[side]}")
            lines.append(f"  {side_label(view, side, names)}: " + ", ".join(parts))
    elif meld is not None and bidder is not None:
        lines.append(f"  {names[bidder]}: meld {meld}, counters {counters}")
    if bidder is not None and summary.get("buried"):
        counters = summary.get("buried_counters")
        worth = f", worth {counters} in counters" if counters is not None else ""
        lines.append(f"  {names[bidder]} had buried {pretty_cards(summary['buried'])}{worth}.")
    if bidder is not None and summary.get("bid") is not None and summary.get("made") is not None:
        who = names[bidder]
        verdict = "made it" if summary["made"] else f"{'were' if who == 'You' else 'was'} set back"
        lines.append(f"  {who} bid {summary['bid']} and {verdict}.")
    if "kitty" in summary:
        lines.append(f"  Kitty: {count(summary['kitty'], 'chip')}.")
    lines.append("  Scores: " + scores_line(view, summary["scores"], names, changes))
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
    # During the auction the high bidder is not yet the pitcher (or bidder): the Bids field says it.
    auction = view.get("phase") == "bidding"
    seat_lines = []
    for seat, name in enumerate(names):
        marks = []
        if seat == view.get("dealer"):
            marks.append("dealer")
        if seat == view.get("pitcher") and not auction:
            marks.append("pitcher")
        if seat == view.get("bidder") and not auction:
            marks.append("bidder")
        sizes = view.get("hand_sizes")
        cards = f" · {count(sizes[seat], 'card')}" if sizes and view["phase"] != "over" else ""
        side = ""
        if len(view["sides"][0]) > 1:
            side = f" · team {'ABCDEFGH'[side_index(view, seat)]}"
        arrow = "▶ " if seat in to_act else ""
        extra = f" ({', '.join(marks)})" if marks else ""
        seat_lines.append(f"{arrow}{seat + 1}. {name}{extra}{side}{cards}")
    fields = [("Seats", "\n".join(seat_lines))]
    if view.get("bids"):
        fields.append(
            ("Bids", ", ".join(f"{names[b['seat']]} {bid_text(view, b['amount'])}" for b in view["bids"]))
        )
    if view.get("widow_size"):
        fields.append(("Widow", f"{count(view['widow_size'], 'card')}, face down"))
    if view.get("trump"):
        pitcher = view.get("pitcher")
        bidder = view.get("bidder")
        by = ""
        if pitcher is not None:
            by = f" — {names[pitcher]} bid {bid_text(view, view['high_bid'])}"
        elif bidder is not None and view.get("high_bid"):
            by = f" — {names[bidder]} bid {view['high_bid']}"
        fields.append(("Trump", suit_name(view["trump"]) + by))
    fields.extend(pinochle_fields(view, names))
    if view.get("trick"):
        fields.append(("Trick", trick_text(view["trick"], names)))
    if view.get("last_trick"):
        last = view["last_trick"]
        fields.append(("Last trick", f"{trick_text(last['plays'], names)} → {names[last['winner']]}"))
    target = f" (game to {view['target']})" if view.get("target") else ""
    fields.append((f"Scores{target}", scores_line(view, view["scores"], names)))
    return fields


def pinochle_fields(view: dict[str, Any], names: Sequence[str]) -> list[tuple[str, str]]:
    """What only pinochle public views hold (any variant; absent keys are skipped)."""
    fields: list[tuple[str, str]] = []
    if "stock" in view and view["phase"] != "over":
        turned = f", turned {pretty(view['turned'])}" if view.get("turned") else ""
        fields.append(("Stock", f"{count(view['stock'], 'card')}{turned}"))
    elif view.get("turned") and view["phase"] != "over":
        fields.append(("Turned card", pretty(view["turned"])))
    if view.get("exchanges"):
        fields.append(
            (
                "Dix exchanged",
                ", ".join(f"{names[e['seat']]} took {pretty(e['took'])}" for e in view["exchanges"]),
            )
        )
    if view.get("widow"):
        fields.append(("Widow", pretty_cards(view["widow"])))
    if view.get("buried_count"):
        fields.append(("Buried", f"{count(view['buried_count'], 'card')}, face down"))
    if isinstance(view.get("table"), list) and any(view["table"]):
        lines = [f"{names[seat]}: {pretty_cards(cards)}" for seat, cards in enumerate(view["table"]) if cards]
        fields.append(("Melded cards on the table", "\n".join(lines)))
    if view.get("meld_log"):
        recent = view["meld_log"][-6:]
        lines = [f"{names[m['seat']]}: {m['name']} {pretty_cards(m['cards'])} {m['points']}" for m in recent]
        if view.get("deal_meld"):
            lines.append(
                "Meld this deal: "
                + ", ".join(f"{names[seat]} {points}" for seat, points in enumerate(view["deal_meld"]))
            )
        fields.append(("Melds laid", "\n".join(lines)))
    meld = view.get("meld")
    if isinstance(meld, dict):
        fields.append((f"Meld — {names[meld['seat']]} ({meld['total']})", melds_text(meld["melds"])))
    if isinstance(view.get("melds"), list):
        lines = [f"{names[m['seat']]} ({m['total']}): {melds_text(m['melds'])}" for m in view["melds"]]
        if view.get("side_meld") and len(view["sides"][0]) > 1:
            lines.append(
                "Side meld: "
                + ", ".join(
                    f"{side_label(view, side, names)} {points}"
                    for side, points in enumerate(view["side_meld"])
                )
            )
        fields.append(("Meld", "\n".join(lines)))
    passing = view.get("passing")
    if isinstance(passing, dict) and "from" in passing:
        fields.append(
            (
                "Passing",
                f"{says(names[passing['from']], 'passes')} {count(passing['count'], 'card')} "
                f"to {names[passing['to']]}",
            )
        )
    elif isinstance(passing, dict) and "seats" in passing:
        fields.append(
            (
                "Passing",
                " & ".join(names[s] for s in passing["seats"]) + f" pass {count(passing['count'], 'card')}",
            )
        )
    offer = view.get("throw_in_offer")
    bidder = view.get("bidder")
    if isinstance(offer, dict) and offer.get("short") and isinstance(bidder, int):
        fields.append(
            (
                "Throw in?",
                f"{side_label(view, side_index(view, bidder), names)} cannot reach the bid of "
                f"{offer['bid']} (meld more than 50 short): "
                f"{says(names[bidder], 'decides')} whether to throw in or play",
            )
        )
    if "kitty" in view:
        fields.append(("Kitty", count(view["kitty"], "chip")))
    if view.get("counters") and view["phase"] != "over" and any(view["counters"]):
        fields.append(("Counters taken", scores_line(view, view["counters"], names)))
    return fields


def seat_lines(view: dict[str, Any], names: Sequence[str]) -> list[str]:
    """What only this seat's view holds besides the hand (drawn, buried and passed cards, its own
    meld): shown to that seat alone (the hand panel, the terminal)."""
    lines = []
    seat = view.get("seat", -1)
    if view.get("drew"):
        lines.append(f"You drew {pretty(view['drew'])} from the stock last (only you see this).")
    table_cards = view.get("table")
    if isinstance(table_cards, list) and 0 <= seat < len(table_cards) and table_cards[seat]:
        cards = pretty_cards(table_cards[seat])
        lines.append(f"Your melded cards on the table (still yours to play): {cards}")
    if view.get("buried"):
        lines.append(f"You buried (only you see these): {pretty_cards(view['buried'])}")
    if view.get("kept"):
        lines.append(f"Cards you chose to keep: {pretty_cards(view['kept'])}")
    if view.get("discarded"):
        lines.append(f"You discarded (only you see these): {pretty_cards(view['discarded'])}")
    passing = view.get("passing")
    if view.get("giving") or (isinstance(passing, dict) and seat in passing.get("waiting", ())):
        chosen = len(view.get("giving") or [])
        of = f" of {passing['count']}" if isinstance(passing, dict) and "count" in passing else ""
        lines.append(f"Cards you chose to pass ({chosen}{of}): {pretty_cards(view.get('giving') or [])}")
    if view.get("gave"):
        lines.append(f"You passed: {pretty_cards(view['gave'])}")
    if view.get("received"):
        lines.append(received_line(view, names))
    mine = view.get("my_meld")
    if isinstance(mine, dict) and mine.get("melds"):
        lines.append(f"Your meld ({mine['total']}): {melds_text(mine['melds'])}")
    offer = throw_in_line(view)
    if offer:
        lines.append(offer)
    return lines


def received_line(view: dict[str, Any], names: Sequence[str]) -> str:
    """``You received A♠ K♠ Q♠ from Ann (only you see these).`` (the receiver's view only)."""
    giver = view.get("received_from")
    source = f" from {names[giver]}" if isinstance(giver, int) and 0 <= giver < len(names) else ""
    return f"You received {pretty_cards(view['received'])}{source} (only you see these)."


def private_event_line(event: dict[str, Any], view: dict[str, Any], names: Sequence[str]) -> str:
    """The line only ``view``'s seat sees for a public event (empty when there is none): which
    cards a pass brought it. ``view`` is that seat's view after the event."""
    passed = event["type"] == "passed" and event["to"] == view.get("seat")
    if passed and view.get("received") and view.get("received_from") == event["from"]:
        return received_line(view, names)
    return ""


PHASE_DOING = {
    "bidding": "bid",
    "forced": "bid or concede",
    "trump": "name trump",
    "widow": "take the widow",
    "bury": "bury cards",
    "discard": "discard down to six cards",
    "meld": "meld or draw",
    "pass": "pass cards",
    "exchange": "exchange the dix or pass",
    "ask": "ask for a suit",
}


def doing_text(view: dict[str, Any]) -> str:
    """What the seat of ``view`` is asked to do now (``play a card``, ``bid``, …)."""
    legal = view.get("legal") or []
    if legal and str(legal[0]).startswith("keep "):
        kept = len(view.get("kept") or [])
        point_cards = len(view["hand"]) - len(legal) - kept  # held, never offered
        left = 6 - kept - point_cards
        kept_too = "your point cards are kept: jack, off-jack, jokers, three"
        return f"choose {count(left, 'more card')} to keep ({kept_too})"
    if legal and str(legal[0]).startswith("discard "):
        return f"discard {count(len(view['hand']) - 6, 'card')} (point cards may not be discarded)"
    return PHASE_DOING.get(view["phase"], "play a card")


def status_text(view: dict[str, Any], names: Sequence[str]) -> str:
    if view.get("outcome"):
        winners = " & ".join(names[seat] for seat in view["outcome"]["winners"])
        return f"Game over — {winners} won ({name_seats(view['outcome']['reason'], names)})."
    waiting = ", ".join(names[seat] for seat in view["to_act"])
    doing = PHASE_DOING.get(view["phase"], "play")
    return f"Deal {view['deal']}: waiting for {waiting} to {doing}."


def table_text(view: dict[str, Any], names: Sequence[str]) -> str:
    """A compact multi-line picture of the table as ``view`` shows it (the terminal table)."""
    lines = [f"{view['title']} — deal {view['deal']}"]
    lines.extend(
        f"{head}: {text}" if "\n" not in text else f"{head}:\n{text}"
        for head, text in table_fields(view, names)
    )
    return "\n".join(lines)
