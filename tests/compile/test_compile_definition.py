"""The compiled definition: frozen, with a closed action space and every table precomputed."""

from __future__ import annotations

import dataclasses
import itertools
import subprocess
import sys
from functools import lru_cache

import pytest

from tablerules.definition import GameDef, value_str
from tablerules.errors import CheckError
from tablerules.interpreter import check_tree, compile_tree
from tablerules.load.ruleset import builtin_names, load_tree

VARIANTS = [(name, None) for name in builtin_names()] + [
    ("allfives", {"players": 3}), ("allfives", {"players": 2, "teams": "cutthroat"}),
    ("texas42", {"nello": False, "all_pass": "reshuffle"}), ("moon", {"widow_first": False}),
]
IDS = [f"{n}-{o}" if o else n for n, o in VARIANTS]


@lru_cache(maxsize=None)
def _compiled(name: str, opts: tuple) -> GameDef:
    tree = load_tree(name)
    assert not check_tree(tree)
    return compile_tree(tree, dict(opts) or None)


def compiled(name: str, opts: dict | None = None) -> GameDef:
    return _compiled(name, tuple(sorted((opts or {}).items())))


@pytest.fixture(params=VARIANTS, ids=IDS)
def gd(request) -> GameDef:
    return compiled(*request.param)


def test_the_definition_and_its_parts_are_frozen(gd):
    for obj, attr in [(gd, "num_actions"), (gd, "name"), (gd.auction, "beats"),
                      (gd.bounds, "max_steps"), (gd.actions, "lead_base"), (gd.bids[0], "action"),
                      (gd.contracts[0], "declare"), (gd.contracts[0].play, "mode")]:
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(obj, attr, 0)


def test_every_action_id_round_trips_through_its_name(gd):
    names = [gd.action_to_string(a) for a in range(gd.num_actions)]
    assert len(set(names)) == len(names)
    for a, text in enumerate(names):
        assert gd.string_to_action(text) == a
    with pytest.raises(ValueError):
        gd.action_to_string(gd.num_actions)


def test_the_action_layout_is_pieces_fixed_bids_declarations_leads_bury_lay(gd):
    acts, n = gd.actions, len(gd.pieces)
    assert acts.pass_action == n and acts.bid_base == n + 8  # pass .. knock, claim
    assert acts.decl_base == acts.bid_base + len(gd.bids) - 1
    assert acts.bury_base == acts.lead_base + len(acts.suit_values)
    assert acts.layout_base == acts.bury_base + n and acts.num_actions == acts.layout_base + 4 * n
    assert gd.bids[0].action == -1
    for b in gd.bids[1:]:
        assert b.action == acts.bid_action(b.index) and acts.kind(b.action) == "bid"
        assert gd.action_to_string(b.action) == f"bid {b.label}"


def test_declare_actions_are_parallel_to_the_choices(gd):
    for c in gd.contracts:
        for step in c.declare:
            assert len(step.actions) == len(step.choices)
            name = gd.declarations[step.decl].name
            for v, a in zip(step.choices, step.actions):
                assert gd.action_to_string(a) == f"{name} {value_str(v)}"


def test_every_reachable_declaration_combination_has_a_trick_table(gd):
    expected = set()
    for c in gd.contracts:
        if c.play.mode != "tricks":
            continue
        for combo in itertools.product(*(s.choices for s in c.declare)):
            decl = list(gd.default_decl)
            for s, v in zip(c.declare, combo):
                decl[s.decl] = v
            expected.add((c.index, tuple(decl)))
    assert set(gd.trick_tables) == expected
    for (contract, decl), t in gd.trick_tables.items():
        assert gd.tables(contract, decl) is t
        assert len(t.lead) == len(gd.pieces) and t.suits == gd.actions.suit_values
        assert t.lead_actions == tuple(gd.actions.lead_base + i for i in range(len(t.suits)))
        assert all(len(r) == len(gd.pieces) for r in t.rank)


def test_auction_offers_cover_every_high_bid_and_forced(gd):
    a = gd.auction
    assert set(a.offers) == {(h, f) for h in range(len(gd.bids)) for f in (False, True)}
    for (h, forced), acts in a.offers.items():
        ok = [b for b in a.beats[h] if not forced or b in a.forced_bids]
        assert acts == (() if forced else (gd.pass_action,)) + tuple(gd.bids[b].action for b in ok)


def test_a_stuck_dealer_is_offered_only_the_forced_bids():
    gd = compiled("texas42")
    forced = gd.auction.offers[(0, True)]
    assert forced and gd.pass_action not in forced
    assert {gd.action_to_string(a) for a in forced} == {"bid 30"}
    assert gd.auction.offers[(0, False)][0] == gd.pass_action


def test_layout_games_have_no_auction_and_no_trick_tables():
    gd = compiled("allfives")
    assert gd.auction.fixed_contract == 0 and len(gd.bids) == 1
    assert gd.trick_tables == {} and gd.contracts[0].play.layout is not None


def test_bounds_gather_what_a_ruleset_promises():
    gd = compiled("texas42")
    assert gd.bounds.hand_points == 42 and gd.bounds.max_hands > 0 and gd.bounds.max_steps > 0


def _broken(tmp_path, body: str):
    f = tmp_path / "r.yaml"
    f.write_text("name: x\ntitle: x\nextends: texas42\n" + body, encoding="utf-8")
    return load_tree(str(f))


@pytest.mark.parametrize("part", [
    "contracts:\n  points:\n    declare:\n      trump:\n        by: seat\n",
    "contracts:\n  points:\n    play:\n      leader: seat\n",
    "contracts:\n  points:\n    exchange:\n      by: seat\n",
])
def test_seat_is_no_longer_a_name_where_no_seat_is_asked_about(tmp_path, part):
    with pytest.raises(CheckError) as e:
        compile_tree(_broken(tmp_path, part))
    assert e.value.diagnostics[0].message.startswith("unknown name 'seat' in contracts.points.")


def test_sits_out_still_reads_the_seat_in_question(tmp_path):
    gd = compile_tree(_broken(tmp_path, "contracts:\n  points:\n    play:\n"
                                        "      sits_out: \"seat == partner(bidder)\"\n"))
    hook = gd.contracts[0].play.sits_out

    class Ctx:
        asked, bidder = 2, 0
    assert hook(Ctx()) is True


def test_an_error_names_the_place_as_before(tmp_path):
    with pytest.raises(CheckError) as e:
        compile_tree(_broken(tmp_path, "auction:\n  beats: \"bid.rank > hihg.rank\"\n"))
    d = e.value.diagnostics[0]
    assert (d.message, d.kind, d.suggestion) == ("unknown name 'hihg' in auction.beats", "expr",
                                                 "high")


def test_the_interpreter_imports_nothing_of_the_engine():
    code = ("import sys, tablerules.interpreter; "
            "print([m for m in sys.modules if m.startswith(('tablerules.engine', 'tablerules.game'))])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
