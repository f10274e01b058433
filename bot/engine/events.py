"""The engine's vocabulary, typed: the phases of a deal and the events ``Game.apply`` reports.

``Phase`` and ``EventType`` are ``StrEnum``s: a member equals (and hashes as) its text and JSON
encodes as that text, so views, stored records and lookups such as ``PHASE_DOING[view["phase"]]``
work unchanged (only ``repr`` differs).

Each event type has a ``TypedDict`` naming its keys (``PlayEvent``: ``type``, ``seat``, ``card``);
``AnyEvent`` is their union. At run time an event is a plain dict (``Event``), built by the engine
with the type's text, so ``event["type"] == EventType.PLAY`` and ``event["type"] == "play"`` both
hold. ``tests/engine/test_events.py`` checks every event of the golden playthroughs against its
``TypedDict`` and every ``EventType`` against the events met, so an event or key cannot be added
without being written down here.

>>> Phase.PLAY == "play" and EventType("trick") is EventType.TRICK
True
"""

# No "from __future__ import annotations": TypedDict reads NotRequired from evaluated annotations.

from enum import StrEnum, unique
from typing import Any, Literal, NotRequired, TypedDict

Event = dict[str, Any]
"""What ``apply`` reports happened, JSON-able: ``{"type": "play", "seat": 1, "card": "10H"}``; one of
the ``TypedDict``s below (``AnyEvent``)."""


@unique
class Phase(StrEnum):
    """Where a deal stands (``view["phase"]``). Variants use the subset they need."""

    BIDDING = "bidding"
    """The auction."""
    FORCED = "forced"
    """Three-hand: everyone passed; the dealer plays the forced bid or concedes."""
    EXCHANGE = "exchange"
    """Partnership: holders of the dix may exchange it for the turned card."""
    ASK = "ask"
    """Double-deck: the bidder names the suit wanted from the partner."""
    PASS = "pass"
    """Cards change hands between the bidder and the partner."""
    TRUMP = "trump"
    """The bid's winner names trump."""
    BURY = "bury"
    """Three-hand: the bidder buries cards."""
    DISCARD = "discard"
    """Ten-point pitch: everyone discards down to six cards."""
    MELD = "meld"
    """Two-hand: the trick's winner may meld before drawing."""
    PLAY = "play"
    """Trick play (two-hand: while the stock lasts)."""
    PLAYOFF = "playoff"
    """Two-hand: the last tricks, with the strict follow rules."""
    SCORING = "scoring"
    """Double-deck: a deal given up unplayed is being scored (nobody acts)."""
    OVER = "over"
    """The game has ended."""


@unique
class EventType(StrEnum):
    """The ``type`` of every event the engine reports."""

    BID = "bid"
    REDEAL = "redeal"
    PITCHER = "pitcher"
    BIDDER = "bidder"
    FORCED_BID = "forced_bid"
    WIDOW = "widow"
    WIDOW_TAKEN = "widow_taken"
    TRUMP = "trump"
    ASK = "ask"
    EXCHANGE = "exchange"
    EXCHANGE_PASS = "exchange_pass"
    PASS_CARDS = "pass_cards"
    PASS_START = "pass_start"
    GIVE = "give"
    PASSED = "passed"
    BURY = "bury"
    DISCARD = "discard"
    KEEP = "keep"
    MELD = "meld"
    MELD_TURN = "meld_turn"
    MELD_SHOWN = "meld_shown"
    MELDS = "melds"
    MELD_TOLD = "meld_told"
    DRAW = "draw"
    PLAYOFF = "playoff"
    THROW_IN = "throw_in"
    GAVE_UP = "gave_up"
    PLAY = "play"
    TRICK = "trick"
    DECLARE_OUT = "declare_out"
    DEAL_SCORED = "deal_scored"
    DEAL = "deal"
    GAME_OVER = "game_over"


# ----- JSON pieces shared by events and views --------------------------------------------------------
MeldJSON = TypedDict(
    "MeldJSON",
    {
        "name": str,
        "kind": str,
        "class": str,
        "suit": str | None,
        "cards": list[str],
        "points": int,
    },
)
"""One meld as shown (``Meld.to_json``); ``class`` is the meld class (A, B, C or I, II, III)."""


class MeldResultJSON(TypedDict):
    """A hand's meld (``MeldResult.to_json``): its melds and their total."""

    total: int
    melds: list[MeldJSON]


