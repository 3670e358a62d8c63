"""`tablerules compare`: paired deals, seats swapped, the first dealer rotating, intervals."""

from __future__ import annotations

import json
import re

import pytest

from tablerules.game import load_game
from tablerules.records import compare as cmp
from tablerules.records.runner import wilson

from support import cli


def _config(label, ruleset, agents, options=None):
    game = load_game(ruleset, options)
    return cmp.Config(label, game, [agents] * game.definition.seat_count)


@pytest.fixture
def games_played(monkeypatch):
    """Every game compare plays: (deal index, first dealer, agents by seat, deals (dealer,
    hands, stock), winners)."""
    played = []
    real = cmp.play_game

    def spy(game, agents, seed, index, **kw):
        deals = []
        emit = kw.get("emit")  # compare builds no record: the spy asks for the deal lines

        def both(ev):
            if ev["type"] == "deal":
                deals.append((ev["dealer"], ev["dealt"], ev.get("stock")))
            if emit is not None:
                emit(ev)
        kw["emit"] = both
        kw["record"] = True
        st = real(game, agents, seed, index, **kw)
        played.append({"index": index, "first_dealer": kw["first_dealer"], "agents": list(agents),
                       "deals": deals, "winners": list(st.winner_sides), "ruleset": game.name})
        return st

    monkeypatch.setattr(cmp, "play_game", spy)
    return played


def test_every_deal_is_played_with_the_sides_swapped(games_played):
    a, b = _config("A", "texas42", "cautious"), _config("B", "texas42", "random")
    res = cmp.compare(a, b, games=8, seed=3)
    assert res.mode == "match" and res.deals == 4 and res.games == 8 == len(games_played)
    for d in range(4):
        first, second = [g for g in games_played if g["index"] == d]
        # the same hands dealt (every hand both games reach), the same first dealer, rotating
        n = min(len(first["deals"]), len(second["deals"]))
        assert n >= 1 and first["deals"][:n] == second["deals"][:n]
        assert first["first_dealer"] == second["first_dealer"] == d % 4
        assert first["deals"][0][0] == d % 4
        # A (cautious) on side 0 then side 1: seats 0, 2 then 1, 3
        assert first["agents"] == ["cautious", "random", "cautious", "random"]
        assert second["agents"] == ["random", "cautious", "random", "cautious"]
    assert res.a_wins + res.b_wins + res.draws == 8


def test_a_against_itself_wins_exactly_half():
    for ruleset, agents in (("texas42", "random"), ("allfives", "random")):
        a, b = _config("A", ruleset, agents), _config("B", ruleset, agents)
        res = cmp.compare(a, b, games=12, seed=1)
        assert res.games == 12 and res.a_wins == res.b_wins and res.a_score() == 6
        assert res.verdict().startswith("A wins 50.0% of games, 95% CI ")


def test_more_than_two_sides_put_a_on_each_side_in_turn(games_played):
    a, b = _config("A", "moon", "cautious"), _config("B", "moon", "cautious:pass_rate=0.9")
    res = cmp.compare(a, b, games=3, seed=0)
    assert res.games == 3 and res.as_dict()["result"]["even"] == round(1 / 3, 4)
    assert [g["agents"].index("cautious") for g in games_played] == [0, 1, 2]
    assert all(g["agents"].count("cautious") == 1 for g in games_played)
    same = cmp.compare(a, _config("B", "moon", "cautious"), games=6, seed=0)
    assert same.a_score() == 2  # a third of 6: each deal goes the same way three times


def test_different_options_play_the_same_deals_separately(games_played):
    a = _config("A", "texas42", "random")
    b = _config("B", "texas42", "random", {"min_bid": 31})
    res = cmp.compare(a, b, games=3, seed=2)
    assert res.mode == "separate" and res.played == {"A": 3, "B": 3}
    by_deal = {}
    for g in games_played:
        by_deal.setdefault(g["index"], []).append(g)
    for d, (ga, gb) in by_deal.items():
        assert ga["ruleset"] == "texas42" and gb["ruleset"] == "texas42(min_bid=31)"
        assert ga["deals"][0] == gb["deals"][0] and ga["first_dealer"] == d % 4
    assert res.differences() == ["option min_bid: 30 vs 31"]


