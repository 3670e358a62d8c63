"""A bid made by a seat that could not pass (auction.forced, auction.all_pass) is marked
`forced` in the record, counted in its own row of the make-rate tables, and replay holds a
record to it."""

from __future__ import annotations

import json

import pytest

from support import cli


def run(tmp_path, ruleset: str, *extra: str):
    path = tmp_path / "r.jsonl"
    r = cli("simulate", ruleset, "--games", "6", "--seed", "3", "--agents", "rules,cautious,rules,cautious",
            "--record", str(path), "--record-detail", "full", "--no-progress", *extra)
    assert r.exit_code == 0, r.stdout
    return r, path, [json.loads(x) for x in path.read_text().splitlines()]


def hands_with_last_bid(lines):
    """(hand line, the legal actions of the speech that made its bid) for every bid hand."""
    out, last = [], None
    for d in lines:
        if d["type"] == "deal":
            last = None
        if d["type"] == "decision" and d["phase"] == "auction" and d["action"] != "pass":
            last = d["legal"]
        if d["type"] == "hand" and "bid" in d and last is not None:
            out.append((d, last))
    return out


@pytest.mark.parametrize("ruleset", ["texas42", "texas42-forced"])
def test_forced_marks_exactly_the_bids_a_seat_could_not_pass(tmp_path, ruleset):
    r, path, lines = run(tmp_path, ruleset)
    pairs = hands_with_last_bid(lines)
    assert pairs and any(h.get("forced") for h, _ in pairs) and not all(h.get("forced")
                                                                         for h, _ in pairs)
    for h, legal in pairs:
        assert h.get("forced", False) == ("pass" not in legal), (h, legal)
    contracts = [d for d in lines if d["type"] == "contract"]
    assert [c.get("forced", False) for c in contracts] == [h.get("forced", False) for h in
                                                          (d for d in lines if d["type"] == "hand"
                                                           and "bid" in d)]


def test_the_summary_counts_forced_bids_in_their_own_row(tmp_path):
    r, path, lines = run(tmp_path, "texas42", "--format", "json")
    rows = json.loads(r.stdout)["make_rate_by_bid"]
    hands = [d for d in lines if d["type"] == "hand" and "bid" in d]
    forced = [h for h in hands if h.get("forced")]
    assert rows["30 (forced)"]["hands"] == len(forced)
    assert rows["30"]["hands"] == sum(1 for h in hands if h["bid"] == "30" and not h.get("forced"))
    assert list(rows)[-1] == "30 (forced)"  # after the bids chosen
    text = cli("simulate", "texas42", "--games", "6", "--seed", "3", "--agents", "rules,cautious,rules,cautious",
               "--no-progress").stdout
    assert "30 (forced)" in text and "(forced: the bid of a seat that could not pass" in text


def test_replay_rejects_a_record_that_drops_or_adds_forced(tmp_path):
    r, path, lines = run(tmp_path, "texas42")
    assert cli("replay", str(path), "-q").exit_code == 0
    text = path.read_text().splitlines()
    i = next(k for k, x in enumerate(text) if '"type":"hand"' in x and '"forced":true' in x)
    j = next(k for k, x in enumerate(text) if '"type":"hand"' in x and '"bid"' in x
             and '"forced"' not in x)
    for k, edit in ((i, lambda x: x.replace(',"forced":true', "")),
                    (j, lambda x: x.replace('"bidder":', '"forced":true,"bidder":', 1))):
        bad = list(text)
        bad[k] = edit(bad[k])
        p = tmp_path / "bad.jsonl"
        p.write_text("\n".join(bad) + "\n")
        res = cli("replay", str(p), "-q")
        assert res.exit_code == 1 and f"bad.jsonl:{k + 1}:" in res.output, res.output
