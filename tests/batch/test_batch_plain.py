"""Kernels the suite does not compile, their logic checked as plain Python (numba's
NUMBA_DISABLE_JIT, in the test worker's plain-Python process, support.plain_python: the same
generated source, no compiling): every hand replayed through the step engine agrees, decision by
decision and result by result.

Taroky's default rules compile for about 40 seconds and All Fives' strategy for about half a minute;
Texas 42's fortytwo strategy (about 25 seconds) is compiled for the workers benchmark
(tests/scale/test_scale_workers.py) and simulate --engine batch's tests, which play it by default
and replay a few of its matches. The suite compiles Moon's strategy and a plain 52-card game
(test_batch_rules.py, test_batch_cards.py, which checks Taroky's other options as plain Python too),
so numba's typing of each kind is checked there and here their rules. A probe strategy whose choices
turn on every name a strategy reads checks each name's kernel form against the Python agent's view,
game by game."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from support import allfives_with_arms, kernel_source, plain_python

numba = pytest.importorskip("numba")
FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def agree(cache, name: str, agents: str, *options: str, hands: int = 200) -> None:
    r = plain_python(["-m", "tablerules", "batch", name, *options, "--agents", agents, "-n",
                      str(hands), "--check", str(hands), "--seed", "3", "--no-progress",
                      "--format", "json"], cache)
    assert r.returncode == 0, r.stderr[-2000:]
    j = json.loads(r.stdout)
    assert j["hands"] == hands
    assert j["checked"] == {"hands": hands, "agree": hands, "disagreements": []}, j["checked"]


@pytest.mark.parametrize("name, agents", [("texas42", "rules"), ("texas42-hall", "rules"),
                                          ("taroky", "random"), ("allfives", "rules")])
def test_every_hand_agrees_with_the_step_engine(tmp_path, name, agents):
    agree(tmp_path, name, agents)


# what a seat sees, every name of the strategy vocabulary at once: each decision's view mixed
# into one number that turns the choice (a name the kernel reads wrong changes some choices)
MIX = ("seat + 2 * dealer + 3 * (bidder + 1) + 5 * my_side + 7 * len(hand) + 11 * bid.level"
       " + 13 * len(trick) + 17 * (winning + 1) + 19 * len(played) + 23 * len(unseen)"
       " + 29 * stock_size + 31 * len(ends)"
       " + 37 * sum(e.pips + (1 if e.double else 0) + (2 if e.spinner else 0) for e in ends)"
       " + 41 * sum(held(s) for s in range(0, seat_count))"
       " + 43 * sum(bid_of(s).level + (1 if passed(s) else 0) for s in range(0, seat_count))"
       " + 47 * sum(points(x) + tricks(x) + score(x) for x in sides)"
       " + 53 * sum(played_by(t) + 1 for t in played)"
       " + 59 * (1 if contract == 'none' else 0) + 61 * (1 if leading else 0)"
       " + 67 * count(s in range(0, seat_count) if s in trick_seats)"
       " + 71 * sum(s + 1 for s in trick_seats) + 73 * len(trick_seats) + 79 * len(legal)"
       " + 83 * (trick_seats[0] + 1 if len(trick_seats) > 0 else 0)"
       " + 89 * (rank(hand[0]) if len(hand) > 0 else 0)"
       " + 97 * (1 if legal[0].kind == 'bid' else 0)"
       " + 101 * (rank(trick[0]) if len(trick) > 0 else 0)"
       " + 103 * (rank(unseen[0]) if len(unseen) > 0 else 0)"
       " + 107 * (played_by(played[len(played) - 1]) + 1 if len(played) > 0 else 0)"
       " + 109 * (rank(played[0]) if len(played) > 0 else 0)"
       # every legal action (legal[0] alone is a pass through most bidding, and an action that
       # moves a piece in much else: a copy of them not made read the same there)
       " + 113 * count(b in legal if b.kind == 'bid') + 127 * sum(b.bid.rank for b in legal"
       " if b.kind == 'bid') + 131 * count(b in legal if b.kind == 'bury')")


def probe(layout: bool, cards: bool) -> str:
    """A strategy whose every choice turns on the whole view (MIX): its bids by their rank, what
    it buries and its plays or lays by the piece's attributes, its rank, whether it beats the
    trick, follows the suit led, goes on an end showing its number."""
    attr = "a.piece.rank" if cards else "a.piece.pips"
    text = f"""name: probe
