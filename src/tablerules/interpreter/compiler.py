"""`compile_tree`: every pass over a ruleset, in order, building one frozen GameDef."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..definition import ContractDef, Declaration, DeclareStep, GameDef, Pieces, build_actions
from ..definition.game import LINE_ARMS, SPINNER_ARMS
from ..definition.profile import RuleProfile
from ..errors import CheckError
from ..expr.types import BOOL, INT, SCALAR, ListType
from ..load.ruleset import content_hash
from ..load.yamltree import Tree
from .core import Compiler, as_part
from . import (auction, bounds, contracts, deal, declarations, display, pieces, scoring, seats,
               settings, tables, vocab)
from .options import canonical_name


@dataclass
class Setup:
    """The ruleset-wide parts every later pass reads."""

    pieces: Pieces
    seat_count: int
    seat_names: tuple[str, ...]
    sides: tuple[tuple[int, ...], ...]
    hand_size: int
    stock: int
    constants: dict[str, Any]
    declarations: tuple[Declaration, ...]
    scope: vocab.Scope
    bid_tables: dict[str, list]
    seat_step: int  # 1: play goes clockwise (seat + 1), -1: counter-clockwise


def setup(comp: Compiler, decls: dict, values: dict) -> Setup:
    """Pieces, seats, deal sizes and the ruleset's own names, in the order each needs the last."""
    base = settings.option_env(decls, values)
    pcs, tile = pieces.pieces(comp, base)
    if pcs is None:
        comp.raise_if_errors()
    if pcs.kind == "dominoes":
        base.vars["max_pip"] = vocab.const(INT, comp.get("pieces", "max_pip", default=0),
                                           "highest pip")
    base.vars["pieces"] = vocab.const(ListType(tile), tuple(range(len(pcs))), "every piece in play")
    found = seats.seats(comp, base)
    if found is None:
        comp.raise_if_errors()
        raise CheckError("ruleset has no usable seats")
    seat_count, seat_names, sides = found
    base.vars.update({
        "seat_count": vocab.const(INT, seat_count, "number of seats"),
        "sides": vocab.const(ListType(INT), tuple(range(len(sides))), "every side's index"),
    })
    hand_size, stock = deal.sizes(comp, base, seat_count, len(pcs))
    step = seats.order(comp)
    base.funcs.update(vocab.piece_funcs(pcs, tile))
    base.funcs.update(vocab.seat_funcs(seat_count, sides, step))
    consts = declarations.constants(comp, base)
    decl_list = declarations.declarations(comp, base)
    decl_vars = declarations.declaration_vars(decl_list)
    names = [k for k in (comp.data.get("contracts") or {}) if isinstance(k, str)]
    bid, bid_tables = contracts.bid_type(names)
    types = {"int": INT, "bool": BOOL, "scalar": SCALAR, "tile": tile, "bid": bid,
             "end": vocab.end_type()}
    user_funcs, lazy = declarations.functions(comp, base, decl_vars, tile, types)
    scope = vocab.Scope(base, types, decl_vars, vocab.group_funcs(user_funcs, tile), lazy,
                        cards=pcs.kind == "cards")
    return Setup(pcs, seat_count, seat_names, sides, hand_size, stock, consts, decl_list, scope,
                 bid_tables, step)


