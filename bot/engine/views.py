"""What ``Game.public_view``, ``private_view`` and ``view(seat)`` hold, per family, as ``TypedDict``s.

At run time views are plain JSON-able dicts (``dict[str, Any]``); these types name their keys for
readers and for code that wants to narrow (``cast(PitchSeatView, game.view(seat))``).
``tests/engine/test_views.py`` checks the views met in seeded games against them.
"""

# No "from __future__ import annotations": TypedDict reads NotRequired from evaluated annotations.

from typing import Any, NotRequired, TypedDict

from bot.engine.events import DealSummary, OutcomeJSON, SeatMeldJSON


class TrickPlayJSON(TypedDict):
    seat: int
    card: str


class TrickJSON(TypedDict):
    """A finished trick: its plays in order and the winning seat."""

    plays: list[TrickPlayJSON]
    winner: int


class BidJSON(TypedDict):
    """One call of the auction (``amount`` None: a pass)."""

    seat: int
    amount: int | None


class TableView(TypedDict):
    """What every variant's public view holds."""

    variant: str
    title: str
    family: str
    players: int
    sides: list[list[int]]
    phase: str
    deal: int
    dealer: int
    to_act: list[int]
    trump: str | None
    scores: list[int]
    target: int | None
    last_deal: DealSummary | None
    outcome: OutcomeJSON | None
    leader: int | None
    trick: list[TrickPlayJSON]
    last_trick: TrickJSON | None
    tricks: list[TrickJSON]
    tricks_won: list[int]
    hand_sizes: list[int]


class SeatKeys(TypedDict):
    """What ``view(seat)`` adds to the public and private views."""

    seat: int
    legal: list[str]


# ----- pitch -----------------------------------------------------------------------------------------
class TrumpRulesJSON(TypedDict):
    """Pitch with extra trumps: the off-jack, the jokers' codes and whether one joker ranks low."""

    off_jack: bool
    jokers: list[str]
    joker_low: bool


class PitchView(TableView):
    first_dealer_draws: int
    bids: list[BidJSON]
    high_bid: int | None
    bid_names: dict[str, str]
    pitcher: int | None
    trump_rules: NotRequired[TrumpRulesJSON]
    """Only with an off-jack or jokers."""
    trumps: NotRequired[list[str] | None]
    """Only with an off-jack or jokers: every trump of the deal, high to low, once trump is known."""
    widow_size: NotRequired[int]
    """Ten-point pitch: cards in the widow (0 once the pitcher took it)."""


class PitchPrivate(TypedDict):
    hand: list[str]
    kept: NotRequired[list[str]]
    """Ten-point pitch: the cards chosen to keep so far (while choosing)."""
    discarded: NotRequired[list[str]]
    """Ten-point pitch: the seat's own discards this deal."""


class PitchSeatView(PitchView, PitchPrivate, SeatKeys):
    pass


# ----- pinochle --------------------------------------------------------------------------------------
class PinochleView(TableView):
    """What every pinochle variant's public view holds (double-deck too)."""

    options: dict[str, Any]
    match: str
    declare_out: bool
    history: list[DealSummary]
    counters: list[int]


class MeldLogJSON(TypedDict):
    """Two-hand: one meld laid on the table."""

    seat: int
    name: str
    cards: list[str]
    points: int


class TwoHandView(PinochleView):
    stock: int
    turned: str | None
    table: list[list[str]]
    meld_log: list[MeldLogJSON]
    deal_meld: list[int]
    meld_turn: int | None
    melded_this_turn: bool | None


class TwoHandPrivate(TypedDict):
    hand: list[str]
    drew: str | None  # the card this seat drew from the stock last (only this seat sees it)


class TwoHandSeatView(TwoHandView, TwoHandPrivate, SeatKeys):
    pass


class ThreeHandView(PinochleView):
    deals: int
    bids: list[BidJSON]
    high_bid: int | None
    bidder: int | None
    forced: bool
    widow: list[str] | None
    widow_size: int
    meld: SeatMeldJSON | None
    buried_count: int
    kitty: int
    chip_table: list[int]


class ThreeHandPrivate(TypedDict):
    hand: list[str]
    buried: list[str]


class ThreeHandSeatView(ThreeHandView, ThreeHandPrivate, SeatKeys):
    pass


class ExchangeJSON(TypedDict):
    seat: int
    took: str


PartnershipPassingJSON = TypedDict(
    "PartnershipPassingJSON", {"from": int, "to": int, "count": int, "chosen": int}
)
"""Partnership auction: the pass under way (``chosen`` of ``count`` cards picked so far)."""


class PartnershipView(PinochleView):
    """Partnership, partnership auction and the 6- and 8-player games."""

    rules: str
    turned: str | None
    exchanges: list[ExchangeJSON]
    bids: list[BidJSON]
    high_bid: int | None
    bidder: int | None
    melds: list[SeatMeldJSON] | None
    side_meld: list[int] | None
    passing: PartnershipPassingJSON | None


class PartnershipPrivate(TypedDict):
    hand: list[str]
    giving: list[str]
    gave: list[str]
    received: list[str]


class PartnershipSeatView(PartnershipView, PartnershipPrivate, SeatKeys):
    pass


class DoubleDeckPassingJSON(TypedDict):
    """Double-deck: the pass under way."""

    seats: list[int]
    order: str
    count: int
    chosen: list[int]
    waiting: list[int]


class ThrowInOfferJSON(TypedDict):
    """Double-deck: what throwing in costs the bidding side now."""

    bid: int
    """The bid the bidding side loses."""
    meld: int
    """The opponents' meld, as the give-up rule scores it."""
    bonus: int
    """What the give-up rule adds for the cards (meld+25, meld+50)."""
    played: bool
    """giveup=play: the hand is played out anyway and the opponents score their tricks."""
    short: bool
    """The bidding side's meld is more than 50 short of the bid: it cannot make it."""


class DoubleDeckView(PinochleView):
    bids: list[BidJSON]
    high_bid: int | None
    bidder: int | None
    min_bid: int
    meld_told: list[int | None]
    ask: str | None
    melds: list[SeatMeldJSON] | None
    side_meld: list[int] | None
    meld_laid: list[bool] | None
    passing: DoubleDeckPassingJSON | None
    passed: bool
    gave_up: str | None
    throw_in: bool
    throw_in_offer: ThrowInOfferJSON | None
    scale: int


class DoubleDeckPrivate(TypedDict):
    hand: list[str]
    giving: list[str]
    gave: list[str]
    received: list[str]
    received_from: int | None
    """The seat whose pass brought ``received`` (only the receiver sees which cards)."""
    my_meld: SeatMeldJSON | None


class DoubleDeckSeatView(DoubleDeckView, DoubleDeckPrivate, SeatKeys):
    pass