values:
  mix: >-
    {MIX}
play:
  - name: by_the_view
    only: "a.kind == '{'lay' if layout else 'play'}'"
    choose: >-
      ((mix % 7) - 3) * {attr} + ((mix % 3) - 1) * rank(a.piece)
      + (5 if beats(a.piece) else 0) * ((mix % 2) * 2 - 1)
      + (3 if suit(a.piece) == led else 0) * ((mix % 5) - 2)
"""
    if layout:
        return text + ("      + 7 * sum(1 for e in ends if e.arm == a.arm"
                       " and e.pips == a.piece.high)\n")
    return text + f"""bid:
  - name: bid_by_the_view
    only: "a.kind == 'bid'"
    choose: "((mix % 7) - 3) * a.bid.rank"
bury:
  - name: bury_by_the_view
    only: "a.kind == 'bury'"
    choose: "((mix % 5) - 2) * {attr} + (mix % 3) * count(t in hand if suit(t) == suit(a.piece))"
"""


@pytest.mark.parametrize("name, options", [
    ("texas42", ()), ("moon", ()), ("taroky", ()),
    ("allfives", ("-o", "players=2", "-o", "muggins=true")),  # a boneyard's draws, claims
    ("three-arms", ("-o", "players=3"))], ids=lambda v: " ".join(v) if isinstance(v, tuple) else v)
def test_a_strategy_reading_the_whole_view_chooses_as_the_python_agent(tmp_path, name, options):
    """Every name a strategy reads has a kernel form that sees what the Python agent sees: a
    strategy whose choices turn on all of them at once (MIX) chooses the same at every decision
    of 200 hands (of All Fives with a boneyard and claims, and with a spinner opening three
    arms too).
    It found a lay left out of the kernel's record (unseen, played_by) and the stock read as
    dealt after a draw (stock_size)."""
    ruleset = str(allfives_with_arms(tmp_path, "[north, south, up]")) if name == "three-arms" \
        else name
    f = tmp_path / "probe.yaml"
    f.write_text(probe(name in ("allfives", "three-arms"), name == "taroky"), encoding="utf-8")
    agree(tmp_path, ruleset, f"rules:strategy={f}", *options)


def test_functions_of_no_argument_in_a_hands_scoring_agree(tmp_path):
    """Payments and a score written through functions of no argument (the batch engine keeps
    each one that reads no payer, payee, side or `made` while a hand is scored): each reading
    one of those still changes from call to call, so every payment and score agrees (1000
    hands: random bidders seldom make a bid, and a made bid is what pays the bidder)."""
    agree(tmp_path, str(FIXTURES / "moon-chips-functions.yaml"), "random", hands=1000)


def test_tests_of_who_played_a_card_over_many_cards_agree(tmp_path):
    """`played_by(t) == s` in a count over the pack reads the kernel's mask of the cards each
    seat has played: for a seat passed to a function, for nobody (-1) and under `not`, every
    payment agrees with the step engine's (tests/fixtures/taroky-played.yaml). Its payments
    are of each form the kernel makes: of payer and payee, of the payee alone (through a
    function too), of the payer alone, of neither."""
    agree(tmp_path, str(FIXTURES / "taroky-played.yaml"), "random")


@pytest.mark.parametrize("name", ["allfives", "taroky"])
def test_a_strategys_played_by_in_a_count_is_the_seats_view(tmp_path, name):
    """A strategy's `played_by` is what the seat has seen played (a lay counts), not the
    kernel's record of trick plays: a count over it through a function, for a seat given as a
    constant, chooses as the Python agent does (its kernel looks at each piece); and a
    strategy's function of the piece in a count is read with the strategy's names."""
    kind, attr = ("lay", "a.piece.pips") if name == "allfives" else ("play", "a.piece.rank")
    f = tmp_path / "played.yaml"
    f.write_text(f"""name: played-probe
functions:
  "by_seat(t: tile, s: int)": "played_by(t) == s"
  "was_played(t: tile)": "t in played"
values:
  firsts: "count(t in pieces if by_seat(t, 0))"
  seen: "count(t in pieces if was_played(t))"
