"""The double-deck presets as data: each is a variant of its own (a ``DoubleDeck`` subclass
registered under the preset's name) with some option defaults changed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from bot.engine.game import register
from bot.engine.pinochle.double_deck.game import DoubleDeck
from bot.engine.pinochle.double_deck.options import with_defaults


class Preset(NamedTuple):
    """One preset: its class name, title, changed option defaults and a sentence for ``/rules``."""

    class_name: str
    title: str
    defaults: Mapping[str, Any]
    blurb: str


PRESETS: dict[str, Preset] = {
    "double-deck": Preset(
        "DoubleDeckStandard",
        "Double-Deck Pinochle",
        {},
        "Preset double-deck: the rules of §1-§7 (every option at its default).",
    ),
    "double-deck-npa": Preset(
        "DoubleDeckNPA",
        "Double-Deck Pinochle (NPA meld scores)",
        {"meld": "npa"},
        "Preset double-deck-npa: NPA tournament meld scores (meld=npa: run 25, pinochle 15).",
    ),
    "double-deck-toby-thomas": Preset(
        "DoubleDeckTobyThomas",
        "Double-Deck Pinochle (Toby Thomas)",
        {
            "meld": "toby-thomas",
            "bidding": "toby-thomas",
            "pass": 3,
            "pass-order": "partner-first",
            "pass-when": "before-trump",
            "ask": "must-give",
        },
        "Preset double-deck-toby-thomas: the Toby Thomas meld table (meld=toby-thomas), bidding "
        "(bidding=toby-thomas) and pass: before trump the bidder names a suit, the partner passes 3 "
        "cards of it if held (ask=must-give, pass=3, pass-order=partner-first, pass-when=before-trump), "
        "the bidder passes 3 back, then names trump.",
    ),
    "double-deck-pass": Preset(
        "DoubleDeckPass",
        "Double-Deck Pinochle (3-card pass)",
        {"pass": 3},
        "Preset double-deck-pass: after trump the bidder and partner pass 3 cards to each other at the "
        "same time, face down, choosing before seeing what they receive (pass=3).",
    ),
}
"""Every preset by variant name, in registration order."""

RULES = (
    "Double-Deck Pinochle: four players, partners opposite; 80 cards (A 10 K Q J, four of each card), "
    "20 each. Rank A 10 K Q J; of identical cards in a trick the first played wins.\n"
    "Bidding from the dealer's left: open at least 50, by 1 to 60, above 60 multiples of 5, up to 500 "
    "[gap]; a pass is final; when the first three pass the dealer must bid the minimum (exactly) "
    "[gap]; three passes end it. Options: bidding=any (every number from 50), bidding=toby-thomas "
    "(open 25+, by 1 to 50, then multiples of 5; the dealer stuck at 25 [gap]), tens-over-100 (above "
    "100 only multiples of 10, with either ladder [gap]), rounds=1 (each speaks once, the dealer "
    "last) or rounds=2 (two turns each at most).\n"
    "Trump: the bid winner names a suit in which he holds a marriage (K Q). With no marriage in any "
    "suit the hand is not played: the bidding side loses its bid and nobody scores meld. Options "
    "trump-marriage=none, or after-pass (any suit may be named before an after-trump pass; without a "
    "marriage in trump after the pass the hand is lost the same way; with a before-trump pass it is "
    "the same as required). [gap: with the default rule and a pass after trump, the marriage must be "
    "held when trump is named, before the pass.]\n"
    "Meld (all seats lay it down after trump, and after any pass; partners add theirs; the counter "
    "always finds the arrangement that scores most): type I run A-10-K-Q-J of trump 15 / double 150 / "
    "triple 225 / quadruple 300 (a run contains its royal marriage; an extra K Q of trump is a royal "
    "marriage of its own), royal marriage 4/8/12/16, marriage 2/4/6/8 (a run in a plain suit is only "
    "its marriage); type II pinochle (J♦ Q♠) 4/30/60/90; type III aces around 10/100/150/200, kings "
    "8/80/120/160, queens 6/60/90/120, jacks 4/40/60/80 (tens around: nothing). A card counts in one "
    "meld of each type only (a K and two Qs are one marriage), in melds of different types at once.\n"
    "Play: the bidder leads (also a hand given up and played out under giveup=play). Follow suit and "
    "head the trick (beat the best card so far) when you can; unable to head, still follow. Once a "
    "plain-suit trick is trumped, any card of the led suit may follow. With none of the led suit you "
    "must trump, over-trumping a trumped trick when you can, else any trump; with neither, any card. "
    "Counters: A, 10, K = 1 each, last trick 2: 50 a deal.\n"
    "Throw-in: after trump (and meld, and any pass), before the first lead, the bidder may throw in "
    "('throw-in') [gap: the bidder decides, not the partner]: the bid is subtracted. A bidding side "
    "whose meld is more than 50 short of its bid gives up at once, as it cannot make it [gap: §8 "
    "lists it among the ways of giving up]. Scoring: if the bidding side's meld + counters reach the "
    "bid, both sides add what they made; otherwise the bid is subtracted and the other side keeps its "
    "meld and counters. Game: 500; if both sides reach it on the same hand the bidding side wins. "
    "Option match=250/1000, or match=deal (one deal; the higher score wins, a tie going to the "
    "bidding side [gap]).\n"
    "Giving up before play (no marriage, under-20 meld, meld more than 50 short, throw-in): the bid "
    "is subtracted; the opponents score by option giveup: standard (§5 and §7: nothing after no "
    "marriage, their laid meld otherwise), nothing, meld (their meld if at least 20 [gap: the 20 "
    "applies with or without min-20]), meld+25, meld+50 (25 or 50 for cards plus their meld if at "
    "least 20), or play (if trump was named the hand is played out and they score as usual; after no "
    "marriage before trump, nothing [gap]). After no marriage before trump, their meld is counted "
    "without a trump suit [gap]. A deal given up unplayed lists the meld laid in its deal report "
    "(deal_scored: melds).\n"
    "Passing (option pass=1..4, bidding side only; one card per action, 'give 9C', N times): "
    "pass-order=simultaneous (both choose face down; the cards change hands only when both have "
    "chosen, so nobody sees what he receives before choosing) or partner-first (the partner's cards "
    "reach the bidder, who then passes as many back, possibly some just received); "
    "pass-when=after-trump or before-trump. ask=optional: before a before-trump pass the bidder may "
    "name a suit he wants ('ask H', or 'pass' to name none), a wish only; ask=must-give: he must name "
    "one and the partner must pass cards of it while holding any (fewer than N: all of them plus "
    "cards of his choice). ask needs pass-when=before-trump.\n"
    "Scores (option meld): book (triple pinochle 45, quadruple 300; runs 15/30/45/60), npa (run 25, "
    "single pinochle 15), toby-thomas (run 15/150/500, royal marriage 4/30/60/240, marriage 2/4/6/8, "
    "pinochle 4/30/90/360, aces 10/100, kings 8/80/400, queens 6/60/300, jacks 4/40/200; '—' entries "
    "[gap] score the highest value listed: a quadruple run 500, triple and quadruple aces 100, "
    "quadruple kings 400, queens 300, jacks 200). Toby Thomas reading [gap] satisfying the source's "
    "examples: beside one or more trump runs, if there is a royal marriage to spare, the royal "
    "marriages are counted as one multiple meld that includes the runs' own K Q, and each run's K (or "
    "Q) also marries one spare Q (or K): copies = pairs + min(runs, |kings - queens|). So "
    "A-10-K-K-Q-Q-J = run 15 + double royal 30 = 45; A-10-K-K-K-Q-Q-J = 15 + triple royal 60 = 75; "
    "A-A-10-10-K-K-K-Q-Q-J-J = double run 150 + triple royal 60 = 210; a lone run is 15; the counter "
    "takes the best arrangement, so four runs' worth (A-10-K-Q-J x4) count as a triple run 500 with "
    "the fourth K Q to spare (quadruple royal 240) = 740. pinochle-14: a single pinochle 14 (not with "
    "meld=npa). Roundhouse (K and Q of every suit, normally its parts: 24): roundhouse=32 scores a "
    "roundhouse 32 in place of its parts (8 more) [gap: a double roundhouse without "
    "double-roundhouse=240 is two roundhouses, 160 + 2 x 8; the royal marriage must be outside the "
    "run]; roundhouse=39: with a run, the roundhouse's royal marriage also counts inside the run (24 "
    "+ 15); double-roundhouse=240: two K and Q of every suit 240 in place of its parts.\n"
    "min-20: a side whose meld is under 20 announces it but cannot lay it down or score it; a side "
    "taking under 20 in tricks (last trick included [gap]) scores nothing that hand; a bidding side "
    "under 20 meld loses its bid without play after naming trump (the opponents score by giveup: by "
    "default their meld if at least 20, with no need for 20 in tricks); a bidding side taking under "
    "20 is set whatever its meld.\n"
    "100-aces: every score x10 [gap: bids, the ladder, the game target, the 20s and the 25/50 too]."
)


def _preset_class(name: str, preset: Preset) -> type[DoubleDeck]:
    """The registered variant of one preset."""
    namespace: dict[str, Any] = {
        "__module__": __name__,
        "__qualname__": preset.class_name,
        "name": name,
        "title": preset.title,
        "rules_text": f"{preset.blurb}\n\n{RULES}",
    }
    if preset.defaults:
        namespace["option_specs"] = with_defaults(preset.defaults)
    return register(type(preset.class_name, (DoubleDeck,), namespace))


PRESET_CLASSES: dict[str, type[DoubleDeck]] = {name: _preset_class(name, p) for name, p in PRESETS.items()}
"""The variant class of each preset, by variant name."""