def test_an_option_that_orders_a_suit_otherwise_deals_the_same_cards(games_played):
    # Taroky's red_pips orders the red suits' pips otherwise, so the pack's cards are numbered
    # otherwise: the same 54 cards, which B is dealt as A is, card for card
    a = _config("A", "taroky", "random")
    b = _config("B", "taroky", "random", {"red_pips": "plain"})
    res = cmp.compare(a, b, games=2, seed=4)
    assert res.mode == "separate" and res.played == {"A": 2, "B": 2}
    for d in range(2):
        ga, gb = [g for g in games_played if g["index"] == d]
        assert gb["ruleset"] == "taroky(red_pips=plain)"
        (dealer_a, hands_a, stock_a), (dealer_b, hands_b, stock_b) = ga["deals"][0], gb["deals"][0]
        assert dealer_a == dealer_b == d % 4
        assert [sorted(h) for h in hands_a] == [sorted(h) for h in hands_b]
        assert stock_a == stock_b and len(stock_a) == 6  # in the order it lies


def test_compare_runs_an_option_that_orders_a_suit_otherwise():
    r = cli("compare", "taroky", "--vs", "-o", "red_pips=plain", "--games", "2", "--no-progress")
    assert r.exit_code == 0, r.output
    assert "option red_pips: reversed vs plain" in r.stdout
    # the batch engine deals piece numbers: refused before any kernel is compiled, and said why
    r = cli("compare", "taroky", "--vs", "-o", "red_pips=plain", "--games", "2", "--engine",
            "batch")
    assert r.exit_code == 2 and r.stdout == "", r.output
    assert r.stderr == (
        "error: A (taroky) and B (taroky(red_pips=plain)) deal the same 54 pieces, numbered in "
        "another order (a suit's ranks ordered otherwise): the batch engine deals piece numbers, "
        "so it cannot pair their deals; compare them without --engine batch\n")


def test_a_game_whose_sides_lose_what_others_gain_reports_what_was_gained():
    # Taroky's sides settle in chips: what one side scores in a hand the others lose, so each
    # one's sides together score 0 and "scored 0.000 per hand per side" said nothing. Said as
    # simulate says it: what the sides above 0 gained, and the others lost
    r = cli("compare", "taroky", "--vs", "-o", "counting=czech", "--games", "4", "--seed", "2",
            "--no-progress", "--format", "json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    text = cli("compare", "taroky", "--vs", "-o", "counting=czech", "--games", "4", "--seed",
               "2", "--no-progress").stdout
    assert "per hand per side" not in text and "scores 0.000" not in text
    for k in ("A", "B"):
        st = d[f"{k.lower()}_stats"]
        assert st["scored_per_hand"] == 0 and st["gained_per_hand"] > 0
        assert st["lost_per_hand"] == st["gained_per_hand"]  # chips: what is won is paid
        assert (f"{k}: {st['hands']} hands played, scored {st['gained_per_hand']:.3f} per hand "
                "gained by the sides that scored above 0, "
                f"{st['lost_per_hand']:.3f} lost by the others") in text.splitlines()
    assert d["verdict"].startswith(
        f"A's sides above 0 gain {d['a_stats']['gained_per_hand']:.3f} per hand, B's "
        f"{d['b_stats']['gained_per_hand']:.3f}; A makes ")
    assert text.rstrip().endswith(d["verdict"])


def test_agents_by_seat_are_swapped_round_in_a_separate_comparison(games_played):
    game = load_game("texas42")
    a = cmp.Config("A", game, ["cautious", "random", "cautious", "random"])
    b = cmp.Config("B", load_game("texas42", {"min_bid": 31}), ["random"] * 4)
    res = cmp.compare(a, b, games=2, seed=0)
    assert res.played == {"A": 2, "B": 1}  # B sits one way: its game of the deal once
    assert [g["agents"] for g in games_played if g["ruleset"] == "texas42"] == [
        ["cautious", "random", "cautious", "random"], ["random", "cautious", "random", "cautious"]]