play:
  - name: by_what_seat_0_played
    only: "a.kind == '{kind}'"
    choose: "((firsts % 3) - 1) * {attr} + ((seen % 5) - 2) * rank(a.piece)"
""", encoding="utf-8")
    agree(tmp_path, name, f"rules:strategy={f}")


def test_a_strategys_functions_kept_for_a_decision_agree(tmp_path):
    """A strategy's function of numbers whose kernel code loops over pieces is kept for the
    decision by its arguments, in eight entries found by them (batch/strategy.py): arguments
    that share an entry (x and x + 8), of one and of two parameters, asked again in the same
    decision and at the next decisions (the hand changed: a kept value of the last decision is
    never read), choose as the Python agent does at every decision of 200 Moon hands."""
    f = tmp_path / "kept.yaml"
    f.write_text("""name: kept-probe
functions:
  "above(x: int)": "count(t in hand if t.high + t.low >= x) + sum(t.high for t in hand if t.low * 3 > x)"
  "both(x: int, y: int)": "sum(t.high * x + t.low * y for t in hand if t.high >= y % 7)"
values:
  spread: >-
    sum(above(x) * (x + 1) for x in range(0, 16)) + sum(above(15 - x) * x for x in range(0, 16))
    + both(len(hand), stock_size) + both(len(hand) + 8, stock_size + 8) + both(len(hand), 8)
bid:
  - name: bid_by_the_spread
    only: "a.kind == 'bid'"
    choose: "((spread % 7) - 3) * a.bid.rank + above(a.bid.rank % 16)"
bury:
  - name: bury_by_the_spread
    only: "a.kind == 'bury'"
    choose: "((spread % 5) - 2) * a.piece.pips + above(a.piece.pips + 8) - both(a.piece.high, 1)"
declare:
  - name: trump_by_the_spread
    only: "a.declares == 'trump'"
    choose: "(spread + (5 if a.value == 'doubles' else 0)) % (3 + len(hand))"
play:
  - name: play_by_the_spread
    only: "a.kind == 'play'"
    choose: "((spread % 7) - 3) * a.piece.pips + above(a.piece.high) * (spread % 3) - both(a.piece.low, a.piece.high)"
