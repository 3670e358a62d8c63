"""The compiled game: an immutable definition the engine runs, with every hook a callable."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

Fn = Callable[[Any], Any]
FIXED_NAMES = ("pass", "agree", "decline", "take stock", "leave stock", "draw", "knock")
ARMS = ("west", "east", "north", "south")  # the line's two ends, then the spinner's sides
CHUNK = 14  # bits per lookup table of mask_pieces: 2 lookups cover a 28-piece set
CHUNK_MASK = (1 << CHUNK) - 1


@dataclass(frozen=True)
class Pieces:
    """The pieces in play as small ints, with per-piece attribute tables."""

    names: tuple[str, ...]  # "6-4"
    ends: tuple[tuple[int, int], ...]  # (high, low)
    attrs: dict[str, tuple]  # attribute name -> value per piece

    def __len__(self) -> int:
        return len(self.names)

    def index(self, a: int, b: int) -> int | None:
        return self.by_ends.get((a, b) if a >= b else (b, a))

    @property
    def by_ends(self) -> dict[tuple[int, int], int]:
        """(high, low) -> piece id."""
        d = self.__dict__.get("_by_ends")
        if d is None:
            d = {e: i for i, e in enumerate(self.ends)}
            d.update({i: i for i in range(len(self.ends))})  # ids stand for themselves
            object.__setattr__(self, "_by_ends", d)
        return d


@dataclass(frozen=True)
class BidDef:
    """One bid a seat can make: a contract at a level, with its rank and marks worth."""

    index: int  # 0 is "no bid yet"
    contract: int  # contract index, -1 for no bid
    contract_name: str
    level: int
    rank: int
    marks: int
    action: int
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
    choices: tuple  # values
    actions: tuple  # action ids, parallel to choices


@dataclass(frozen=True)
class LayoutDef:
    """Play by laying pieces end to end: the first double may be a spinner; plays may score."""

    spinner: bool
    scores: Fn  # points the seat's side scores for the play just made
    must_draw: bool  # a seat with no play draws from the stock while it lasts
    may_draw: bool  # a seat may draw even when it could play


@dataclass(frozen=True)
class ExchangeDef:
    """After the auction a seat takes the stock (widow) into hand and buries pieces."""

    by: Fn
    bury: int
    optional: bool  # the seat may leave the stock where it is
    first: bool  # before the declarations (else after them)


@dataclass(frozen=True)
class PlayDef:
    """How a hand is played: by tricks (`lead`/`follows`/`rank` tabulated) or by layout."""

    leader: Fn
    sits_out: Fn | None
    lead: Fn
    follows: Fn
    rank: Fn
    must_follow: Fn
    legal: Fn | None
    trick_points: Fn
    mode: str = "tricks"
    layout: LayoutDef | None = None


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


@dataclass
class TrickTables:
    """Per (contract, declarations): lead suit per piece, follow masks and ranks per suit."""

    lead: tuple  # piece -> suit index, or a tuple of suit indexes the leader chooses from
    suits: tuple  # suit index -> suit value
    follow_mask: tuple  # suit index -> bitmask of pieces that follow it
    rank: tuple  # suit index -> tuple of rank per piece
    must_follow: bool
    lead_actions: tuple = ()  # suit index -> action id for a lead choice


@dataclass
class GameDef:
    """Everything the engine needs; built once per ruleset and option values."""

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
    first_dealer: int
    next_dealer: Fn
    constants: dict[str, Any]
    declarations: tuple[Declaration, ...]
    contracts: tuple[ContractDef, ...]
    bids: tuple[BidDef, ...]
    auction_first: Fn
    beats: dict[int, tuple[int, ...]]  # high bid index -> bid indexes that beat it (enabled)
    beats_dyn: Fn | None  # set when `beats` depends on the speaker: judged per bid at run time
    all_pass_seat: Fn | None  # when all pass: the seat that must then bid (None: throw in)
    all_pass_bids: tuple[int, ...]
    fixed_contract: int  # >= 0: no auction, every hand is this contract
    forced_when: Fn | None
    forced_bids: frozenset[int]
    has_requires: bool
    score_hand: Fn
    match_over: Fn
    hand_points: int | None
    max_hands: int
    max_steps: int
    # action space
    pass_action: int
    bid_base: int
    decl_actions: tuple[tuple[int, Any], ...]  # action - decl_base -> (decl index, value)
    decl_base: int
    lead_base: int
    num_actions: int
    suit_values: tuple  # every suit value any contract can lead, for lead-choice actions
    bury_base: int = 0
    layout_base: int = 0
    table_builder: Callable[[int, tuple], TrickTables] = field(repr=False, default=None)
    _tables: dict = field(default_factory=dict, repr=False)
    auction_cache: dict = field(default_factory=dict, repr=False)  # (high, forced) -> actions
    source: Any = field(default=None, repr=False)  # the merged data, for `show`

    def __post_init__(self) -> None:
        n = self.seat_count
        # the fixed actions follow pass in the order of FIXED_NAMES
        (self.agree_action, self.decline_action, self.take_action, self.leave_action,
         self.draw_action, self.knock_action) = range(self.pass_action + 1,
                                                        self.pass_action + len(FIXED_NAMES))
        self.bit = {i: 1 << i for i in range(len(self.pieces))}
        self.default_decl = tuple(d.default for d in self.declarations)
        self.all_seats = tuple(range(n))
        self.default_nxt = tuple((s + 1) % n for s in range(n))
        top = max((h for h, _ in self.pieces.ends), default=0)
        self.number_mask = tuple(sum(1 << i for i, e in enumerate(self.pieces.ends) if v in e)
                                 for v in range(top + 1))  # pieces showing each number
        self.speaker_orders = tuple(tuple((f + i) % n for i in range(n)) for f in range(n))
        # set bits of a piece mask, CHUNK bits at a time: mask -> piece ids without a bit loop
        chunks = (len(self.pieces) + CHUNK - 1) // CHUNK
        self.chunk_bits = tuple(
            tuple(tuple(CHUNK * k + i for i in range(CHUNK) if b >> i & 1) for b in range(1 << CHUNK))
            for k in range(chunks))

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
        key = (contract, decl)
        t = self._tables.get(key)
        if t is None:
            t = self.table_builder(contract, decl)
            self._tables[key] = t
        return t

    def action_to_string(self, action: int) -> str:
        """A short human name for an action id."""
        n = len(self.pieces)
        if 0 <= action < n:
            return self.pieces.names[action]
        if self.pass_action <= action < self.bid_base:
            return FIXED_NAMES[action - self.pass_action]
        if self.bid_base <= action < self.decl_base:
            return "bid " + self.bids[action - self.bid_base + 1].label
        if self.decl_base <= action < self.lead_base:
            d, v = self.decl_actions[action - self.decl_base]
            return f"{self.declarations[d].name} {value_str(v)}"
        if self.lead_base <= action < self.bury_base:
            return f"lead {value_str(self.suit_values[action - self.lead_base])}"
        if self.bury_base <= action < self.layout_base:
            return f"bury {self.pieces.names[action - self.bury_base]}"
        if self.layout_base <= action < self.num_actions:
            piece, arm = divmod(action - self.layout_base, 4)
            return f"{self.pieces.names[piece]} {ARMS[arm]}"
        raise ValueError(f"no action {action}")

    def string_to_action(self, text: str) -> int | None:
        """The action id of a name from `action_to_string`, or None."""
        cache = self.__dict__.get("_by_name")
        if cache is None:
            cache = {self.action_to_string(a): a for a in range(self.num_actions)}
            self.__dict__["_by_name"] = cache
        return cache.get(text)


def value_str(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)