def compile_tree(tree: Tree, cli_options: dict[str, Any] | None = None, *,
                 profile: bool = False, typed: bool = False) -> GameDef:
    """A merged, schema-checked ruleset tree (and command-line options) -> its GameDef; with
    `profile`, every hook is timed into the GameDef's `profile` (definition/profile.py); with
    `typed`, every hook's checked tree is kept in its `exprs` (for the batch engine)."""
    if tree.library:  # a library part is checked inside the smallest game
        tree = as_part(tree)
    comp = Compiler(tree, cli_options, RuleProfile() if profile else None, typed=typed)
    d = comp.data
    if "pieces" not in d and "seats" not in d:  # shared rules, most likely, not a game
        comp.error(("name",), "this file has no pieces and no seats, so it is not a game: "
                              "a library part that games extend says so with 'library: true'",
                   key=True)
        comp.raise_if_errors()
    name = d.get("name") if isinstance(d.get("name"), str) else "unnamed"
    title = d.get("title") if isinstance(d.get("title"), str) else name
    decls = settings.option_decls(comp)
    values, house_defaults = settings.option_values(comp, decls)
    s = setup(comp, decls, values)
    first_dealer, next_dealer = deal.dealers(comp, s.scope, s.seat_count)
    turn = deal.turn(comp, s.scope)
    drafts, bids = contracts.contracts(comp, s.scope, s.declarations)
    contracts.fill_bid_tables(s.bid_tables, bids)
    auc = auction.auction(comp, s.scope, bids, drafts)
    score_hand, match_over = scoring.scoring(comp, s.scope)
    match_def = scoring.match(comp, s.scope)
    bnds = bounds.bounds(comp, s.scope.base)
    strategy = settings.default_strategy(comp)
    marks = display.marks(comp, s.scope)
    reasons = display.reasons(comp)
    declaration_names = display.declaration_names(comp)
    end_count = display.end_count(comp, s.scope)
    comp.raise_if_errors()
    actions, bid_defs, contract_defs, trick_tables = finish(comp, s, drafts, bids)
    if comp.profile is not None:
        comp.profile.reset()  # what filled the tables ran while compiling, not in the run
    return GameDef(
        name=name, title=title, canonical=canonical_name(name, decls, values, house_defaults),
        content_hash=content_hash(d), options=values, option_decls=decls, pieces=s.pieces,
        seat_count=s.seat_count, seat_names=s.seat_names, sides=s.sides,
        side_of=tuple(next(i for i, side in enumerate(s.sides) if seat in side)
                      for seat in range(s.seat_count)),
        hand_size=s.hand_size, stock=s.stock, first_dealer=first_dealer, next_dealer=next_dealer,
        constants=s.constants, declarations=s.declarations, contracts=contract_defs, bids=bid_defs,
        auction=auction.with_offers(auc, bid_defs, actions), score_hand=score_hand,
        match_over=match_over, match=match_def, bounds=bnds, actions=actions,
        trick_tables=trick_tables, agents=settings.default_agents(comp),
        strategy=strategy, lineage=tuple(tree.lineage) or (name,), seat_step=s.seat_step, source=d,
        turn=turn, keeps=vocab.keeps(comp.uses), marks=marks, suit_names=display.suit_names(comp),
        declaration_names=declaration_names, end_count=end_count,
        reasons=reasons, profile=comp.profile, exprs=comp.exprs)


def spinner_arms(drafts: list) -> tuple[str, ...]:
    """Every arm a spinner of any layout contract opens, in order (the default with none)."""
    layouts = [d.play.layout for d in drafts if d.play.layout is not None]
    if not layouts:
        return SPINNER_ARMS
    return tuple(dict.fromkeys(a for lay in layouts for a in lay.spinner_arms))


def finish(comp: Compiler, s: Setup, drafts: list, bids: list):
    """(actions, bids, contracts, trick tables): the tables first, for the suits a leader may
    name, then the action space, then the bids and contracts with their action ids."""
    combos = tables.combinations(comp, drafts, s.declarations)
    read = tables.declarations_read(comp, drafts, s.declarations)

    def same(key):  # the combination as the trick rules see it
        return key[0], tuple(v if i in read[key[0]] else None for i, v in enumerate(key[1]))

    suit_values: list = []
    first = {}  # one combination of each kind the trick rules tell apart
    for key in combos:
        first.setdefault(same(key), key)
    leads = {key: tables.leads(comp, drafts[key[0]], key[1], s.pieces, suit_values)
             for key in first.values()}  # first every suit any lead can name, then the tables
    decl_actions = tuple((dc.index, v) for dc in s.declarations for v in dc.values)
    actions = build_actions(s.pieces.names, tuple(b.label for b in bids[1:]),
                            tuple(dc.name for dc in s.declarations), decl_actions,
                            tuple(suit_values), LINE_ARMS + spinner_arms(drafts))
    lead_actions = tuple(actions.lead_base + i for i in range(len(suit_values)))
    built = {key: tables.tables(drafts[key[0]], key[1], lead, s.pieces, actions.suit_values,
                                lead_actions) for key, lead in leads.items()}
    trick_tables = {key: built[first[same(key)]] for key in combos}
    decl_action_of = {(d, tables.value_key(v)): actions.decl_base + i
                      for i, (d, v) in enumerate(decl_actions)}
    bid_defs = tuple(replace(b, action=actions.bid_action(b.index)) if b.index else b for b in bids)
    contract_defs = tuple(_contract_def(c, decl_action_of) for c in drafts)
    return actions, bid_defs, contract_defs, trick_tables


def _contract_def(c: contracts.ContractDraft, action_of: dict) -> ContractDef:
    """A drafted contract with the action id of each declaration choice."""
    steps = tuple(DeclareStep(d, by, choices,
                              tuple(action_of[(d, tables.value_key(v))] for v in choices),
                              when, allow)
                  for d, by, choices, when, allow in c.steps)
    ex = c.exchange or (None,)
    return ContractDef(c.index, c.name, c.title, c.requires, c.confirm, ex[0], steps, c.play,
                       c.over, c.made, more_exchanges=tuple(ex[1:]),
                       exchange_pos=c.exchange_pos)
