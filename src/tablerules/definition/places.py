"""Every place of a ruleset that holds an expression, and the names each may read.

This table is the contract between a ruleset and the engine. A name a ruleset writes (`seat`,
`bid`) reads one field of the evaluation context (`actor`, `offered`); the engine's context
(`tablerules.engine.context.Context`) provides every field of CONTEXT, and the compiler's
table-building contexts provide the fields of the places it evaluates while compiling. The
compiler builds each place's vocabulary from here, and `docs/language.md` ("By place") is
generated from here (`python -m tablerules.definition.places`).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Name:
    """A name a place may read: its type (a spec such as `int` or `list[tile]`) and its field."""

    name: str
    type: str
    field: str
    doc: str


@dataclass(frozen=True)
class Place:
    """Places of a ruleset that read the same names.

    `groups` are shared vocabularies: `declarations` (every declaration by its name), `totals`
    (the functions `points`, `tricks`, `score`, `pips_left` over sides), `score` (only `score`),
    `holder` (the function `holder(t)`). `stage` is `play` for a hook the engine calls with its
    Context, `compile` for an expression the compiler evaluates to fill a table.
    """

    keys: tuple[str, ...]
    names: tuple[Name, ...] = ()
    groups: tuple[str, ...] = ()
    stage: str = "play"
    note: str = ""  # what the docs say beyond the names
    per_item: tuple[str, ...] = ()  # names the engine changes between calls of one pass


# the fields of the engine's evaluation context, with what each holds
CONTEXT = {
    "dealer": "the dealer of this hand",
    "actor": "the seat to move: the speaker in the auction, the player in play",
    "passes": "passes so far this hand",
    "high": "the standing high bid (index; 0 when nobody has bid)",
    "offered": "the bid being judged (an argument of the call)",
    "hand": "the pieces of the seat to move",
    "bidder": "the seat that won the auction (-1 without one)",
    "bidder_side": "the side of the bidder (-1 without one)",
    "bid": "the winning bid (index)",
    "decl": "the declared values, in declaration order",
    "dealt": "every piece in a seat's hand",
    "asked": "the seat being asked about (an argument of the call)",
    "tile": "the piece being judged (an argument of the call)",
    "choice": "the declaration value being judged (an argument of the call)",
    "leading": "whether the player to move leads this trick",
    "led": "the suit led in this trick (-1 before a lead and in a layout)",
    "trick": "the pieces of this trick so far",
    "points": "points per side this hand",
    "tricks": "tricks per side this hand",
    "score": "the match score per side, before this hand is added",
    "points_against": "points taken by every side but the bidder's",
    "tricks_against": "tricks taken by every side but the bidder's",
    "tricks_played": "tricks completed this hand",
    "went_out": "the seat that played its last piece (-1 if none)",
    "blocked": "whether every seat knocked in a row",
    "made": "whether the contract was made",
    "side": "the side being scored (an argument of the call)",
    "won": "whether the side being scored won the match (an argument of the call)",
    "drawn": "whether the side being scored tied for the win (an argument of the call)",
    "ends": "the open ends of the layout that count: (pips, double, spinner) each",
    "spinner_open": "whether the spinner is still an end of the line",
    "spinner_pips": "the spinner's number (0 if none)",
    "end": "the open end being shown (an argument of the call)",
    "hands_played": "hands completed this match",
    "chips": "chips per seat, before this hand's payments (with scoring.chips)",
    "payer": "the seat that would pay (an argument of the call)",
    "payee": "the seat that would be paid (an argument of the call)",
    # not a name a ruleset writes: where the compiled code keeps, for one pass of a per-piece
    # rule (Place.per_item), the parts that read none of the names the pass changes
    "memo": "the parts of a per-piece rule already worked out in this pass (None outside one)",
    "pips_left": "a method: pips on the pieces a side holds",
    "holder": "a method: the seat holding a piece, or -1",
    "dealt_hands": "the pieces dealt to each seat this hand",
    "turn": "the seat whose turn it is this hand (deal.turn; -1 without it)",
    "played_by": "a method: the seat that played a piece this hand, or -1",
    "taken_by": "a method: the seat that took the trick a piece was played to, or -1",
    "trick_of": "a method: the number of the trick a piece was played to (1 first), or 0",
    "stock": "the pieces left in the stock, in drawing order",
    "laid_away": "a method: the pieces a seat buried (laid away) this hand",
}

_dealer = Name("dealer", "int", "dealer", "the dealer")
_turn = Name("turn", "int", "turn", "the seat whose turn it is this hand (`deal.turn`; -1 without it)")
_speaker = (Name("seat", "int", "actor", "the seat to speak"), _dealer, _turn,
            Name("passes", "int", "passes", "passes so far this hand"),
            Name("hand", "list[tile]", "hand", "the speaker's pieces"))
_high = Name("high", "bid", "high", "the standing high bid (contract 'none' with rank -1 when "
                                    "nobody has bid)")
_offered = Name("bid", "bid", "offered", "the bid offered")
_sit = (Name("bidder", "int", "bidder", "the seat that won the auction (-1 without one)"), _dealer, _turn,
        Name("dealt", "list[tile]", "dealt", "every piece in a seat's hand"))
_outcome = (
    Name("bid", "bid", "bid", "the winning bid"),
    Name("bidder", "int", "bidder", "the seat that won the auction"),
    Name("bidder_side", "int", "bidder_side", "the side of the bidder"),
    _dealer, _turn,
    Name("points_against", "int", "points_against", "points taken by every side but the bidder's"),
    Name("tricks_against", "int", "tricks_against", "tricks taken by every side but the bidder's"),
    Name("tricks_played", "int", "tricks_played", "tricks completed this hand"),
    Name("went_out", "int", "went_out", "the seat that played its last piece (-1 if none)"),
    Name("blocked", "bool", "blocked", "whether every seat knocked in a row"),
)
_tile = Name("tile", "tile", "tile", "the piece in question")
_played = Name("hands_played", "int", "hands_played", "hands completed this match")
_led = Name("led", "scalar", "led", "the suit led")

PLACES: tuple[Place, ...] = (
    Place(("pieces.filter", "pieces.attributes.*.value"), (Name("tile", "tile", "tile", "the piece"),),
          stage="compile"),
    Place(("declarations.*", "constants.*", "seats.count", "seats.sides", "deal.hand_size",
           "deal.stock"), stage="compile",
          note="nothing more (`seat_count`, `sides` and `hand_size` only once they are known: "
               "after `seats`, `deal.hand_size`)"),
    Place(("functions",), groups=("declarations",), stage="compile",
          note="their parameters; earlier functions"),
    Place(("deal.next_dealer",), (_dealer, _turn)),
    Place(("deal.turn",), (_dealer, Name("turn", "int", "turn", "the turn of the deal before "
                                                               "(-1 at a match's first deal)"),
                           Name("hands_played", "int", "hands_played", "hands completed this match")),
          ("holder", "dealt"), note="evaluated once after each deal, before the auction"),
    Place(("auction.first",), (_dealer, _turn)),
    Place(("auction.beats",), (_offered, _high) + _speaker,
          note="tabulated once for every pair of bids when it reads nothing of the speaker"),
    Place(("auction.forced.when",), _speaker + (_high, _played), ("holder",)),
    Place(("auction.forced.bids", "auction.all_pass.bids"), (_offered,), stage="compile"),
    Place(("auction.all_pass.seat",), (_dealer, _turn)),
    Place(("contracts.*.enabled", "bid.levels"), stage="compile", note="nothing more"),
    Place(("bid.rank", "bid.marks", "bid.label"), (Name("level", "int", "level", "the bid's level"),),
          stage="compile"),
    Place(("bid.requires",), (_speaker[0], _dealer, _turn, _speaker[4], _played), ("holder",)),
    Place(("bid.confirm",), (Name("seat", "int", "actor", "the seat bidding"), _dealer, _turn)),
    Place(("declare.*.by", "play.leader", "exchange.by", "exchange.take", "exchange.from"), _sit,
          ("declarations", "holder")),
    Place(("exchange.legal",), (_tile, Name("hand", "list[tile]", "hand", "the pieces of the seat "
                                                                         "burying")) + _sit,
          ("declarations",), note="a seat may bury only the pieces for which it holds",
          per_item=("tile",)),
    Place(("declare.*.when",), _sit + (Name("bid", "bid", "bid", "the winning bid"),
                                        Name("hand", "list[tile]", "hand",
                                             "the pieces of the seat that would declare")),
          ("declarations", "holder"), note="the step is skipped when it is false"),
    Place(("declare.*.allow",), _sit + (Name("bid", "bid", "bid", "the winning bid"),
                                         Name("hand", "list[tile]", "hand",
                                              "the pieces of the seat declaring"),
                                         Name("choice", "scalar", "choice",
                                              "the value the seat would declare")),
          ("declarations", "holder"), per_item=("choice",)),
    Place(("play.sits_out",), (Name("seat", "int", "asked", "the seat in question"),) + _sit,
          ("declarations", "holder")),
    Place(("declare.*.choices", "declare.*.order", "exchange.bury", "exchange.optional", "exchange.order",
           "exchange.first", "play.spinner", "play.must_draw", "play.may_draw", "play.claim"),
          stage="compile",
          note="nothing more (fixed before the game starts)"),
    Place(("play.lead",), (_tile,), ("declarations",), stage="compile"),
    Place(("play.follows", "play.rank"), (_tile, _led), ("declarations",), stage="compile"),
    Place(("play.must_follow",), (), ("declarations",), stage="compile"),
    Place(("play.legal",), (_tile, Name("hand", "list[tile]", "hand", "the player's pieces"),
                            Name("leading", "bool", "leading", "whether the player leads this trick"),
                            Name("trick", "list[tile]", "trick", "pieces played to this trick"),
                            Name("led", "scalar", "led", "the suit led (-1 when leading, and in a "
                                                         "layout)")),
          ("declarations",), note="in a layout, `tile` is the piece a lay would set down",
          per_item=("tile",)),
    Place(("play.tie_break",), (Name("seat", "int", "asked", "the seat that played a tied piece"),
                                Name("bidder", "int", "bidder", "the seat that won the auction"),
                                Name("bidder_side", "int", "bidder_side", "the side of the bidder"),
                                _dealer), ("declarations",),
          note="read only for pieces that tie for the highest rank"),
    Place(("play.trick_points",), (Name("trick", "list[tile]", "trick", "the pieces of the trick"),),
          ("declarations", "totals")),
    Place(("outcome.over", "outcome.made"), _outcome, ("declarations", "totals", "dealt", "plays", "stock", "laid")),
    Place(("play.scores",), (
        Name("ends", "list[end]", "ends", "each open end that counts, after the play"),
        Name("spinner_open", "bool", "spinner_open", "the spinner is still an end of the line"),
        Name("spinner_pips", "int", "spinner_pips", "the spinner's number (0 if none)"),
        Name("seat", "int", "actor", "the seat that laid the piece (with `play.claim`, the seat "
                                     "the count would score for)")), ("declarations", "totals")),
    Place(("scoring.hand",), _outcome + (
        Name("side", "int", "side", "the side being scored"),
        Name("made", "bool", "made", "whether the contract was made")),
          ("declarations", "totals", "dealt", "plays", "stock", "laid")),
    Place(("scoring.chips.pays.*",), _outcome + (
        Name("payer", "int", "payer", "the seat that would pay"),
        Name("payee", "int", "payee", "the seat that would be paid (never the payer)"),
        Name("made", "bool", "made", "whether the contract was made")),
          ("declarations", "totals", "dealt", "plays", "stock", "laid"),
          note="evaluated for every pair of seats at the end of a hand that is played"),
    Place(("scoring.with_bidder",), (Name("seat", "int", "asked", "the seat in question"),)
          + _outcome + (Name("made", "bool", "made", "whether the contract was made"),),
          ("declarations", "totals", "dealt", "plays", "stock", "laid"),
          note="evaluated for each seat at the end of a hand that is played"),
    Place(("scoring.report.*",), _outcome + (
        Name("made", "bool", "made", "whether the contract was made"),),
          ("declarations", "totals", "dealt", "plays", "stock", "laid"),
          note="evaluated at the end of a hand that is played"),
    Place(("display.marks.*.when",), (_tile, Name("bid", "bid", "bid", "the winning bid (contract "
                                                         "'none' before the auction ends)"),
                                     Name("bidder", "int", "bidder", "the seat that won the auction "
                                                                   "(-1 without one)"), _dealer),
          ("declarations", "holder"), note="for people only (play, the HTML replay): evaluated for "
                                           "each piece when a view is drawn, never by the rules",
          per_item=("tile",)),
    Place(("display.end_count",), (Name("end", "end", "end", "an open end of the layout"),),
          note="for people only (replay, the HTML replay): what one open end counts, shown for "
               "each end after a lay (`3+(1+1)`); never read by the rules, so it should count as "
               "`play.scores` does"),
    Place(("scoring.match_over",), (Name("hands_played", "int", "hands_played",
                                         "hands completed this match"),), ("score",)),
    Place(("scoring.during_hand", "scoring.chips.stake"), stage="compile", note="nothing more (fixed before the game "
                                                          "starts)"),
    Place(("scoring.returns",), (Name("side", "int", "side", "the side of the seat"),
                                 Name("won", "bool", "won", "whether that side won the match"),
                                 Name("drawn", "bool", "drawn", "whether it tied for the win"),
                                 Name("hands_played", "int", "hands_played",
                                      "hands completed this match")), ("score",)),
)

GROUP_DOCS = {
    "declarations": "declarations",
    "holder": "`holder(t: tile)` (the seat holding a piece, or -1)",
    "dealt": "`dealt_to(seat)` (the pieces dealt to a seat this hand)",
    "totals": "`points(side)`, `tricks(side)`, `score(side)`, `pips_left(side)`, `chips(seat)`",
    "score": "`score(side)`, `chips(seat)`",
    "plays": "`played_by(t: tile)` (the seat that played a piece this hand, or -1), "
             "`taken_by(t: tile)` (the seat that took its trick, or -1), `trick_of(t: tile)` "
             "(the number of its trick, 1 first, or 0)",
    "stock": "`stock_left()` (the pieces left in the stock)",
    "laid": "`laid_away(seat)` (the pieces a seat buried this hand)",
}

_BY_KEY = {k: p for p in PLACES for k in p.keys}


def place(key: str) -> Place:
    """The place a ruleset key belongs to, e.g. `play.sits_out` or `auction.beats`."""
    return _BY_KEY[key]


GROUP_FUNCS = {"totals": ("points", "tricks", "pips_left", "score", "chips"), "score": ("score", "chips"),
               "holder": ("holder",), "dealt": ("dealt_to",), "plays": ("played_by", "taken_by", "trick_of"),
               "stock": ("stock_left",), "laid": ("laid_away",)}


def state_names() -> set[str]:
    """Every name some place reads from the game's state: its own names and its groups' functions."""
    out = {n.name for p in PLACES for n in p.names}
    out.update(f for p in PLACES for g in p.groups for f in GROUP_FUNCS.get(g, ()))
    return out


def read_at(name: str) -> list[str]:
    """The keys of the places that read `name` from the game's state, in the table's order."""
    return [k for p in PLACES
            if any(n.name == name for n in p.names)
            or any(name in GROUP_FUNCS.get(g, ()) for g in p.groups) for k in p.keys]


def context_fields() -> set[str]:
    """Every context field a play-stage place reads, with the methods its groups call."""
    fields = {n.field for p in PLACES if p.stage == "play" for n in p.names}
    fields |= {"decl", "points", "tricks", "score", "pips_left", "holder", "chips", "dealt_hands",
               "played_by", "taken_by", "trick_of", "stock", "laid_away"}
    return fields


def doc_table() -> str:
    """The "By place" table of docs/language.md."""
    rows = ["| place | adds |", "| --- | --- |"]
    for p in PLACES:
        parts = [f"`{n.name}` ({n.type}: {n.doc})" for n in p.names]
        parts += [GROUP_DOCS[g] for g in p.groups]
        if p.note:
            parts.append(p.note)
        keys = ", ".join(f"`{k}`" for k in p.keys)
        rows.append(f"| {keys} | {'; '.join(parts) if parts else 'nothing more'} |")
    return "\n".join(rows) + "\n"


if __name__ == "__main__":  # pragma: no cover - prints the docs table
    print(doc_table(), end="")