@pytest.mark.parametrize("k, n, lo, hi", [(5, 10, 0.2366, 0.7634), (0, 10, 0.0, 0.2775),
                                          (10, 10, 0.7225, 1.0), (2324, 4000, 0.5656, 0.5962),
                                          (1, 1, 0.2065, 1.0)])
def test_wilson_intervals_match_known_values(k, n, lo, hi):
    a, b = wilson(k, n)
    assert (round(a, 4), round(b, 4)) == (lo, hi)
    assert wilson(0, 0) is None


def test_the_json_report(tmp_path):
    r = cli("compare", "texas42", "--agents", "cautious", "--vs", "--agents", "random",
            "--games", "6", "--seed", "4", "--format", "json", "--no-progress")
    assert r.exit_code == 0, r.stderr
    d = json.loads(r.stdout)
    assert set(d) == {"mode", "seed", "deals", "games", "sides", "first_dealer", "a", "b",
                      "differences", "interval", "result", "a_stats", "b_stats", "verdict"}
    assert d["mode"] == "match" and d["games"] == 6 and d["deals"] == 3 and d["sides"] == 2
    assert d["a"]["agents"] == ["cautious"] * 4 and d["b"]["agents"] == ["random"] * 4
    res = d["result"]
    assert res["a_wins"] + res["b_wins"] + res["draws"] == 6
    assert res["a_win_rate"] == round((res["a_wins"] + res["draws"] / 2) / 6, 4)
    assert res["ci"] == [round(x, 4) for x in wilson(res["a_wins"] + res["draws"] / 2, 6)]
    for side in ("a_stats", "b_stats"):
        st = d[side]
        assert set(st) == {"hands", "thrown_in", "scored_per_hand", "make_rate",
                           "make_rate_by_contract", "make_rate_by_bid", "never_bid"}
        # cautious and random seats may bid anything
        assert st["never_bid"] == {"contracts": [], "strategies": []}
        m = st["make_rate"]
        assert m["hands"] == sum(v["hands"] for v in st["make_rate_by_bid"].values()) \
            == sum(v["hands"] for v in st["make_rate_by_contract"].values())
        for v in [m, *st["make_rate_by_bid"].values()]:
            assert v["set_rate"] == round(1 - v["rate"], 4)
            assert v["ci"][0] <= v["rate"] <= v["ci"][1]


def test_the_verdict_line_and_determinism():
    args = ("compare", "texas42", "--agents", "cautious", "--vs", "--agents", "random",
            "--games", "10", "--seed", "9", "--no-progress")
    r = cli(*args)
    assert r.exit_code == 0, r.stderr
    last = r.stdout.splitlines()[-1]
    assert re.fullmatch(r"A wins \d+\.\d% of games, 95% CI \d+\.\d to \d+\.\d, "
                        r"over 10 paired games", last), last
    assert cli(*args).stdout == r.stdout
    j = cli(*args, "--format", "json").stdout
    assert cli(*args, "--format", "json").stdout == j and json.loads(j)["verdict"] == last
    other = cli(*args[:-2], "--seed", "10", "--no-progress").stdout
    assert other != r.stdout


def test_b_may_name_another_ruleset_and_options_add_to_a():
    r = cli("compare", "texas42", "-o", "min_bid=31", "--vs", "-o", "marks_to_win=5",
            "--games", "2", "--no-progress", "--format", "json")
    assert r.exit_code == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["mode"] == "separate"
    assert d["a"]["ruleset"] == "texas42(min_bid=31)"
    assert d["b"]["ruleset"] == "texas42(marks_to_win=5, min_bid=31)"
    assert d["differences"] == ["option marks_to_win: 7 vs 5"]
    r = cli("compare", "texas42", "--vs", "texas42-quick", "--games", "2", "--no-progress")
    assert r.exit_code == 0, r.stderr
    assert "ruleset: texas42 vs texas42-quick" in r.stdout
    assert "over the same 2 deals (2 games each)" in r.stdout.splitlines()[-1]


