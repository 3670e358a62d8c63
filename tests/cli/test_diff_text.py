"""diff's text says what its JSON says: an added contract's parts (its bids, what it is like and
where it differs from that), and the allowed values of an option whose allowed values change."""

from __future__ import annotations

import json
from pathlib import Path

from support import cli

H8 = (Path(__file__).resolve().parents[1] / "fixtures" / "house-lowdoubles.yaml").read_text(
    encoding="utf-8")


def test_an_added_contract_shows_its_bids_like_and_changed_play(tmp_path):
    p = tmp_path / "h8.yaml"
    p.write_text(H8, encoding="utf-8")
    r = cli("diff", "texas42", str(p))
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    at = lines.index("  contracts.lowdoubles (added)")
    assert lines[at + 1] == "    + Low (nello with doubles low)"
    body = lines[at + 2:]
    assert body[0].startswith("        like: nello; ")  # the parts the same as nello's, counted
    assert "        bid.levels: range(nello_min_marks, max_marks + 1)" in body
    assert ("        play.lead: nello_leads(tile, 'low')   (nello: nello_leads(tile, "
            "nello_doubles))") in body
    assert "        enabled: true   (nello: nello)" in body
    assert not any("trick_points" in ln for ln in body)  # as nello's: left out
    # every part the text shows is the JSON's
    part = json.loads(cli("diff", "texas42", str(p), "-f", "json").stdout)["parts"][0]
    assert part["b"]["play"]["lead"] == "nello_leads(tile, 'low')"
    # removed: the same lines, under a '-'
    r = cli("diff", str(p), "texas42")
    assert "    - Low (nello with doubles low)" in r.stdout
    assert "        play.rank: nello_rank(tile, led, 'low')" in r.stdout


def test_changed_allowed_values_are_shown():
    r = cli("diff", "texas42-tournament", "texas42-hall")
    assert r.exit_code == 0, r.output
    assert "  marks_to_win: 7 -> 7  (allowed values: 1..21 -> 3, 5, 7)\n" in r.stdout
    assert "  all_pass: stuck -> reshuffle  (value, allowed values: " in r.stdout


def test_an_option_one_of_the_two_does_not_take_names_that_one():
    """diff's --option applies to both rulesets: an option one of them does not take names the
    one that refused it, as validate names the file (it said only `unknown option 'min_bid'`
    and listed Moon's options, beside a texas42 that takes min_bid)."""
    r = cli("diff", "texas42", "moon", "-o", "min_bid=32")
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr == ("moon: error: --option min_bid=32: unknown option 'min_bid' (options: "
                        "followme_doubles, leader_names_suit, made_scores, moon_set, set_scores, "
                        "target, widow_first, widow_optional)\n")
    r = cli("diff", "moon", "texas42", "-o", "min_bid=32")
    assert r.exit_code == 2 and r.stderr.startswith("moon: error: --option min_bid=32: ")
    v = cli("validate", "texas42", "moon", "-o", "min_bid=32", "--hands", "0")
    assert v.stderr == r.stderr  # as validate says it

def test_a_changed_list_is_shown_as_its_mappings_are(tmp_path):
    # a house file replacing Taroky's talon, a list of three exchanges, with one exchange: both
    # sides are written alike, as the rules are (no Python quotes and brackets on one side)
    p = tmp_path / "talon.yaml"
    p.write_text("name: talon\ntitle: the povinnost takes the whole talon\nextends: taroky\n"
                 "contracts:\n  game:\n    exchange:\n      by: bidder\n      take: 6\n"
                 "      bury: 6\n      legal: \"may_lay_away(tile, hand)\"\n      order: 1\n",
                 encoding="utf-8")
    r = cli("diff", "taroky", str(p))
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    at = lines.index("  contracts.game.exchange (changed)")
    assert lines[at + 1] == (
        "    - [{by: bidder, take: 0 if bidder == dealer and dealer_povinnost == 'takes_none' "
        "else 4, bury: 4, legal: may_lay_away(tile, hand), order: 1}, {by: taker_after(bidder), "
        "take: 1, bury: 1, legal: may_lay_away(tile, hand)}, {by: "
        "taker_after(taker_after(bidder)), take: 1, bury: 1, legal: may_lay_away(tile, hand)}]")
    assert lines[at + 2] == ("    + {by: bidder, take: 6, bury: 6, legal: may_lay_away(tile, hand), "
                             "order: 1}")


def test_an_added_contract_shows_the_parts_it_drops_from_the_one_it_is_like(tmp_path):
    # a solo copied from Taroky's prever without the talon (exchange: null): the diff listed
    # what the solo changes and counted the rest "as in prever", the talon among them
    p = tmp_path / "solo.yaml"
    p.write_text("name: solo\ntitle: solo\nextends: taroky\ncontracts:\n  solo:\n"
                 "    like: prever\n    title: Solo, without the talon\n    bid:\n"
                 "      levels: \"[1]\"\n      rank: 2\n      label: \"'solo'\"\n"
                 "    exchange: null\n", encoding="utf-8")
    r = cli("diff", "taroky", str(p))
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    body = lines[lines.index("    + Solo, without the talon") + 1:]
    assert ("        exchange: (none)   (prever: {by: bidder, take: 3, from: 3 if half == "
            "'second' else 0, bury: 3, legal: may_lay_away(tile, hand), order: 1})") in body, \
        r.stdout
    assert not any(ln.startswith("        exchange.") for ln in body)
