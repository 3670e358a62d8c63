"""`bounds.max_steps` bounds the decisions of each hand, not of the match."""

from __future__ import annotations

import json

from support import cli


def test_max_steps_counts_each_hand_afresh(tmp_path):
    rec = tmp_path / "t.jsonl"
    assert cli("simulate", "texas42", "--games", "5", "--seed", "2", "--record", str(rec),
               "--record-detail", "full").exit_code == 0
    per_hand, per_match, n, m = [], [], 0, 0
    for line in rec.read_text(encoding="utf-8").splitlines():
        t = json.loads(line)["type"]
        if t == "decision":
            n, m = n + 1, m + 1
        elif t == "hand":
            per_hand.append(n)
            n = 0
        elif t == "match":
            per_match.append(m)
            m = 0
    longest = max(per_hand)
    assert max(per_match) > 2 * longest  # a per-match bound would stop this match
    for steps, code in [(longest, 0), (longest - 1, 1)]:
        f = tmp_path / f"steps{steps}.yaml"
        f.write_text(f"name: steps\nextends: texas42\nbounds:\n  max_steps: {steps}\n",
                     encoding="utf-8")
        r = cli("simulate", str(f), "--games", "5", "--seed", "2")
        assert r.exit_code == code, r.stderr
        if code:
            assert f"the hand did not end within {steps} decisions (bounds.max_steps)" in r.stderr