@pytest.mark.parametrize("args, message", [
    ([], "compare needs --vs once"),
    (["--vs", "--vs"], "--vs is given twice"),
    (["--vs", "--agents"], "--agents needs a value"),
    (["--agents", "random", "--agents", "random", "--vs"], "--agents is given twice for A"),
    (["--vs", "--frobnicate"], "unexpected '--frobnicate' in B's options"),
    (["extra", "--vs"], "unexpected 'extra' in A's options"),
    (["--vs", "--agents", "nobody"], "unknown agent 'nobody'"),
    (["--vs", "-o", "min_bd=31"], "unknown option 'min_bd'"),
    (["--vs", "--format", "xml"], "--format is text or json"),
])
def test_usage_errors_exit_2(args, message):
    r = cli("compare", "texas42", "--games", "2", "--no-progress", *args)
    assert r.exit_code == 2 and message in r.stderr and r.stdout == "", r.stderr


@pytest.mark.parametrize("b, options, said", [
    ("moon", [], "A deals 4 seats, 7 pieces each, of a set of 28, B 3 seats, 7 pieces each and "
                 "a stock of 1, of a set of 22"),
    ("allfives", ["-o", "players=3"], "A deals 4 seats, 7 pieces each, of a set of 28, B 3 "
                                      "seats, 7 pieces each and a stock of 7, of a set of 28"),
])
def test_a_and_b_that_cannot_share_deals_are_refused(b, options, said):
    # compare is about paired deals: "over the same 4 deals" would not be true (exit 2, before
    # any game, for either engine)
    for engine in ("step", "batch"):
        r = cli("compare", "texas42", "--vs", b, *options, "--games", "4", "--engine", engine)
        assert r.exit_code == 2 and r.stdout == "", r.output
        assert r.stderr == (f"error: A (texas42) and B ({b}{'(players=3)' if options else ''}) "
                            f"cannot be dealt the same hands: {said}; compare plays both on the "
                            "same deals, so A and B must deal the same pieces to the same "
                            "seats\n")


def test_the_differences_are_written_as_a_ruleset_writes_them():
    r = cli("compare", "texas42", "--vs", "texas42-tournament", "--games", "1", "--no-progress")
    assert r.exit_code == 0, r.stderr
    differ = next(ln for ln in r.stdout.splitlines() if ln.startswith("differ"))
    assert differ.endswith("option nello: true vs false; option sevens: true vs false")
    assert "True" not in r.stdout and "False" not in r.stdout


def test_a_ruleset_error_exits_1():
    r = cli("compare", "texas42", "--vs", "no-such-ruleset", "--games", "2")
    assert r.exit_code == 1 and "no built-in ruleset named 'no-such-ruleset'" in r.stderr


def test_ctrl_c_reports_the_whole_deals_that_finished(monkeypatch):
    real = cmp.play_game
    calls = [0]

    def interrupted(*a, **kw):
        calls[0] += 1
        if calls[0] == 6:  # the second game of the third deal
            raise KeyboardInterrupt
        return real(*a, **kw)

    monkeypatch.setattr(cmp, "play_game", interrupted)
    r = cli("compare", "texas42", "--vs", "--agents", "cautious", "--games", "20",
            "--no-progress", "--format", "json")
    assert r.exit_code == 130
    d = json.loads(r.stdout)
    assert d["interrupted"] is True and d["deals"] == 2 and d["games"] == 4
    assert "interrupted after 2 whole deals" in r.stderr


def test_the_text_report(snapshot):
    """The report as a reader sees it (compare pins the first dealer, so `deal.first_dealer`
    does not change it)."""
    r = cli("compare", "texas42", "--agents", "cautious", "--vs", "--agents", "random",
            "--games", "4", "--seed", "1", "--no-progress")
    assert r.exit_code == 0, r.stderr
    assert r.stdout == snapshot
    r = cli("compare", "texas42", "--vs", "-o", "min_bid=31", "--games", "2", "--seed", "1",
            "--no-progress")
    assert r.exit_code == 0, r.stderr
    assert r.stdout == snapshot


