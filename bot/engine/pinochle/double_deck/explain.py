"""Double-deck's refusals in words: why an action is not legal now (``DoubleDeck.explain_illegal``)."""

from __future__ import annotations

from bisect import bisect_right
from typing import TYPE_CHECKING

from bot.engine.actions import Action, Kind
from bot.engine.cards import Card
from bot.engine.events import Phase
from bot.engine.pinochle.common import suit_word

if TYPE_CHECKING:
    from bot.engine.pinochle.double_deck.game import DoubleDeck

_ASKING, _PASSING, _NAMING_TRUMP, _PLAYING, _BIDDING = (
    Phase.ASK,
    Phase.PASS,
    Phase.TRUMP,
    Phase.PLAY,
    Phase.BIDDING,
)


def explain_illegal(game: DoubleDeck, seat: int, action: Action) -> str:
    """Why ``action`` is not legal for ``seat`` now, in words a player understands."""
    kind = action.kind
    phase = game.phase
    if kind is Kind.TELL_MELD:
        return explain_tell(game, seat)
    if kind is Kind.THROW_IN:
        if seat != game.bidder:
            return "Only the bidder may throw in."
        return "The bidder may throw in only after trump is named and before the first lead."
    if seat not in game.acting:
        passing = phase is _PASSING and seat in (game.bidder, game.partner(game.bidder or 0))
        if passing and (len(game.giving[seat]) >= game.pass_count or game.gave[seat]):
            return "You have passed your cards: waiting for your partner."
        waiting = ", ".join(f"seat {s + 1}" for s in game.acting) or "nobody"
        return f"It is not your turn: waiting for {waiting}."
    if phase is _BIDDING:
        return explain_bid(game, seat, action)
    if phase is _ASKING:
        extra = ", or 'pass' to ask for nothing" if game.ask_mode == "optional" else ""
        return f"Name the suit you want from your partner, e.g. 'ask H'{extra}."
    if phase is _PASSING:
        return explain_pass(game, seat, action)
    if phase is _NAMING_TRUMP:
        suits = game.marriage_suits(seat)
        if kind is Kind.TRUMP and game.marriage_at_naming:
            names = ", ".join(suit.value for suit in suits)
            return f"Trump must be a suit in which you hold a marriage (K and Q): you may name {names}."
        return "You won the bid: name trump, e.g. 'trump H'."
    if phase is _PLAYING:
        if kind is not Kind.PLAY:
            return "The cards are being played: play a card."
        return explain_crawl(game, seat, action.cards[0])
    return "Nothing can be done now."


def explain_pass(game: DoubleDeck, seat: int, action: Action) -> str:
    """Why a pass action is refused."""
    left = game.pass_count - len(game.giving[seat])
    if action.kind is Kind.GIVE and action.cards:
        card = action.cards[0]
        if len(action.cards) > 1:
            return f"Pass one card at a time: 'give {card.code}' ({left} to go)."
        if card not in game.hands[seat]:
            return f"You do not hold {card.pretty}."
        suit = game.must_give_suit(seat)
        if suit is not None:
            return (
                f"Your partner asked for {suit.label.lower()}: you must pass a {suit_word(suit)} "
                f"while you hold one."
            )
    return f"Pass {left} more card(s), one at a time: 'give <card>'."


def explain_bid(game: DoubleDeck, seat: int, action: Action) -> str:
    """Why a call of the auction is refused."""
    floor_text = str(game.ladder[0])
    if action.kind is Kind.PASS:
        return f"The first three passed: the dealer is stuck and must bid {floor_text}."
    if action.kind is not Kind.BID or action.amount is None:
        return "Bidding is under way: bid or pass."
    amount = action.amount
    if game.dealer_stuck(seat):
        return f"The first three passed: the dealer is stuck at {floor_text} (bid {floor_text})."
    if game.bidder is not None and amount <= game.high_bid:
        start = bisect_right(game.ladder, game.high_bid)
        nxt = f": the next bid is {game.ladder[start]}" if start < len(game.ladder) else ""
        return f"Your bid must beat {game.high_bid}{nxt}."
    if amount < game.ladder[0]:
        return f"The opening bid is at least {floor_text}."
    if amount > game.ladder[-1]:
        return f"Bids go up to {game.ladder[-1]}."
    start = bisect_right(game.ladder, amount)
    below = game.ladder[start - 1]
    above = game.ladder[start] if start < len(game.ladder) else below
    return f"{amount} is not a bid here: {ladder_text(game)} (e.g. {below} or {above})."


def ladder_text(game: DoubleDeck) -> str:
    """The bid ladder in words (``bids go up by 1 to 60, then in multiples of 5``)."""
    o = game.options
    s = game.scale
    if o["bidding"] == "any":
        text = f"any number from {50 * s}"
    elif o["bidding"] == "toby-thomas":
        text = f"bids go up by {s} to {50 * s}, then in multiples of {5 * s}"
    else:
        text = f"bids go up by {s} to {60 * s}, then in multiples of {5 * s}"
    if o["tens-over-100"]:
        text += f"; above {100 * s} only multiples of {10 * s}"
    return text


def explain_crawl(game: DoubleDeck, seat: int, card: Card) -> str:
    """Why ``card`` breaks the crawl rules."""
    hand = game.hands[seat]
    if card not in hand:
        return f"You do not hold {card.pretty}."
    if not game.trick:
        return f"You may not play {card.pretty} now."
    led = game.trick[0][1].suit
    trump = game.trump
    win = game.win_card
    assert trump is not None and win is not None
    if any(c.suit is led for c in hand):
        if card.suit is not led:
            return f"You must follow suit: you hold a {suit_word(led)}."
        return (
            f"You must head the trick: you hold a {suit_word(led)} higher than {win.pretty}, so you "
            f"must play one."
        )
    if any(c.suit is trump for c in hand):
        if card.suit is not trump:
            return f"You have no {suit_word(led)}: you must play a trump ({trump.symbol})."
        return f"The trick is trumped: you must over-trump {win.pretty}, and you can."
    return f"You may not play {card.pretty} now."


def explain_tell(game: DoubleDeck, seat: int) -> str:
    """Why ``tell-meld`` is refused (option meld-info)."""
    if not game.meld_info:
        return "Telling meld with a bid is a table option (meld-info), off at this table."
    if game.told[seat] is not None:
        return f"You have told your meld already ({game.told[seat]})."
    if game.phase is not _BIDDING:
        return "Meld is told with a bid, during the auction."
    return f"It is not your turn: waiting for seat {game.turn + 1}."