class SeatMeldJSON(TypedDict):
    """A seat's meld as shown: its melds and their total (double-deck adds whether it was laid)."""

    seat: int
    melds: list[MeldJSON]
    total: int
    laid: NotRequired[bool]


class AwardJSON(TypedDict):
    """A pitch point (High, Low, Jack, Off-Jack, a joker, Three, Game): who took it and, in the deal's
    report, with which card."""

    point: str
    side: int
    card: NotRequired[str | None]


# ----- the auction -----------------------------------------------------------------------------------
class BidEvent(TypedDict):
    """A seat bid ``amount`` (None: passed)."""

    type: Literal["bid"]
    seat: int
    amount: int | None


class RedealEvent(TypedDict):
    """Pitch: everyone passed and ``dealer`` deals again."""

    type: Literal["redeal"]
    dealer: int
    reason: str


class PitcherEvent(TypedDict):
    """Pitch: the auction is over; ``seat`` pitches for ``bid``."""

    type: Literal["pitcher"]
    seat: int
    bid: int


class BidderEvent(TypedDict):
    """Pinochle: the auction is over; ``seat`` won it with ``bid``."""

    type: Literal["bidder"]
    seat: int
    bid: int


class ForcedBidEvent(TypedDict):
    """Three-hand: everyone passed; the dealer (``seat``) is forced to ``bid``."""

    type: Literal["forced_bid"]
    seat: int
    bid: int


class WidowEvent(TypedDict):
    """Three-hand: the widow is turned up and taken by ``seat``."""

    type: Literal["widow"]
    seat: int
    cards: list[str]


class WidowTakenEvent(TypedDict):
    """Ten-point pitch: the pitcher (``seat``) takes the ``count`` cards of the widow, unseen."""

    type: Literal["widow_taken"]
    seat: int
    count: int


class TrumpEvent(TypedDict):
    """Trump is ``suit`` (named by ``seat``; pitch: set by the first card led, no seat)."""

    type: Literal["trump"]
    suit: str
    seat: NotRequired[int]


class AskEvent(TypedDict):
    """Double-deck: the bidder asks the partner for ``suit`` (None: for nothing)."""

    type: Literal["ask"]
    seat: int
    suit: str | None


# ----- exchanges and passes --------------------------------------------------------------------------
class ExchangeEvent(TypedDict):
    """A dix exchanged for the turned card."""

    type: Literal["exchange"]
    seat: int
    gave: str
    took: str


class ExchangePassEvent(TypedDict):
    """Partnership: ``seat`` holds a dix and does not exchange it."""

    type: Literal["exchange_pass"]
    seat: int


PassCardsEvent = TypedDict(
    "PassCardsEvent", {"type": Literal["pass_cards"], "from": int, "to": int, "count": int}
)
"""Partnership auction: the pass begins, ``count`` cards from the bidder's partner to the bidder."""


class PassStartEvent(TypedDict):
    """Double-deck: the pass begins between ``seats`` (``order``: simultaneous or partner-first)."""

    type: Literal["pass_start"]
    seats: list[int]
    count: int
    order: str


class GiveEvent(TypedDict):
    """Double-deck: ``seat`` chose a card to pass (``chosen`` of ``count``; which one stays hidden)."""

    type: Literal["give"]
    seat: int
    chosen: int
    count: int


PassedEvent = TypedDict("PassedEvent", {"type": Literal["passed"], "from": int, "to": int, "count": int})
"""``count`` cards reached ``to`` from ``from`` (face down)."""


class BuryEvent(TypedDict):
    """Three-hand: the bidder buried a card (``count`` so far; which one stays hidden)."""

    type: Literal["bury"]
    seat: int
    count: int


class DiscardEvent(TypedDict):
    """Ten-point pitch: ``seat`` has discarded ``count`` cards this deal, face down."""

    type: Literal["discard"]
    seat: int
    count: int


class KeepEvent(TypedDict):
    """Ten-point pitch: ``seat`` chose a card to keep (``count`` so far; which one stays hidden)."""

    type: Literal["keep"]
    seat: int
    count: int


# ----- meld ------------------------------------------------------------------------------------------
class MeldEvent(TypedDict):
    """Two-hand: ``seat`` melded ``name`` (``cards``) for ``points``."""

    type: Literal["meld"]
    seat: int
    name: str
    cards: list[str]
    points: int


class MeldTurnEvent(TypedDict):
    """Two-hand: ``seat`` won the trick and may meld before drawing."""

    type: Literal["meld_turn"]
    seat: int