def test_another_ruleset_for_b_takes_only_the_options_after_vs(tmp_path):
    """As --help and the README say: B's options are added to A's when B plays A's ruleset;
    another ruleset (a house file) takes only those given after --vs."""
    house = tmp_path / "house.yaml"
    house.write_text("name: house\ntitle: t\nextends: texas42\nset:\n  min_bid: 32\n",
                     encoding="utf-8")
    d = json.loads(cli("compare", "texas42", "-o", "marks_to_win=5", "--vs", str(house),
                       "-o", "sevens=false", "-n", "1", "-f", "json").stdout)
    assert d["b"]["ruleset"] == "house(sevens=false)"
    assert d["differences"] == ["ruleset: texas42(marks_to_win=5) vs house(sevens=false)",
                                "option marks_to_win: 5 vs 7", "option min_bid: 30 vs 32",
                                "option sevens: true vs false"]


def test_the_deals_thrown_in_are_said_as_simulate_says_them(tmp_path):
    """A house rule that throws in the deal when everybody passes: simulate's summary says how
    many deals were thrown in, compare's JSON counted them (thrown_in), and its text and report
    said nothing of them (109 of B's 176 deals, with 6 games)."""
    path = tmp_path / "r.html"
    args = ("compare", "texas42", "--vs", "-o", "all_pass=reshuffle", "-n", "2", "--seed", "1",
            "--no-progress")
    d = json.loads(cli(*args, "-f", "json").stdout)
    ta, tb = d["a_stats"], d["b_stats"]
    assert ta["thrown_in"] == 0 and tb["thrown_in"] > 1
    r = cli(*args, "--report", str(path))
    assert r.exit_code == 0, r.stderr
    assert f"\nA: {ta['hands']} hands played, scored " in r.stdout
    assert (f"\nB: {tb['hands']} hands played; {tb['thrown_in']} more deals thrown in (everybody "
            "passed); scored ") in r.stdout
    html = path.read_text(encoding="utf-8")
    assert '<th class="d">deals thrown in</th>' in html
    assert f'<td class="dealsthrown">{tb["thrown_in"]}</td>' in html


def test_at_a_table_of_three_sides_b_scores_per_side_it_held():
    """With more than two sides B holds several at each game (Moon: A's agents on one side,
    B's on the other two) and its score is the mean over them: 'per hand by its side' said one
    side; the line and the report's column say 'per side it held'."""
    args = ("compare", "moon", "--agents", "rules", "--vs", "--agents", "random", "-n", "3",
            "--seed", "1", "--no-progress")
    d = json.loads(cli(*args, "-f", "json").stdout)
    out = cli(*args).stdout
    for k in ("A", "B"):
        st = d[f"{k.lower()}_stats"]
        line = next(ln for ln in out.splitlines() if ln.startswith(f"{k}: {st['hands']} hands"))
        assert line.endswith(f" scored {st['scored_per_hand']:.3f} per hand per side it held")
    assert "by its side" not in out
    two = cli("compare", "texas42", "--agents", "rules", "--vs", "--agents", "random", "-n", "2",
              "--no-progress").stdout
    assert two.count(" per hand by its side\n") == 2


def test_an_option_written_against_its_flag_is_read_as_simulate_reads_it():
    """`-omin_bid=31`, as simulate takes it: compare said \"--option takes name=value, got 'mi'\"
    (the command line's parser read it as short flags run together, -o, -m, -i, then -n taking
    the rest as --games)."""
    assert "texas42(min_bid=31)" in cli("simulate", "texas42", "-omin_bid=31", "-n", "1").stdout
    r = cli("compare", "texas42", "-omarks_to_win=5", "--vs", "-omin_bid=31", "-n", "1",
            "-f", "json")
    assert r.exit_code == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["a"]["ruleset"] == "texas42(marks_to_win=5)"
    assert d["b"]["ruleset"] == "texas42(marks_to_win=5, min_bid=31)"
    assert d["games"] == 1


def test_one_deal_is_said_in_the_singular():
    r = cli("compare", "texas42", "--vs", "-o", "min_bid=31", "-n", "1", "--no-progress")
    assert r.exit_code == 0, r.stderr
    assert r.stdout.splitlines()[-1].endswith(", over the same 1 deal (1 game each)")
    r = cli("compare", "texas42", "--vs", "-o", "min_bid=31", "-n", "2", "--no-progress")
    assert r.stdout.splitlines()[-1].endswith(", over the same 2 deals (2 games each)")


