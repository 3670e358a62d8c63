"""The `auction:` pass: who speaks first, which bids beat which, forced and all-pass bids."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ..definition import ActionSpace, AuctionDef, BidDef, places
from ..definition.game import Fn
from ..errors import did_you_mean
from ..expr.types import BOOL, INT
from .contracts import ContractDraft
from .vocab import Scope

if TYPE_CHECKING:
    from .core import Compiler

# the names of `auction.beats` that tabulation does not provide: using one makes it dynamic
SPEAKER = frozenset(n.name for n in places.place("auction.beats").names
                    if n.field not in ("offered", "high"))


class BidCtx:
    """The context of tabulating `auction.beats`, `forced.bids` and `all_pass.bids`."""

    __slots__ = ("offered", "high")

    def __init__(self, offered: int, high: int = 0):
        self.offered = offered
        self.high = high


def auction(comp: Compiler, scope: Scope, bids: list[BidDef], drafts: list[ContractDraft]
            ) -> AuctionDef | None:
    """The auction with `offers` left empty (see `with_offers`); None after an error."""
    first = comp.fn(("auction", "first"), scope.env("auction.first", where="auction"), INT,
                    default="next(dealer)")
    beats_c = comp.expr(("auction", "beats"), scope.env("auction.beats"), BOOL,
                        default="bid.rank > high.rank")
    forced_when = None
    forced_bids: frozenset[int] = frozenset()
    if comp.has("auction", "forced"):
        forced_when = comp.fn(("auction", "forced", "when"), scope.env("auction.forced.when"), BOOL)
        fb = comp.expr(("auction", "forced", "bids"), scope.env("auction.forced.bids"), BOOL,
                       default="true")
        if fb is not None:
            forced_bids = frozenset(b.index for b in bids[1:] if fb.fn(BidCtx(b.index)))
    all_pass_seat, all_pass_bids = _all_pass(comp, scope, bids)
    fixed_contract = _fixed_contract(comp, drafts)
    beats: dict[int, tuple[int, ...]] = {}
    beats_dyn = None
    if beats_c is not None:
        if beats_c.uses & SPEAKER:
            beats_dyn = beats_c.fn  # depends on the speaker: judged at run time
            every = tuple(b.index for b in bids[1:])
            beats = {h.index: every for h in bids}
        else:
            beats = {h.index: tuple(b.index for b in bids[1:]
                                    if beats_c.fn(BidCtx(b.index, h.index)))
                     for h in bids}
    if first is None:
        return None
    return AuctionDef(first, beats, beats_dyn, all_pass_seat, all_pass_bids, fixed_contract,
                      forced_when, forced_bids, any(d.requires is not None for d in drafts), {})


def _all_pass(comp: Compiler, scope: Scope, bids: list[BidDef]) -> tuple[Fn | None, tuple]:
    """(seat, bids) when every seat passes: the seat that must bid and what it may bid."""
    if not isinstance(comp.tree.get(("auction", "all_pass")), dict):
        return None, ()
    sc = comp.fn(("auction", "all_pass", "seat"), scope.env("auction.all_pass.seat"), INT)
    bc = comp.expr(("auction", "all_pass", "bids"), scope.env("auction.all_pass.bids"), BOOL,
                   default="true")
    if sc is None or bc is None:
        return None, ()
    all_pass_bids = tuple(b.index for b in bids[1:] if bc.fn(BidCtx(b.index)))
    if not all_pass_bids:
        comp.error(("auction", "all_pass", "bids"),
                   "no bid satisfies 'all_pass.bids': the forced seat could not bid")
    return sc, all_pass_bids


def _fixed_contract(comp: Compiler, drafts: list[ContractDraft]) -> int:
    """The contract `auction.contract` plays every hand, or -1 for an auction."""
    fixed = comp.tree.get(("auction", "contract"))
    if fixed is None:
        return -1
    found = [c for c in drafts if c.name == fixed]
    if not found:
        comp.error(("auction", "contract"), f"'auction.contract' names no contract: {fixed!r}",
                   suggestion=did_you_mean(str(fixed), [c.name for c in drafts]))
        return -1
    return found[0].index


def with_offers(a: AuctionDef, bids: tuple[BidDef, ...], actions: ActionSpace) -> AuctionDef:
    """The auction with `offers`: for every (high bid, forced) the actions before `requires`."""
    offers = {}
    for h in range(len(bids)):
        for forced in (False, True):
            ok = [b for b in a.beats[h] if not forced or b in a.forced_bids]
            offers[(h, forced)] = ((() if forced else (actions.pass_action,))
                                   + tuple(bids[b].action for b in ok))
    return replace(a, offers=offers)