class MeldShownEvent(TypedDict):
    """Three-hand: the bidder's meld."""

    type: Literal["meld_shown"]
    seat: int
    melds: list[MeldJSON]
    total: int


class MeldsEvent(TypedDict):
    """Every seat's meld total and each side's (double-deck: and whether the side laid it down)."""

    type: Literal["melds"]
    seat_meld: list[int]
    side_meld: list[int]
    laid: NotRequired[list[bool]]


class MeldToldEvent(TypedDict):
    """Double-deck, option meld-info: ``seat`` told its meld with its bid (counted without trump)."""

    type: Literal["meld_told"]
    seat: int
    meld: int


class DrawEvent(TypedDict):
    """Two-hand: both drew from the stock (``stock`` cards left)."""

    type: Literal["draw"]
    stock: int


class PlayoffEvent(TypedDict):
    """Two-hand: the stock is gone; the playoff begins, ``leader`` to lead."""

    type: Literal["playoff"]
    leader: int


class ThrowInEvent(TypedDict):
    """Double-deck: the bidder threw in the hand."""

    type: Literal["throw_in"]
    seat: int


class GaveUpEvent(TypedDict):
    """Double-deck: the bidding side gives up before play (``reason``: no-marriage, under-20,
    throw-in)."""

    type: Literal["gave_up"]
    seat: int
    reason: str


# ----- play and the end of a deal --------------------------------------------------------------------
class PlayEvent(TypedDict):
    """``seat`` played ``card``."""

    type: Literal["play"]
    seat: int
    card: str


class TrickEvent(TypedDict):
    """The trick (``cards`` in the order played) went to ``winner`` (pinochle: worth ``points``)."""

    type: Literal["trick"]
    winner: int
    cards: list[str]
    points: NotRequired[int]


class DeclareOutEvent(TypedDict):
    """``seat`` declared out with ``total`` against ``target``."""

    type: Literal["declare_out"]
    seat: int
    total: int
    target: int


class PitchDealScored(TypedDict):
    """A pitch deal's report (also ``view["last_deal"]``, there without the award cards)."""

    deal: int
    dealer: int
    pitcher: int
    bid: int
    trump: str | None
    awards: list[AwardJSON]
    game_values: list[int]
    points: list[int]
    made: bool
    changes: list[int]
    scores: list[int]


class TwoHandDealScored(TypedDict):
    """A two-hand deal's report."""

    deal: int
    dealer: int
    trump: str | None
    meld: list[int]
    counters: list[int]
    counted: list[int]
    last_trick: int
    changes: list[int]
    scores: list[int]


class ThreeHandDealScored(TypedDict):
    """A three-hand deal's settlement in chips (meld and counters None when conceded)."""

    deal: int
    dealer: int
    bidder: int
    bid: int
    forced: bool
    trump: str | None
    conceded: str | None
    meld: int | None
    counters: int | None
    trick_counters: list[int] | None
    buried_counters: int | None
    made: bool | None
    chips: int
    changes: list[int]
    kitty_change: int
    scores: list[int]
    kitty: int


class PartnershipDealScored(TypedDict):
    """A partnership (or partnership auction) deal's report, per side."""

    deal: int
    dealer: int
    trump: str | None
    bidder: int | None
    bid: int | None
    made: bool | None
    meld: list[int]
    meld_counted: list[int]
    counters: list[int]
    counted: list[int]
    tricks_won: list[int]
    last_trick: int
    changes: list[int]
    scores: list[int]


class DoubleDeckDealScored(TypedDict):
    """A double-deck deal's report (``melds``: the meld laid in a deal given up unplayed)."""

    deal: int
    dealer: int
    trump: str | None
    bidder: int
    bid: int
    made: bool | None
    gave_up: str | None
    played: bool
    meld: list[int]
    meld_counted: list[int]
    meld_lost: list[str | None]
    """Why a side's meld was not scored: set, gave-up, under-20, tricks-under-20, giveup-rule."""
    counters: list[int]
    tricks_won: list[int]
    last_trick: int
    changes: list[int]
    scores: list[int]
    melds: NotRequired[list[SeatMeldJSON] | None]


DealSummary = (
    PitchDealScored | TwoHandDealScored | ThreeHandDealScored | PartnershipDealScored | DoubleDeckDealScored
)
"""A deal's report: the ``deal_scored`` event without its ``type``, and ``view["last_deal"]``."""


class PitchDealScoredEvent(PitchDealScored):
    type: Literal["deal_scored"]