def test_the_verdict_says_a_score_per_side_as_the_lines_above_it_do(tmp_path):
    """Each one's line says its score 'per hand per side'; the verdict said the same figure
    'per hand' (Texas 42: 'A scores 0.500 per hand', where every hand scores 1 mark or more),
    and with sides of other sizes (All Fives partners against cutthroat) it compared two
    figures per side as if per hand. A side one game does not have has no wins in the report
    ('-', not 0)."""
    path = tmp_path / "r.html"
    r = cli("compare", "allfives", "--vs", "-o", "teams=cutthroat", "-n", "1", "--seed", "1",
            "--no-progress", "--report", str(path))
    assert r.exit_code == 0, r.stderr
    d = json.loads(cli("compare", "allfives", "--vs", "-o", "teams=cutthroat", "-n", "1",
                       "--seed", "1", "-f", "json").stdout)
    a, b = d["a_stats"]["scored_per_hand"], d["b_stats"]["scored_per_hand"]
    assert r.stdout.splitlines()[-1].startswith(f"A scores {a:.3f} per hand per side, B {b:.3f}, ")
    assert d["verdict"] == r.stdout.splitlines()[-1]
    html = path.read_text(encoding="utf-8")
    row = re.search(r'<table id="wins">.*?<tr data-key="2">(.*?)</tr>', html).group(1)
    assert re.findall(r"<td[^>]*>([^<]*)</td>", row) == ["South", "-", str(
        d["wins_by_side"]["B"]["2"])]


@pytest.mark.parametrize("args, whose, seats", [
    (["--agents", "rules,random", "--vs"], "A's", "texas42 has 4"),
    (["--vs", "--agents", "rules,random"], "B's", "texas42 has 4"),
    (["--vs", "moon", "--agents", "rules,random"], "B's", "moon has 3"),
])
def test_a_count_of_agents_that_fits_neither_seat_count_says_whose(args, whose, seats):
    """A's and B's --agents are each checked against their game's seats: the message said
    '--agents names 2 agents' without saying which of the two."""
    r = cli("compare", "texas42", *args, "-n", "1")
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr == (f"error: {whose} --agents names 2 agents; {seats} seats (one agent plays "
                        "every seat, or name one per seat)\n")


def test_with_more_than_two_sides_the_verdict_says_what_even_is():
    """At a table of three sides A's agents sit on one: 33.3% is even. The result line said so
    and the verdict, the line a reader quotes (and the report's subtitle), did not: 'A wins
    33.3% of games' read as a loss."""
    r = cli("compare", "moon", "--vs", "--agents", "rules:take_cheaply=off", "-n", "3",
            "--seed", "1", "--no-progress")
    assert r.exit_code == 0, r.stderr
    assert re.fullmatch(r"A wins \d+\.\d% of games, 95% CI \d+\.\d to \d+\.\d, over 3 paired "
                        r"games \(even is 33\.3%: A's agents hold one of 3 sides\)",
                        r.stdout.splitlines()[-1]), r.stdout.splitlines()[-1]
    two = cli("compare", "texas42", "--vs", "--agents", "random", "-n", "2", "--no-progress")
    assert two.stdout.splitlines()[-1].endswith(" over 2 paired games")


def test_a_seating_played_again_on_a_deal_is_not_counted_again():
    """Apart, A's agents by seat are moved round the sides (a game a deal for each seating),
    while B's one agent for every seat sits one way: B's game of a deal is played and counted
    once, its figures those of B's run beside one agent for A, and the lines say each one's."""
    def run(a_agents, games):
        r = cli("compare", "texas42", "--agents", a_agents, "--vs", "-o", "min_bid=31",
                "--agents", "random", "--games", games, "--seed", "1", "--no-progress",
                "--format", "json")
        assert r.exit_code == 0, r.stderr
        return json.loads(r.stdout)
    by_seat, alone = run("rules,random,rules,random", "8"), run("random", "4")
    assert by_seat["deals"] == alone["deals"] == 4
    assert by_seat["games_by_config"] == {"A": 8, "B": 4}
    assert by_seat["b_stats"] == alone["b_stats"]  # the same 4 games of B
    assert by_seat["wins_by_side"]["B"] == alone["wins_by_side"]["B"]
    text = cli("compare", "texas42", "--agents", "rules,random,rules,random", "--vs", "-o",
               "min_bid=31", "--agents", "random", "--games", "8", "--seed", "1",
               "--no-progress").stdout.splitlines()
    assert text[3] == ("seed      1   deals 4   games 8 for A, 4 for B (each plays a deal once "
                       "for each seating of its agents: A's 2, B's 1)")
    assert text[-1].endswith("over the same 4 deals (8 and 4 games)")


