"""Reports of experiments (`simulate --report`, `compare --report`): one self-contained HTML
file, the figures as tables and the charts as inline SVG drawn with matplotlib (the `report`
extra). It reads only the results the commands print (their JSON), so it knows no game."""

from __future__ import annotations

from html import escape

from ..errors import listed
from ..records.runner import games_won, interval, percent, wilson

EXTRA = "--report needs matplotlib: pip install 'tablerules[report]'"


class ReportUnavailable(Exception):
    """matplotlib is not installed: the one-line message says how to get it."""


def require() -> None:
    """Fail early, before any game is played, when the charts cannot be drawn."""
    try:
        import matplotlib  # noqa: F401
        from matplotlib.figure import Figure  # noqa: F401
    except ImportError:
        raise ReportUnavailable(EXTRA) from None


CSS = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#222;
  margin:0;background:#f6f6f4}
main{max-width:760px;margin:0 auto;padding:18px 24px 40px;background:#fff}
h1{font-size:20px;margin:6px 0 2px}h2{font-size:16px;margin:26px 0 6px;
  border-bottom:1px solid #ddd;padding-bottom:3px}
p.sub{color:#555;margin:0 0 10px}p.verdict{font-weight:600}
table{border-collapse:collapse;margin:6px 0 10px;font-variant-numeric:tabular-nums}
th,td{padding:2px 10px 2px 0;text-align:right;white-space:nowrap}
th:first-child,td:first-child,th.t,td[class^=t]{text-align:left}th{border-bottom:1px solid #bbb;font-weight:600}
tr.total td{border-top:1px solid #bbb;font-weight:600}
svg.chart{display:block;max-width:100%;height:auto;margin:4px 0 12px}
small{color:#666}
"""


def pct(v) -> str:
    return "-" if v is None else f"{v:.1%}"


def page(title: str, subtitle: str, body: list[str]) -> str:
    """The whole HTML document: no script, no link, nothing fetched."""
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<meta name=\"viewport\" content=\"width=device-width\"><title>{escape(title)}</title>"
            f"<style>{CSS}</style></head>\n<body><main>\n<h1>{escape(title)}</h1>\n"
            f"<p class=\"sub\">{escape(subtitle)}</p>\n" + "\n".join(body)
            + "\n</main></body></html>\n")


def table(tid: str, head: list[str], rows: list, *, total: set | None = None) -> str:
    """A table: `rows` are (key, [cell, ...]) with the cells' class names from `head`."""
    cls = [h.split("|")[0] for h in head]  # a class "t..." is a text column, set left
    out = [f'<table id="{tid}"><thead><tr>'
           + "".join(f"<th class=\"{c[:1]}\">{escape(h.split('|')[-1])}</th>"
                   for c, h in zip(cls, head)) + "</tr></thead><tbody>"]
    for key, cells in rows:
        mark = ' class="total"' if total and key in total else ""
        out.append(f'<tr data-key="{escape(str(key))}"{mark}>'
                   + "".join(f'<td class="{c}">{escape(str(v))}</td>' for c, v in zip(cls, cells))
                   + "</tr>")
    return "".join(out) + "</tbody></table>"


def _chart_row(label: str, k: float, n: int) -> tuple:
    """A chart's row of k of n: (label, rate, low, high, n), the rate and its interval from the
    counts, as the tables print them (None, None, None when n is 0)."""
    ci = wilson(k, n)
    return (label, k / n if n else None, *(ci or (None, None)), n)


def _won_cells(x: dict) -> list:
    """A rule's row's win rate and interval (a draw counting half), from its counts."""
    won = games_won(x["full_wins"], x["draws"])
    return [percent(won, x["games"]), interval(won, x["games"])]


def _rate_rows(by: dict) -> list:
    return [_chart_row(k, v["made"], v["hands"]) for k, v in by.items()]


def _rate_cells(label: str, v: dict) -> list:
    """A make-rate row's cells: its rates and interval from its counts (rounded once, as the
    text summary prints them)."""
    n, made = v["hands"], v["made"]
    return [label, n, made, percent(made, n), interval(made, n), percent(n - made, n)]


def _make_table(tid: str, by: dict, every: dict | None, first: str = "bid") -> str:
    rows = [(k, _rate_cells(k, v)) for k, v in by.items()]
    if every is not None:
        rows.append(("every bid", _rate_cells("every bid", every)))
    return table(tid, [f"name|{first}", "hands|hands", "made|made", "rate|rate", "ci|95% CI",
                       "set|set"], rows, total={"every bid"})


def named(names: list | None, k, what: str) -> str:
    """Side or seat `k` (a number, or its text as a JSON key) by the name the run's JSON gives
    it in `names`, else `what` and the number (a run's JSON without the names)."""
    i = int(k)
    return names[i] if names and 0 <= i < len(names) else f"{what} {k}"


def agents_line(agents: list[str], seats: list[str] | None = None) -> str:
    """A run's agents as its summary says them: one on every seat, or each seat's, the seats by
    the names the run's JSON gives them."""
    if len(set(agents)) == 1:
        return f"{agents[0]} on every seat"
    return ", ".join(f"{a} ({named(seats, s, 'seat')})" for s, a in enumerate(agents))


def tie_note(wins: int, games: int, whose: str = "the") -> str:
    """Why the wins by side add up to more than the matches, or "" when they do not: a match
    tied at the top has a winner on each side in the tie."""
    if wins <= games:
        return ""
    return (f"({whose} wins add up to {wins} in {games} matches: a match tied at the top counts "
            "a win for each side in the tie)")


def games_played(r: dict) -> str:
    """The games a comparison's figures rest on (`r` its JSON): at one table A's and B's
    together; apart each one's, a game for each distinct seating of its agents a deal (the
    text and the report say it alike)."""
    if r["mode"] == "match":
        return f"games {r['games']:,}"
    ga, gb = r["games_by_config"]["A"], r["games_by_config"]["B"]
    if ga == gb:
        return f"games {ga:,} each"
    deals = r["deals"] or 1
    return (f"games {ga:,} for A, {gb:,} for B (each plays a deal once for each seating of its "
            f"agents: A's {ga // deals}, B's {gb // deals})")


def dealer_line(first_dealer, seats: list[str] | None = None, by: str | None = None) -> str:
    """Who dealt a run's first hands, as its summary says it: a seat, or by lot; `by`: what set
    it, when not the ruleset's deal.first_dealer (simulate --first-dealer)."""
    if first_dealer == "lot":
        return "first dealer drawn by lot each match (deal.first_dealer: lot)"
    return f"{named(seats, first_dealer, 'seat')} deals first ({by or 'deal.first_dealer'})"


NOT_CHOSEN = "not chosen by the agents"  # a contract the agents did not choose to bid


def never_bid_note(never: dict, seats: str) -> str:
    """Why the agents of `seats` ("every seat", "the seats of A") did not choose to bid the
    contracts of `never` (a summary's never_bid) in this run, as the text summary and the
    reports say it: information about the agents, not a fault of the ruleset (a contract every
    hand is forced into is played all the same)."""
    cs, ss = never["contracts"], never["strategies"]
    them = listed(cs, "or")
    by = (f"the strategy {ss[0]}, which has" if len(ss) == 1 else
          f"the strategies {', '.join(ss)}, which have")
    return (f"in this run {seats} played {by} no bid rule that chooses {them}; a hand is played "
            f"in {'it' if len(cs) == 1 else 'one'} only when a seat is forced to bid it")


def simulate_report(r: dict, dist: dict) -> str:
    """The report of a `simulate` run: `r` its JSON summary, `dist` Summary.distributions()."""
    from . import charts
    games, hands = r["games"], r["hands"]
    body = ["<h2>Summary</h2>", table("overview", ["name|", "value|"], [
        ("ruleset", ["ruleset", r["ruleset"]]), ("seed", ["seed", r["seed"]]),
        *([("agents", ["agents", agents_line(r["agents"], r.get("seat_names"))])]
          if r.get("agents") else []),  # a merged run's shards name theirs in their records
        ("games", ["games", games]),
        ("dealer", ["dealer", dealer_line(r.get("first_dealer", 0), r.get("seat_names"),
                                          r.get("first_dealer_by"))]),
        ("hands", ["hands played", hands]),
        ("thrown_in", ["deals thrown in", r["thrown_in"]]),
        ("decisions", ["decisions", r["decisions"]]),
        ("avg_scored_per_hand", ["scored per hand (all sides together)",
                                 f"{r['avg_scored_per_hand']:.3f}"]),
        ("avg_scored_per_hand_per_side", ["scored per hand per side",
                                          f"{r['avg_scored_per_hand_per_side']:.3f}"]),
        *([("avg_gained_per_hand", ["gained per hand (the sides above 0)",
                                    f"{r['avg_gained_per_hand']:.3f}"])]
          if "avg_gained_per_hand" in r else []),
    ])]
    if r.get("interrupted"):
        body.append("<p><strong>interrupted:</strong> the figures cover the games that "
                    "finished</p>")
    body += ["<h2>Contracts</h2>", table("contracts", ["name|contract", "hands|hands",
                                                       "share|share"],
             [(k, [k, v, pct(v / hands if hands else None)]) for k, v in r["contracts"].items()])]
    never = r.get("never_bid") or {}
    if never.get("contracts"):  # as the text summary says it
        body.append(f'<p id="never-bid"><small>{escape(NOT_CHOSEN)}: '
                    f'{escape(", ".join(never["contracts"]))} '
                    f'({escape(never_bid_note(never, "every seat"))})</small></p>')
    if r["make_rate_by_bid"]:
        body += ["<h2>Make rate by bid</h2>",
                 "<p><small>Hands won in the auction; 95% Wilson intervals. A forced bid (a seat "
                 "that could not pass) has its own row.</small></p>",
                 charts.intervals("make-by-bid", _rate_rows(r["make_rate_by_bid"])
                                  + [_chart_row("every bid", r["make_rate"]["made"],
                                                r["make_rate"]["hands"])],
                                  title="Make rate by bid, with its 95% interval",
                                  xlabel="bids made"),
                 _make_table("make-rate-by-bid", r["make_rate_by_bid"], r["make_rate"]),
                 "<h3>By contract</h3>",
                 charts.intervals("make-by-contract", _rate_rows(r["make_rate_by_contract"]),
                                  title="Make rate by contract, with its 95% interval",
                                  xlabel="bids made"),
                 _make_table("make-rate-by-contract", r["make_rate_by_contract"], None,
                             "contract")]
    else:
        body.append("<p>No auction: every hand is played without a bid.</p>")
    body.append("<h2>Scores</h2>")
    if dist["points_of_the_bidding_side"]:
        body.append(charts.counts("bidder-points", dist["points_of_the_bidding_side"],
                                  title="Points the bidding side took in its hand",
                                  xlabel="points taken", ylabel="share of hands"))
    if dist["scored_by_a_side_per_hand"]:
        body.append(charts.counts("side-scored", dist["scored_by_a_side_per_hand"],
                                  title="What one side scored in one hand (every side, every hand)",
                                  xlabel="scored in a hand", ylabel="share"))
    if dist["deals_per_match"]:
        body += ["<h2>Match length</h2>",
                 charts.counts("match-length", dist["deals_per_match"],
                               title="Deals per match (deals thrown in included)",
                               xlabel="deals", ylabel="share of matches")]
    wins = []
    for s, w in r["wins_by_side"].items():
        ci = wilson(w, games)
        wins.append((s, [named(r.get("side_names"), s, "side"), w, percent(w, games),
                         interval(w, games)], ci))
    sides = len(wins)
    body += ["<h2>Wins by side</h2>",
             charts.intervals("wins-by-side", [_chart_row(c[0], r["wins_by_side"][s], games)
                                               for s, c, _ci in wins],
                              title="Matches won by each side, with its 95% interval",
                              xlabel="matches won", ref=1 / sides if sides else None,
                              ref_label="even"),
             table("wins", ["name|side", "wins|wins", "rate|rate", "ci|95% CI"],
                   [(s, c) for s, c, _ci in wins])]
    tied = tie_note(sum(r["wins_by_side"].values()), games)
    if tied:
        body.append(f'<p id="ties"><small>{escape(tied)}</small></p>')
    if r.get("chips_by_seat"):
        body += ["<h2>Chips by seat</h2>", table("chips", ["name|seat", "mean|mean", "min|min",
                                                           "max|max", "below|below 0"],
                 [(s, [named(r.get("seat_names"), s, "seat"), f"{v['mean']:.2f}", v["min"],
                       v["max"], v["below_zero"]])
                  for s, v in r["chips_by_seat"].items()])]
    return page(f"simulate {r['ruleset']}",
                f"{games:,} games, {hands:,} hands, seed {r['seed']}", body)


def compare_report(r: dict, diffs: dict) -> str:
    """The report of a `compare` run: `r` its JSON, `diffs` the per-deal score differences (of
    what was gained, where its figures are: `gained_per_hand`)."""
    from . import charts
    a, b = r["a"], r["b"]
    body = ["<h2>A and B</h2>", table("configs", ["name|", "truleset|ruleset", "tagents|agents"], [
        ("A", ["A", a["ruleset"], agents_line(a["agents"], a.get("seat_names"))]),
        ("B", ["B", b["ruleset"], agents_line(b["agents"], b.get("seat_names"))])]),
        f"<p>differ: {escape('; '.join(r['differences']) or 'nothing: A and B are the same')}"
        f"; seed {r['seed']}, {r['deals']:,} deals, {escape(games_played(r))}</p>",
        f'<p class="verdict" id="verdict">{escape(r["verdict"])}</p>']
    sa, sb = r["a_stats"], r["b_stats"]
    if r["mode"] == "match":
        res = r["result"]
        score = games_won(res["a_wins"], res["draws"])
        body += ["<h2>A plays B</h2>"]
        if res["ci"]:
            body.append(charts.intervals("a-win-rate", [_chart_row("A's win rate", score,
                                                                   r["games"])],
                                         title="A's share of the games (a draw counts half), "
                                               "with its 95% interval",
                                         xlabel="games won by A", ref=res["even"],
                                         ref_label="even"))
        body.append(table("result", ["name|", "a_wins|A wins", "b_wins|B wins", "draws|draws",
                                     "rate|A's win rate", "ci|95% CI", "even|even"],
                          [("result", ["games", res["a_wins"], res["b_wins"], res["draws"],
                                       percent(score, r["games"]), interval(score, r["games"]),
                                       pct(res["even"])])]))
    else:
        body.append("<h2>Side by side</h2>")
        wa, wb = r["wins_by_side"]["A"], r["wins_by_side"]["B"]
        groups = sorted(set(wa) | set(wb), key=int)
        na, nb = a.get("side_names"), b.get("side_names")
        # a side by A's name and B's (one when they agree, or when one game has no such side)
        label = {s: " / ".join(dict.fromkeys(named(n, s, "side") for n in (na, nb)
                                             if not n or int(s) < len(n))) for s in groups}
        body.append(charts.paired_bars("wins-by-side", [label[s] for s in groups],
                                       {"A": [wa.get(s, 0) for s in groups],
                                        "B": [wb.get(s, 0) for s in groups]},
                                       title="Matches won by each side", ylabel="matches"))
        body.append(table("wins", ["name|side", "a|A wins", "b|B wins"],
                          [(s, [label[s], wa.get(s, "-"), wb.get(s, "-")]) for s in groups]))
        for k, w in (("A", wa), ("B", wb)):
            tied = tie_note(sum(w.values()), r["games_by_config"][k], f"{k}'s")
            if tied:
                body.append(f'<p id="ties-{k.lower()}"><small>{escape(tied)}</small></p>')
    rows = []
    for k, st in (("A", sa), ("B", sb)):
        m = st["make_rate"]
        if m["hands"]:
            rows.append(_chart_row(f"{k}: every bid", m["made"], m["hands"]))
        rows += [_chart_row(f"{k}: {c}", v["made"], v["hands"])
                 for c, v in st["make_rate_by_contract"].items()]
    if rows:
        body += ["<h2>Bids made</h2>",
                 charts.intervals("make-rates", rows, title="Make rate of A's and B's bids, "
                                  "by contract, with its 95% interval", xlabel="bids made")]
    for k, st in (("A", sa), ("B", sb)):  # as the text says it under each one's bids
        never = st.get("never_bid") or {}
        if never.get("contracts"):
            body.append(f'<p id="never-bid-{k.lower()}"><small>{escape(NOT_CHOSEN)} of {k}: '
                        f'{escape(", ".join(never["contracts"]))} '
                        f'({escape(never_bid_note(never, f"the seats of {k}"))})</small></p>')
    per = ("per side" if r["mode"] != "match" else "by its side" if r["sides"] == 2 else
           "per side it held")  # as the text says it
    gained = "gained_per_hand" in sa  # a side scored below 0: what was gained and lost, as the
    # text says it (the sum over every side says little)
    every = "scored_per_hand_all_sides" in sa  # apart: every side together too, as simulate's
    body.append(table("stats", ["name|", "hands|hands", "dealsthrown|deals thrown in",
                                *(["gained|gained per hand (the sides above 0)",
                                   "lost|lost per hand (the others)"] if gained else
                                  ["scored|scored per hand " + per]
                                  + (["allsides|scored per hand (all sides together)"]
                                     if every else [])),
                                "rate|make rate", "ci|95% CI"],
                      [(k, [k, st["hands"], st["thrown_in"],
                            *([f"{st['gained_per_hand']:.3f}", f"{st['lost_per_hand']:.3f}"]
                              if gained else [f"{st['scored_per_hand']:.3f}"]
                              + ([f"{st['scored_per_hand_all_sides']:.3f}"] if every else [])),
                            percent(st["make_rate"]["made"], st["make_rate"]["hands"]),
                            interval(st["make_rate"]["made"], st["make_rate"]["hands"])])
                       for k, st in (("A", sa), ("B", sb))]))
    if diffs:
        what = ("what A's side scored less what B's side did" if r["mode"] == "match" and
                r["sides"] == 2 else "what A's side scored less B's sides' mean" if
                r["mode"] == "match" else "what A's games gained (the sides above 0) less what "
                "B's did" if "gained_per_hand" in sa else "what A's games scored less what B's did")
        n = sum(diffs.values())
        mean = sum(k * v for k, v in diffs.items()) / n
        body += ["<h2>Score difference per deal</h2>",
                 f"<p><small>Per deal, over its games: {escape(what)}. Mean "
                 f"<span id=\"mean-diff\">{mean:+.3f}</span> over {n:,} deals.</small></p>",
                 charts.counts("deal-diffs", diffs, title="A's score less B's, per deal",
                               xlabel="difference (A less B)", ylabel="share of deals")]
    return page(f"compare {a['ruleset']}" + (f" vs {b['ruleset']}" if b["ruleset"] != a["ruleset"]
                                             else ""), r["verdict"], body)


def rule_effects_report(d: dict, ruleset: str) -> str:
    """The report of `compare --each-rule-off`: `d` its JSON."""
    from . import charts
    rows = d["rules"]
    body = ["<p><small>Each row: the full agent (A) plays the same agent with that one rule "
            "switched off (B), over the same deals; A's share of the games with its 95% Wilson "
            "interval. Above even, the rule helps; an interval across even shows no clear "
            "effect.</small></p>"]
    if rows:
        body.append(charts.intervals("rule-effects",
                                     [_chart_row(x["rule"],
                                                 games_won(x["full_wins"], x["draws"]),
                                                 x["games"]) for x in rows],
                                     title="The full agent's win rate against each rule off",
                                     xlabel="games won by the full agent", ref=rows[0]["even"],
                                     ref_label="even"))
    body.append(table("rules", ["name|rule", "games|games", "full|full wins", "off|off wins",
                                "draws|draws", "rate|full agent's win rate", "ci|95% CI"],
                      [(x["rule"], [x["rule"], x["games"], x["full_wins"], x["off_wins"],
                                    x["draws"], *_won_cells(x)]) for x in rows]))
    if not rows:  # as the text says it
        body.append("<p>The agent plays no rule that can be switched off.</p>")
    if d["off_already"]:
        body.append(f"<p>Off already, not run: {escape(', '.join(d['off_already']))}</p>")
    if d["not_switchable"]:
        body.append("<p>Not a parameter of the rules agent, not run: "
                    f"{escape(', '.join(d['not_switchable']))}</p>")
    return page(f"compare {ruleset}: each strategy rule switched off",
                f"{d['agent']} (strategy {d['strategy']}), {d['games_per_rule']:,} games per rule, "
                f"seed {d['seed']}", body)
