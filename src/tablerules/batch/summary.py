"""What a batch run played, counted as it goes: hands, contracts and their make rates, points."""

from __future__ import annotations

import numpy as np

from .kernel import RESULT


class Tally:
    """Counts over every block of hands a run plays (`add`), and the run's summary (`as_dict`)."""

    def __init__(self, game):
        self.g = game
        nc, ns = len(game.contracts), len(game.sides)
        self.hands = 0
        self.thrown_in = 0
        self.decisions = 0
        self.bid = np.zeros(nc, dtype=np.int64)
        self.made = np.zeros(nc, dtype=np.int64)
        self.forced = 0
        self.points = np.zeros(ns, dtype=np.int64)
        self.scored = np.zeros(ns, dtype=np.int64)
        self.checked = 0
        self.disagree: list[str] = []

    def add(self, hands) -> None:
        g = self.g
        r = hands.results
        ns = len(g.sides)
        self.hands += len(r)
        thrown = r[:, RESULT.index("thrown_in")] != 0
        self.thrown_in += int(thrown.sum())
        self.decisions += int(r[:, RESULT.index("steps")].sum())
        played = r[~thrown]
        nc = len(g.contracts)
        self.bid += np.bincount(played[:, RESULT.index("contract")], minlength=nc)
        made = played[played[:, RESULT.index("made")] != 0]
        self.made += np.bincount(made[:, RESULT.index("contract")], minlength=nc)
        self.forced += int(played[:, RESULT.index("forced")].sum())
        base = len(RESULT)
        self.points += played[:, base:base + ns].sum(axis=0)
        self.scored += played[:, base + ns:base + 2 * ns].sum(axis=0)

    def as_dict(self, seconds: float) -> dict:
        g = self.g
        played = self.hands - self.thrown_in
        contracts = {}
        for c in g.contracts:
            b = int(self.bid[c.index])
            if b:
                contracts[c.name] = {"hands": b, "share": round(b / played, 4) if played else 0,
                                     "made": int(self.made[c.index]),
                                     "made_rate": round(int(self.made[c.index]) / b, 4)}
        return {
            "hands": self.hands, "thrown_in": self.thrown_in, "forced": self.forced,
            "decisions_per_hand": round(self.decisions / self.hands, 2) if self.hands else 0,
            "contracts": contracts,
            "points_per_hand": [round(int(x) / played, 3) if played else 0 for x in self.points],
            "scored_per_hand": [round(int(x) / played, 3) if played else 0 for x in self.scored],
            "checked": {"hands": self.checked, "agree": self.checked - len(self.disagree),
                        "disagreements": self.disagree[:10]},
            "seconds": round(seconds, 3),
            "hands_per_second": round(self.hands / seconds, 1) if seconds else None,
        }