def test_a_move_round_the_sides_that_seats_the_agents_as_before_is_not_played(games_played):
    # four sides of one seat: agents that repeat every second seat sit two ways, not four
    game = load_game("taroky")
    a = cmp.Config("A", game, ["random", "cautious", "random", "cautious"])
    b = cmp.Config("B", load_game("taroky", {"red_pips": "plain"}), ["random"] * 4)
    res = cmp.compare(a, b, games=2, seed=0)
    assert res.deals == 1 and res.played == {"A": 2, "B": 1}
    assert [g["agents"] for g in games_played if g["ruleset"] == "taroky"] == [
        ["random", "cautious", "random", "cautious"], ["cautious", "random", "cautious", "random"]]


def test_apart_each_ones_score_is_said_per_side_and_all_sides_together():
    """compare's score is per side, simulate's first figure every side's together: apart,
    each one's line gives both (scored_per_hand_all_sides in the JSON)."""
    args = ("compare", "texas42", "--vs", "-o", "min_bid=31", "--games", "2", "--seed", "1",
            "--no-progress")
    d = json.loads(cli(*args, "-f", "json").stdout)
    lines = cli(*args).stdout.splitlines()
    for k in ("A", "B"):
        st = d[f"{k.lower()}_stats"]
        assert abs(st["scored_per_hand_all_sides"] - 2 * st["scored_per_hand"]) < 1e-3
        assert (f"{k}: {st['hands']} hands played, scored {st['scored_per_hand']:.3f} per hand "
                f"per side ({st['scored_per_hand_all_sides']:.3f} per hand, all sides "
                "together)") in lines


def test_at_one_table_agents_that_differ_by_side_play_every_side_of_a_deal(games_played):
    """A's agents by seat, rules on North-South and cautious on East-West: held only by their
    own seats, A's rules agents would hold North-South's hands of every deal and its cautious
    ones East-West's, the luck of the deal not cancelling. Moved round the sides too, each of
    A's sides' agents holds both sides' hands of the deal against B's."""
    game = load_game("texas42")
    a = cmp.Config("A", game, ["rules", "cautious", "rules", "cautious"])
    b = cmp.Config("B", game, ["random"] * 4)
    res = cmp.compare(a, b, games=4, seed=0)
    assert res.mode == "match" and res.deals == 1 and res.played == {"AB": 4}
    assert [g["agents"] for g in games_played] == [
        ["rules", "random", "rules", "random"], ["random", "cautious", "random", "cautious"],
        ["cautious", "random", "cautious", "random"], ["random", "rules", "random", "rules"]]
    # the same agents on every side (each side's first seat rules): twice a deal, as before
    games_played.clear()
    res = cmp.compare(cmp.Config("A", game, ["rules", "rules", "cautious", "cautious"]), b,
                      games=4, seed=0)
    assert res.deals == 2 and [g["agents"] for g in games_played][:2] == [
        ["rules", "random", "cautious", "random"], ["random", "rules", "random", "cautious"]]
    text = cli("compare", "texas42", "--agents", "rules,cautious,rules,cautious", "--vs",
               "--agents", "random", "--games", "4", "--no-progress").stdout.splitlines()
    assert text[6] == ("A plays B: every deal 4 times, A's agents on each side in turn and B's "
                       "on the other, then again with the agents moved round the sides, as "
                       "they differ by side (so each side's agents of A hold every side's hands)")