""", encoding="utf-8")
    agree(tmp_path, "moon", f"rules:strategy={f}")


def test_sums_and_counts_over_a_hand_made_tables_agree(tmp_path):
    """A count or a sum over a mask's pieces whose term reads only the piece and at most one
    variable of a small domain is looked up in a table of each byte's sum, made at build time
    (batch/typed.py, `Gen.tabulated`): with no variable, with a number inside and outside the
    table (-1 to 9 against the pips 0 to 6: outside, the loop), with a truth, and with a term
    that fails for a piece the mask leaves out (60 // low for 0-0; 60 // (other(t, x) + 1)
    for a piece not showing x, one table read by two loops, each made to loop: no table).
    Each is made (the kernel's source says which) and chooses as the Python agent does at
    every decision of 200 Moon hands."""
    f = tmp_path / "tab.yaml"
    f.write_text("""name: tabulated-probe
functions:
  "showing(x: int)": "sum(other(t, x) + 2 for t in hand if has(t, x))"
  "split(p: bool)": "count(t in hand if (t.high > 3) == p)"
  "risky(x: int)": "sum(60 // (other(t, x) + 1) for t in hand if has(t, x))"
  "risky_unseen(x: int)": "sum(60 // (other(t, x) + 1) for t in unseen if has(t, x))"
values:
  whole: "sum(t.pips * 3 + t.high for t in hand)"
  guarded: "sum(60 // t.low for t in hand if t.low > 0) + sum(risky(x) * (x + 1) + risky_unseen(x) for x in range(0, 7))"
  shown: "sum(showing(x) * (x + 2) for x in range(-1, 10))"
bid:
  - name: bid_by_the_terms
    only: "a.kind == 'bid'"
    choose: "(((whole + guarded + shown) % 7) - 3) * a.bid.rank + split(a.bid.rank % 2 == 0)"
bury:
  - name: bury_by_the_terms
    only: "a.kind == 'bury'"
    choose: "(((shown + guarded) % 5) - 2) * a.piece.pips - split(true)"
declare:
  - name: trump_by_the_terms
    only: "a.declares == 'trump'"
    choose: "(shown + whole + (5 if a.value == 'doubles' else 0)) % (3 + len(hand))"
play:
  - name: play_by_the_terms
    only: "a.kind == 'play'"
    choose: "((shown % 7) - 3) * a.piece.pips + guarded % 3 - split(a.piece.double)"
""", encoding="utf-8")
    src = kernel_source("moon", f)
    looks = re.findall(r"    if (.+):\n        return (_x\d+)\[", src)
    made = {f"_x{k}": on == "1" for k, on in re.findall(r"^X(\d+)_ON = (\d)$", src, re.M)}
    # each table's flag says whether it was made: a guard is the flag and the test of the value
    tests = sorted("False" if not made[x] else
                   re.sub(r"_b\d+", "x", re.sub(rf"^X{x[2:]}_ON( and )?", "", t)) or "True"
                   for t, x in looks)
    assert tests == ["False", "False", "False", "True", "True", "x >= 0 and x < 7"], tests
    agree(tmp_path, "moon", f"rules:strategy={f}")


def test_functions_of_a_piece_made_tables_agree(tmp_path):
    """A strategy's function of a piece and at most one value of a small domain, whose body
    reads nothing of the state and tests or calls something, is a look-up in a table made at
    build time from its body (batch/typed.py, `Unit.tabulated_function`): of a piece and a
    number (asked inside and outside the pips 0 to 6: outside, the body), of a piece and a
    truth, of a piece alone; one whose body fails for some piece and number (60 // x at x = 0)
    gets no table (its flag 0: the body, which the rules never ask at 0); one that reads the
    hand, and one of look-ups and arithmetic only, are left as they were. Each chooses as the
    Python agent does at every decision of 200 Moon hands."""
    f = tmp_path / "fn.yaml"
    f.write_text("""name: function-table-probe
functions:
  "lv(t: tile, x: int)": "2 * t.high if t.double else other(t, x)"
  "odd(t: tile, p: bool)": "(t.high if p else t.low) % 2 == 1"
  "alone(t: tile)": "t.high * 3 if t.double else t.low + 1"
  "fails(t: tile, x: int)": "60 // (other(t, x) + 1) if has(t, x) else 60 // x"
  "mine(t: tile)": "count(u in hand if u.high == t.high) if t.double else 0"
  "plain(t: tile)": "t.pips * 2 + 1"
values:
  some: "sum(lv(t, 4) + (3 if odd(t, false) else 0) for t in hand)"
bid:
  - name: bid_by_the_tables
    only: "a.kind == 'bid'"
    choose: "((some % 5) - 2) * a.bid.rank"
bury:
  - name: bury_by_the_tables
    only: "a.kind == 'bury'"
    choose: "lv(a.piece, 2) * 3 - alone(a.piece) + mine(a.piece)"
play:
  - name: play_by_the_tables
    only: "a.kind == 'play'"
    choose: >-
      (lv(a.piece, 3) * 7 + lv(a.piece, 9) + lv(a.piece, -1) + (5 if odd(a.piece, true) else 0)
       + alone(a.piece) + sum(fails(a.piece, x) for x in range(1, 7)) - mine(a.piece)
       + plain(a.piece) + some) % 11
""", encoding="utf-8")
    src = kernel_source("moon", f)
    made = {f"_y{k}": on == "1" for k, on in re.findall(r"^Y(\d+)_ON = (\d)$", src, re.M)}
    looks = re.findall(r"    if Y\d+_ON and (.+):\n        return (_y\d+)(\[.*)$", src, re.M)
    # each table's guard (the piece in the set, the value in the domain) and read
    got = sorted((made[y], re.sub(r"_b\d+", "v", g), re.sub(r"_b\d+", "v", r))
                 for g, y, r in looks)
    assert got == [(False, "v >= 0 and v < 22 and v >= 0 and v < 7", "[v, v]"),
                   (True, "v >= 0 and v < 22", "[(1 if v else 0), v] != 0"),
                   (True, "v >= 0 and v < 22", "[0, v]"),
                   (True, "v >= 0 and v < 22 and v >= 0 and v < 7", "[v, v]")], got
    agree(tmp_path, "moon", f"rules:strategy={f}")


def test_functions_of_a_card_made_tables_agree(tmp_path):
    """The same for a pack of cards (Taroky's 54): a function of a card and a truth, and one of
    a card alone, each a table (flag 1), and 200 hands choosing as the Python agent does."""
    f = tmp_path / "cards.yaml"
    f.write_text("""name: card-table-probe
functions:
  "heavy(t: tile, p: bool)": "t.count * 3 if t.trump == p else t.rank + 1"
  "alone(t: tile)": "t.count * 10 if t.trul else t.rank"
play:
  - name: play_by_the_tables
    only: "a.kind == 'play'"
    choose: >-
      (heavy(a.piece, true) * 7 + alone(a.piece) + (2 if heavy(a.piece, false) > 4 else 0)) % 13
""", encoding="utf-8")
    src = kernel_source("taroky", f)
    assert sorted(re.findall(r"^Y\d+_ON = (\d)$", src, re.M)) == ["1", "1"]
    looks = re.findall(r"    if Y\d+_ON and (.+):\n        return _y\d+(\[.*)$", src, re.M)
    assert sorted((re.sub(r"_b\d+", "v", g), re.sub(r"_b\d+", "v", r)) for g, r in looks) == [
        ("v >= 0 and v < 54", "[(1 if v else 0), v]"),
        ("v >= 0 and v < 54", "[0, v]")], looks
    agree(tmp_path, "taroky", f"rules:strategy={f}")


def test_a_rulesets_function_of_a_piece_made_a_table_agrees(tmp_path):
    """The same for a ruleset's own function (batch/typed.py, `Unit.user`): All Fives with its
    first leader turned by `worth(t, x)`, a piece's worth laid on x, summed over the pieces
    dealt: the kernel reads it from a table (made, its flag 1), and every one of 200 hands of
    random play agrees with the step engine."""
    from tablerules.batch.kernel import Builder
    from tablerules.batch.loader import seat_agents
    from tablerules.game import load_game

    text = (Path(__file__).resolve().parents[2] / "rulesets" / "allfives.yaml").read_text(
        encoding="utf-8")
    old = "      leader: >-\n        next(dealer) if first_play == 'rotate'"
    assert text.count(old) == 1 and text.count("functions:\n") == 1
    text = text.replace(old, "      leader: >-\n        next(next(dealer)) if "
                             "sum(worth(t, 3) for t in dealt) % 3 == 0 else next(dealer) "
                             "if first_play == 'rotate'")
    text = text.replace("functions:\n", 'functions:\n  "worth(t: tile, x: int)": '
                                         '"2 * t.high if t.double else other(t, x)"\n')
    f = tmp_path / "worth.yaml"
    f.write_text(text, encoding="utf-8")
    gd = load_game(str(f), typed=True).definition
    src = Builder(gd, seat_agents(gd, None)).build()
    assert re.findall(r"^Y\d+_ON = (\d)$", src, re.M) == ["1"], src[:300]
    assert re.search(r"    if Y\d+_ON and _b\d+ >= 0 and _b\d+ < 28 and _b\d+ >= 0 and "
                     r"_b\d+ < 7:\n        return _y\d+\[_b\d+, _b\d+\]", src)
    agree(tmp_path, str(f), "random")


@pytest.mark.parametrize("name, attr, trump, guard", [
    ("moon", "a.piece.pips", "trump", "trump != 'none'"),
    ("texas42", "a.piece.pips", "trump", "trump != 'none'"),
    ("taroky", "a.piece.rank", "'tarok'", "seat != dealer")])  # its trump suit is no declaration
def test_tests_of_a_pieces_suit_are_masks_that_agree(tmp_path, name, attr, trump, guard):
    """`suit(t) == x` of a piece in a count, and a strategy's truth of one piece made of such
    tests and of the state's own slots (`is_trump(t)`), are masks in the kernel, worked out once
    a decision (batch/strategy.py: `_k_obs_suitm`, and `_as_mask`, set before the rules), not a
    test a piece: with x the trump (a number, a symbol, none, follow-me), the suit led (-1
    before a lead, and in the auction, where every piece's suit is -1 too), numbers past the
    suits and a symbol no suit is; `!=`; under a guard of the state's slots; and a test that
    reads a function (`len(hand)`), which stays a test a piece. Each chooses as the Python
    agent does at every decision of 200 hands, and the kernel's source shows the masks made."""
    f = tmp_path / "suits.yaml"
    f.write_text(f"""name: suit-probe
functions:
  "trumps(t: tile)": "{guard} and suit(t) == {trump}"
  "off_led(t: tile)": "not leading and suit(t) != led"
  "of(x: scalar)": "count(t in hand if suit(t) == x)"
values:
  mix: >-
    count(t in unseen if trumps(t)) * 3 + count(t in hand if suit(t) == led) * 5
    + sum(of(x) * (x + 2) for x in range(-1, 9)) + 7 * of('hearts') + 11 * of('nothing')
    + 13 * count(t in hand if suit(t) != {trump}) + 17 * count(t in hand if suit(t) == len(hand))
    + 19 * count(t in trick if off_led(t))
bid:
  - name: bid_by_the_suits
    only: "a.kind == 'bid'"
    choose: "((mix % 5) - 2) * a.bid.rank"
play:
  - name: by_the_suits
    only: "a.kind == 'play'"
    choose: >-
      ((mix % 7) - 3) * {attr} + (9 if trumps(a.piece) else 0) * ((mix % 3) - 1)
      + (4 if off_led(a.piece) else 0) * ((mix % 5) - 2)
""", encoding="utf-8")
    src = kernel_source(name, f)
    # every suit test but the one of len(hand) is a mask; the two truths of one piece are bits
    assert len(re.findall(r"_k_obs_suitm\(S, (?!x\))", src)) == 5
    assert len(re.findall(r"_k_obs_suit\(S, _b\d+\) == _popcount", src)) == 1
    assert len(re.findall(r"    return \(S\[KEEP \+ \d+\] >> _b\d+\) & 1 == 1\n", src)) == 2
    # each mask set once a decision, before the rules, and read as a slot by the counts
    # (in `_k_rules`, where the decision function is written in)
    set_at = re.search(r"( +)_k_obs_prep\(S, H, acts, n\)\n((?:\1S\[KEEP \+ \d+\] = .*\n)*)"
                       r"\1sec = ", src)
    assert set_at is not None and set_at.group(2).count("\n") == 2, src
    agree(tmp_path, name, f"rules:strategy={f}")


def test_the_lowest_number_of_the_highest_value_is_one_loop_that_agrees(tmp_path):
    """`min(x for x in R if f(x) == peak)` with the strategy value `peak` the `max(f(y) for y in
    R)` of the same R and f (the lowest suit of the best strength) is one loop in the kernel
    that finds both (batch/strategy.py `_arg_best`): min and max either way round, `peak` on
    either side of the `==`, another variable's name, a list of numbers out of order and with
    one twice, `peak` read before and after, and with another R (not the same loop: two, as
    written). Each chooses as the Python agent does at every decision of 200 Moon hands, whose
    ties are many (f halves a count)."""
    f = tmp_path / "best.yaml"
    f.write_text("""name: best-probe
functions:
  "f(x: int)": "count(t in hand if has(t, x % 7)) // 2 + (1 if x == 8 else 0)"
  "g(x: int)": "sum(t.high for t in hand if has(t, x)) % 4"
values:
  peak: "max(f(y) for y in range(0, 9))"
  lowest: "min(x for x in range(0, 9) if f(x) == peak)"
  highest: "max(z for z in range(0, 9) if peak == f(z))"
  least: "min(g(x) for x in [3, 1, 4, 1, 5])"
  last: "max(x for x in [3, 1, 4, 1, 5] if g(x) == least)"
  first: "min(x for x in [3, 1, 4, 1, 5] if g(x) == least)"
  apart: "min(x for x in range(1, 9) if f(x) == peak)"
  mix: "peak * 11 + lowest * 7 + highest * 5 + least * 3 + last * 2 + first + apart * 13 + peak"
bid:
  - name: bid_by_the_best
    only: "a.kind == 'bid'"
    choose: "((mix % 5) - 2) * a.bid.rank + lowest * highest"
bury:
  - name: bury_by_the_best
    only: "a.kind == 'bury'"
    choose: "((mix % 3) - 1) * a.piece.pips + (9 if has(a.piece, lowest) else 0)"
declare:
  - name: trump_by_the_best
    only: "a.declares == 'trump'"
    choose: "(mix + (5 if a.value == 'doubles' else 0)) % (3 + last)"
play:
  - name: play_by_the_best
    only: "a.kind == 'play'"
    choose: "((mix % 7) - 3) * a.piece.pips + (4 if has(a.piece, highest % 7) else 0) * (first - 2)"
""", encoding="utf-8")
    src = kernel_source("moon", f)
    # lowest, highest, last and first each one loop that keeps its best; apart two loops
    assert src.count("        elif v == acc and ") == 4
    assert len(re.findall(r"and _b\d+ < _b\d+:", src)) == 2
    assert len(re.findall(r"if not \(\(_u\d+\(S, H, _b\d+\) == ", src)) == 1
    agree(tmp_path, "moon", f"rules:strategy={f}")


CARD_PROBE = """name: card-probe
play:
  - name: by_card
    only: "a.kind == 'play' and card(a.piece.suit, a.piece.face) == a.piece"
    choose: >-
      (card(a.piece.suit, a.piece.face).rank * 7
       + (played_by(card('tarok', 'I')) + 2) * (3 if not a.piece.trump and card(a.piece.suit, 'K') in hand else 1)) % 11
"""


def test_card_names_every_card_of_the_pack_as_the_step_engine_does(tmp_path):
    """`card(suit, face)` is one look-up in the kernel (CARD_AT, made from the pack): a strategy
    that names each card it may play by its own suit and face, and the King of its suit, plays
    200 Taroky hands choosing as the Python agent does; a table one card off changes choices."""
    f = tmp_path / "cards.yaml"
    f.write_text(CARD_PROBE, encoding="utf-8")
    assert "CARD_AT = np.array(" in kernel_source("taroky", f)
    agree(tmp_path, "taroky", f"rules:strategy={f}")


def test_a_card_no_pack_has_stops_the_batch_engine_with_its_reason(tmp_path):
    """A face no suit card has (`card(suit, 'XXI')` of a suit card) is an error of the strategy in both
    engines: the batch engine stops, says why and where to look, with no traceback."""
    f = tmp_path / "nocard.yaml"
    f.write_text(CARD_PROBE.replace("card(a.piece.suit, 'K')", "card(a.piece.suit, 'XXI')"),
                 encoding="utf-8")
    r = plain_python(["-m", "tablerules", "batch", "taroky", "--agents", f"rules:strategy={f}",
                      "-n", "20", "--no-progress"], tmp_path)
    assert r.returncode != 0
    assert "there is no such card in this pack" in r.stderr, r.stderr[-2000:]
    assert "Traceback" not in r.stderr


def test_a_part_several_rules_keep_is_kept_once():
    """A part kept for a pass (its value and flag in a slot of S, cleared as each pass starts)
    is one slot however many rules read it: Taroky's `against_call(hand)`, asked by the
    `allow` of every contra and re-contra, is worked out once in a declaration's pass over its
    choices, and no two kept parts of the kernel work out the same thing."""
    from tablerules.batch.kernel import Builder
    from tablerules.batch.loader import seat_agents
    from tablerules.game import load_game

    gd = load_game("taroky", typed=True).definition
    src = Builder(gd, seat_agents(gd, None)).build()
    kept = re.findall(r"^def (_c\d+)\(S, H\):\n    if S\[KEEP \+ (\d+)\]:\n"
                      r"        return S\[KEEP \+ \d+\]\n    v = (.*)$", src, re.M)
    bodies = [body for _, _, body in kept]
    assert len(bodies) == len(set(bodies)) >= 2, kept
    # each allow reads its kept parts through their flags: one slot for the repeated part
    reads = re.findall(r"\(S\[KEEP \+ (\d+)\] if S\[KEEP \+ (\d+)\] else (_c\d+)\(S, H\)\)", src)
    by_fn = {fn: {flag for _, flag, f in reads if f == fn} for _, _, fn in reads}
    assert all(len(flags) == 1 for flags in by_fn.values()), by_fn
    assert max(sum(f == fn for _, _, f in reads) for fn in by_fn) >= 4, reads
    assert re.search(r"^NKEEP = (\d+)$", src, re.M).group(1) == str(len(kept))
