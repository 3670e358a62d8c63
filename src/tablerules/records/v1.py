"""Record format version 1: the engine's (version 2) lines as version 1 wrote them, to verify old
records against what the engine computes now."""

from __future__ import annotations

# line kinds whose shape changed in version 2; the others are the same in both
CHANGED = ("header", "deal", "decision", "contract", "trick", "hand", "lay", "match")


def to_v1(ev: dict) -> dict:
    """A version 2 line as version 1 wrote it."""
    t = ev["type"]
    if t == "deal":
        return {("hands" if k == "dealt" else k): v for k, v in ev.items()}
    if t == "decision":
        return {k: v for k, v in ev.items() if k != "phase"}
    if t == "contract":
        return {("seats" if k == "playing" else k): v for k, v in ev.items()}
    if t == "trick":
        return {k: v for k, v in ev.items() if k != "declarations"}
    if t == "lay":
        return {k: v for k, v in ev.items() if k != "end_kinds"}
    if t == "match":
        return {("hands" if k == "hands_scored" else k): v for k, v in ev.items()}
    if t == "hand":
        out = dict(ev)
        if out.get("thrown_in"):
            out["hand"] -= 1  # version 1 counted the hands scored so far
        if "scored" in out:
            out["marks"] = out.pop("scored")
        if "went_out" in out:
            out.setdefault("tricks", [0] * len(out["points"]))
            out.setdefault("ended_after_trick", 0)
            if out.get("cut_short"):
                out["went_out"] = -1  # version 1 did not say who went out with the winning lay
        out.pop("cut_short", None)
        return out
    return ev
