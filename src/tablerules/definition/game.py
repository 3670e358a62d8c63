"""The compiled game: a frozen definition the engine runs, with every hook a callable.

The compiler (`tablerules.interpreter`) builds it; the engine (`tablerules.engine`) runs it. Every
hook is called with one argument, the evaluation context whose fields `places.py` declares.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from .actions import ActionSpace, value_str

Fn = Callable[[Any], Any]
CHUNK = 14  # bits per lookup table of mask_pieces: 2 lookups cover a 28-piece set
CHUNK_MASK = (1 << CHUNK) - 1
LINE_ARMS = ("west", "east")  # a layout line's two ends
SPINNER_ARMS = ("north", "south")  # the sides a spinner opens once both line sides are covered

_CHUNK_TABLES: dict[int, tuple] = {}


def chunk_tables(count: int) -> tuple:
    """Set bits of a piece mask, CHUNK bits at a time: mask -> piece ids without a bit loop."""
    t = _CHUNK_TABLES.get(count)
    if t is None:
        chunks = (count + CHUNK - 1) // CHUNK
        t = _CHUNK_TABLES[count] = tuple(
            tuple(tuple(CHUNK * k + i for i in range(CHUNK) if b >> i & 1) for b in range(1 << CHUNK))
            for k in range(chunks))
    return t


@dataclass(frozen=True)
class Pieces:
    """The pieces in play as small ints, with per-piece attribute tables."""

    names: tuple[str, ...]  # "6-4", "K♥"
    ends: tuple[tuple[int, int], ...]  # (high, low); empty for cards
    attrs: dict[str, tuple]  # attribute name -> value per piece
    kind: str = "dominoes"  # or "cards": suit, face, rank, trump and name in attrs
    by_ends: dict = field(init=False, repr=False, compare=False)  # (high, low), name or id -> id

    def __post_init__(self) -> None:
        d: dict = {e: i for i, e in enumerate(self.ends)}
        if self.kind == "cards":
            d.update({n: i for i, n in enumerate(self.names)})
        d.update({i: i for i in range(len(self.names))})  # ids stand for themselves
        object.__setattr__(self, "by_ends", d)

    def __len__(self) -> int:
        return len(self.names)

    def index(self, a: int, b: int) -> int | None:
        return self.by_ends.get((a, b) if a >= b else (b, a))


@dataclass(frozen=True)
class BidDef:
    """One bid a seat can make: a contract at a level, with its rank and marks worth."""

    index: int  # 0 is "no bid yet"
    contract: int  # contract index, -1 for no bid
    contract_name: str
    level: int
    rank: int
    marks: int
    action: int  # -1 for "no bid yet"
    label: str


@dataclass(frozen=True)
class Declaration:
    """A hand variable named after the auction (e.g. a trump choice), with its value space."""

    index: int
    name: str
    description: str
    values: tuple
    default: Any


@dataclass(frozen=True)
class DeclareStep:
    """One declaration a contract asks for: which variable, who decides, from which choices."""

    decl: int
    by: Fn
    choices: tuple  # values, in the order the ruleset lists them
    actions: tuple  # action ids parallel to choices
    when: Fn | None = None  # asked only when this holds (else the value is left as it is)
    allow: Fn | None = None  # which choices the seat may make, over `choice` and its `hand`
    legal: tuple = field(init=False, repr=False, compare=False)  # the action ids, sorted

    def __post_init__(self) -> None:
        object.__setattr__(self, "legal", tuple(sorted(self.actions)))


@dataclass(frozen=True)
class LayoutDef:
    """Play by laying pieces end to end: the first double may be a spinner; plays may score."""

    spinner: bool
    scores: Fn  # points the seat's side scores for the play just made
    must_draw: bool  # a seat with no play draws from the stock while it lasts
    may_draw: bool  # a seat may draw even when it could play
    claim: bool = False  # a count is scored only when claimed, by the player or else an opponent
    line_arms: tuple[str, ...] = LINE_ARMS
    spinner_arms: tuple[str, ...] = SPINNER_ARMS


@dataclass(frozen=True)
class ExchangeDef:
    """After the auction a seat takes the stock (widow) into hand and buries pieces."""

    by: Fn
    bury: int
    optional: bool  # the seat may leave the stock where it is
    first: bool  # before the declarations (else after them)
    take: Fn | None = None  # how many pieces of the stock (None: all that is left)
    start: Fn | None = None  # `from`: where in the stock the take starts (None: 0)
    legal: Fn | None = None  # which pieces the seat may bury (None: any)


@dataclass(frozen=True)
class PlayDef:
    """How a hand is played: by tricks (lead/follow/rank tabulated) or by layout."""

    leader: Fn
    sits_out: Fn | None
    legal: Fn | None
    trick_points: Fn
    mode: str = "tricks"
    layout: LayoutDef | None = None
    tie_break: Fn | None = None  # among pieces tied for the highest rank; None: the first played


@dataclass(frozen=True)
class ContractDef:
    index: int
    name: str
    title: str
    requires: Fn | None
    confirm: Fn | None  # the seat that must agree to this contract's bids (None: nobody)
    exchange: ExchangeDef | None
    declare: tuple[DeclareStep, ...]
    play: PlayDef
    over: Fn
    made: Fn
    # the exchanges after the first, in order (a list of exchanges in the ruleset)
    more_exchanges: tuple = ()
    exchange_pos: int = -1  # how many declarations come before the exchange (-1: by `first`)
    # the setup steps after the auction, in order: ("x", k) exchange k, ("d", i) declaration i
    setup_steps: tuple = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        steps: list = [("d", i) for i in range(len(self.declare))]
        if self.exchange is not None:
            at = self.exchange_pos if self.exchange_pos >= 0 else (
                0 if self.exchange.first else len(steps))
            steps[at:at] = [("x", k) for k in range(1 + len(self.more_exchanges))]
        object.__setattr__(self, "setup_steps", tuple(steps))

    def exchange_at(self, k: int) -> ExchangeDef:
        return self.exchange if k == 0 else self.more_exchanges[k - 1]


@dataclass(frozen=True)
class TrickTables:
    """Per (contract, declarations): lead suit per piece, follow masks and ranks per suit."""

    lead: tuple  # piece -> suit index, or a tuple of suit indexes the leader chooses from
    suits: tuple  # suit index -> suit value
    follow_mask: tuple  # suit index -> bitmask of pieces that follow it
    rank: tuple  # suit index -> tuple of rank per piece
    must_follow: bool
    lead_actions: tuple = ()  # suit index -> action id for a lead choice
    tiers: tuple = ()  # suit index -> masks of the further follow tiers, in order (none: ())

    def follow_of(self, led: int, hand: int) -> int:
        """The pieces of `hand` the rule to follow `led` allows: the first tier the hand
        holds any of, or the whole hand."""
        f = hand & self.follow_mask[led]
        if f or not self.tiers:
            return f or hand
        for m in self.tiers[led]:
            f = hand & m
            if f:
                return f
        return hand

    def void_of(self, led: int, piece: int) -> int:
        """The pieces a seat that played `piece` to `led` cannot have held: every tier before
        the first that holds the piece (each tier if none does)."""
        void = 0
        for m in (self.follow_mask[led],) + (self.tiers[led] if self.tiers else ()):
            if m >> piece & 1:
                return void
            void |= m
        return void


@dataclass(frozen=True)
class AuctionDef:
    """The auction: who speaks first, which bids beat which, forced and all-pass bids."""

    first: Fn
    beats: dict  # high bid index -> bid indexes that beat it
    beats_dyn: Fn | None  # set when `beats` depends on the speaker: judged per bid at run time
    all_pass_seat: Fn | None  # when all pass: the seat that must then bid (None: throw in)
    all_pass_bids: tuple[int, ...]
    fixed_contract: int  # >= 0: no auction, every hand is this contract
    forced_when: Fn | None
    forced_bids: frozenset
    has_requires: bool
    offers: dict  # (high bid index, forced) -> action ids before `requires` and `beats_dyn`


@dataclass(frozen=True)
class MatchDef:
    """How a match is decided: which score wins, whether it may end in a hand, what seats get."""

    lowest_wins: bool = False
    during_hand: bool = True  # match_over is also checked after every play that scores
    returns: Fn | None = None  # per side, over side/won/drawn; None: 1 win, 0 draw, -1 loss
    stake: int | None = None  # `scoring.chips`: chips each seat starts with; None: no chips
    pays: tuple = ()  # (name, hook over payer/payee): chips one seat pays another for a hand
    with_bidder: Fn | None = None  # `scoring.with_bidder`: over a seat, its side this hand
    report: tuple = ()  # `scoring.report`: (name, hook) figures of a hand, for records


@dataclass(frozen=True)
class MarkDef:
    """A mark people see on pieces (`display.marks`): which pieces carry it now, and its look."""

    name: str
    when: Fn  # over `tile`: the piece carries the mark while this holds
    ring: str  # "solid" or "dashed": two marks read apart without colour
    colour: str  # "#rrggbb"
    symbol: str  # one character after a marked piece at the terminal
    description: str = ""


@dataclass(frozen=True)
class Bounds:
    """What a ruleset promises about itself; the engine enforces the step and deal limits."""

    hand_points: int | None  # points at stake in a hand, when fixed
    max_hands: int  # deals in a match
    max_steps: int  # decisions in a hand


@dataclass(frozen=True)
class GameDef:
    """Everything the engine needs; built once per ruleset and option values, never changed."""

    name: str
    title: str
    canonical: str
    content_hash: str
    options: dict[str, Any]
    option_decls: dict
    pieces: Pieces
    seat_count: int
    seat_names: tuple[str, ...]
    sides: tuple[tuple[int, ...], ...]
    side_of: tuple[int, ...]
    hand_size: int
    stock: int  # pieces left undealt: a widow, kitty or boneyard
    first_dealer: int  # a seat, or -1: drawn by lot, a chance action at the start of a match
    next_dealer: Fn
    constants: dict[str, Any]
    declarations: tuple[Declaration, ...]
    contracts: tuple[ContractDef, ...]
    bids: tuple[BidDef, ...]
    auction: AuctionDef
    score_hand: Fn
    match_over: Fn
    match: "MatchDef"
    bounds: Bounds
    actions: ActionSpace
    trick_tables: dict  # (contract index, declared values) -> TrickTables, every combination
    agents: tuple[str, ...] = ("random",)  # `simulate.agents`: who plays when none are named
    strategy: str | None = None  # `simulate.strategy`: the rules agent's strategy file (a path)
    lineage: tuple[str, ...] = ()  # its name, then the name of each ruleset it extends
    seat_step: int = 1  # `seats.order`: 1 clockwise (next is seat + 1), -1 counter-clockwise
    turn: Fn | None = None  # `deal.turn`: the seat whose turn it is, evaluated after each deal
    marks: tuple = ()  # `display.marks`: MarkDefs, in drawing order; the rules never read them
    # `display.end_count`: what an open end counts, for people (None: its pips); never the rules'
    end_count: Fn | None = field(default=None, compare=False)
    # `display.suits`: a suit value as written (value_str) -> its name for people ("fives")
    suit_names: dict = field(default_factory=dict, compare=False)
    # `display.declarations`: a declaration's name -> its name for people (action_label)
    declaration_names: dict = field(default_factory=dict, compare=False)
    # `display.reasons`: (contract name, "play" or "exchange") -> why that part's `legal` rule
    # refuses a piece, in the ruleset's words (State.why_not says it); the rules never read them
    reasons: dict = field(default_factory=dict, compare=False)
    # what the engine writes down per piece for the names that read it (vocab.KEEPS): "plays"
    # (who played each piece), "taken" (whose trick took it), "laid" (who buried it); a record
    # no expression of the ruleset reads is not kept
    keeps: frozenset = frozenset({"plays", "taken", "laid"})
    profile: Any = field(default=None, repr=False, compare=False)  # a RuleProfile, when timed
    source: Any = field(default=None, repr=False, compare=False)  # the merged data, for `show`
    # ruleset path (("contracts", "points", "play", "trick_points")) -> the Compiled expression
    # of every hook, its checked tree with it: what a second back end compiles (tablerules.batch)
    exprs: dict = field(default_factory=dict, repr=False, compare=False)
    # derived once from the fields above
    bit: dict = field(init=False, repr=False, compare=False)  # piece id -> its mask bit
    default_decl: tuple = field(init=False, repr=False, compare=False)
    all_seats: tuple = field(init=False, repr=False, compare=False)
    default_nxt: tuple = field(init=False, repr=False, compare=False)
    number_mask: tuple = field(init=False, repr=False, compare=False)
    speaker_orders: tuple = field(init=False, repr=False, compare=False)
    chunk_bits: tuple = field(init=False, repr=False, compare=False)
    all_pieces: int = field(init=False, repr=False, compare=False)
    shares_stock: bool = field(init=False, repr=False, compare=False)  # an exchange takes part

    def __post_init__(self) -> None:
        n = self.seat_count
        put = object.__setattr__
        put(self, "bit", {i: 1 << i for i in range(len(self.pieces))})
        put(self, "default_decl", tuple(d.default for d in self.declarations))
        put(self, "all_seats", tuple(range(n)))
        step = self.seat_step
        put(self, "default_nxt", tuple((s + step) % n for s in range(n)))
        top = max((h for h, _ in self.pieces.ends), default=0)
        put(self, "number_mask", tuple(sum(1 << i for i, e in enumerate(self.pieces.ends) if v in e)
                                       for v in range(top + 1)))  # pieces showing each number
        put(self, "speaker_orders", tuple(tuple((f + step * i) % n for i in range(n))
                                          for f in range(n)))
        put(self, "chunk_bits", chunk_tables(len(self.pieces)))
        put(self, "all_pieces", (1 << len(self.pieces)) - 1)
        put(self, "shares_stock", any(c.more_exchanges or (c.exchange is not None
                                                           and c.exchange.take is not None)
                                       for c in self.contracts))

    def mask_pieces(self, m: int) -> tuple[int, ...]:
        """Piece ids of the set bits of `m`, lowest first."""
        tables = self.chunk_bits
        if len(tables) == 2:
            return tables[0][m & CHUNK_MASK] + tables[1][m >> CHUNK]
        out = ()
        for table in tables:
            if not m:
                break
            out += table[m & CHUNK_MASK]
            m >>= CHUNK
        return out

    def tables(self, contract: int, decl: tuple) -> TrickTables:
        return self.trick_tables[(contract, decl)]

    # the action space, for callers that hold only the definition
    @property
    def pass_action(self) -> int:
        return self.actions.pass_action

    @property
    def num_actions(self) -> int:
        return self.actions.num_actions

    def action_to_string(self, action: int) -> str:
        """A short human name for an action id."""
        return self.actions.to_string(action)

    def action_label(self, action: int) -> str:
        """An action as people are shown it: action_to_string's name (the record's), a
        declaration said by its `display.declarations` name (one asked of each seat in turn,
        each seat's its own declaration, by one name)."""
        acts = self.actions
        if acts.decl_base <= action < acts.lead_base and self.declaration_names:
            d, v = acts.decl_actions[action - acts.decl_base]
            name = self.declarations[d].name
            return f"{self.declaration_names.get(name, name)} {value_str(v)}"
        return acts.to_string(action)

    def string_to_action(self, text: str) -> int | None:
        """The action id of a name from `action_to_string`, or None."""
        return self.actions.from_string(text)