class TwoHandDealScoredEvent(TwoHandDealScored):
    type: Literal["deal_scored"]


class ThreeHandDealScoredEvent(ThreeHandDealScored):
    type: Literal["deal_scored"]
    buried: list[str]  # shown once the deal is over (empty after a concession); not in the view


class PartnershipDealScoredEvent(PartnershipDealScored):
    type: Literal["deal_scored"]


class DoubleDeckDealScoredEvent(DoubleDeckDealScored):
    type: Literal["deal_scored"]


class DealEvent(TypedDict):
    """The next deal (number ``deal``) was dealt by ``dealer``."""

    type: Literal["deal"]
    deal: int
    dealer: int


class OutcomeJSON(TypedDict):
    """``Outcome.to_json``: the winning sides and seats, final scores per side, and why."""

    winning_sides: list[int]
    winners: list[int]
    scores: list[int]
    reason: str


class GameOverEvent(OutcomeJSON):
    """The game ended (``view["outcome"]`` holds the same without ``type``)."""

    type: Literal["game_over"]


AnyEvent = (
    BidEvent
    | RedealEvent
    | PitcherEvent
    | BidderEvent
    | ForcedBidEvent
    | WidowEvent
    | WidowTakenEvent
    | TrumpEvent
    | AskEvent
    | ExchangeEvent
    | ExchangePassEvent
    | PassCardsEvent
    | PassStartEvent
    | GiveEvent
    | PassedEvent
    | BuryEvent
    | DiscardEvent
    | KeepEvent
    | MeldEvent
    | MeldTurnEvent
    | MeldShownEvent
    | MeldsEvent
    | MeldToldEvent
    | DrawEvent
    | PlayoffEvent
    | ThrowInEvent
    | GaveUpEvent
    | PlayEvent
    | TrickEvent
    | DeclareOutEvent
    | PitchDealScoredEvent
    | TwoHandDealScoredEvent
    | ThreeHandDealScoredEvent
    | PartnershipDealScoredEvent
    | DoubleDeckDealScoredEvent
    | DealEvent
    | GameOverEvent
)
"""Every event, typed: narrow on ``event["type"]``."""

EVENT_TYPES: dict[EventType, tuple[type, ...]] = {
    EventType.BID: (BidEvent,),
    EventType.REDEAL: (RedealEvent,),
    EventType.PITCHER: (PitcherEvent,),
    EventType.BIDDER: (BidderEvent,),
    EventType.FORCED_BID: (ForcedBidEvent,),
    EventType.WIDOW: (WidowEvent,),
    EventType.WIDOW_TAKEN: (WidowTakenEvent,),
    EventType.TRUMP: (TrumpEvent,),
    EventType.ASK: (AskEvent,),
    EventType.EXCHANGE: (ExchangeEvent,),
    EventType.EXCHANGE_PASS: (ExchangePassEvent,),
    EventType.PASS_CARDS: (PassCardsEvent,),
    EventType.PASS_START: (PassStartEvent,),
    EventType.GIVE: (GiveEvent,),
    EventType.PASSED: (PassedEvent,),
    EventType.BURY: (BuryEvent,),
    EventType.DISCARD: (DiscardEvent,),
    EventType.KEEP: (KeepEvent,),
    EventType.MELD: (MeldEvent,),
    EventType.MELD_TURN: (MeldTurnEvent,),
    EventType.MELD_SHOWN: (MeldShownEvent,),
    EventType.MELDS: (MeldsEvent,),
    EventType.MELD_TOLD: (MeldToldEvent,),
    EventType.DRAW: (DrawEvent,),
    EventType.PLAYOFF: (PlayoffEvent,),
    EventType.THROW_IN: (ThrowInEvent,),
    EventType.GAVE_UP: (GaveUpEvent,),
    EventType.PLAY: (PlayEvent,),
    EventType.TRICK: (TrickEvent,),
    EventType.DECLARE_OUT: (DeclareOutEvent,),
    EventType.DEAL_SCORED: (
        PitchDealScoredEvent,
        TwoHandDealScoredEvent,
        ThreeHandDealScoredEvent,
        PartnershipDealScoredEvent,
        DoubleDeckDealScoredEvent,
    ),
    EventType.DEAL: (DealEvent,),
    EventType.GAME_OVER: (GameOverEvent,),
}
"""The ``TypedDict``(s) of each event type (``deal_scored``: one per family of scoring)."""
