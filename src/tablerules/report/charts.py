"""Charts drawn with matplotlib as inline SVG: no file, no font, no network, the same bytes for
the same figures (a fixed hash salt, no dates, ids named after the chart)."""

from __future__ import annotations

import io
import re

WIDTH = 7.2  # inches: the report's column at 96 dpi, about 690 px
INK, ACCENT, MUTED, GRID = "#222222", "#1f5fa8", "#9a9a9a", "#e4e4e4"
STYLE = {"svg.hashsalt": "tablerules", "svg.fonttype": "none", "font.size": 9,
         "font.family": "sans-serif", "axes.edgecolor": MUTED, "axes.labelcolor": INK,
         "xtick.color": INK, "ytick.color": INK, "axes.spines.top": False,
         "axes.spines.right": False}


def _figure(height: float):
    from matplotlib.figure import Figure
    fig = Figure(figsize=(WIDTH, height))
    return fig, fig.add_subplot()


def _svg(fig, name: str) -> str:
    """The figure as an <svg> element for an HTML page, its ids prefixed with `name`."""
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight",
                metadata={"Date": None, "Creator": None, "Format": None, "Type": None})
    text = buf.getvalue()
    text = text[text.index("<svg"):]  # no XML declaration, no DOCTYPE (an http address)
    text = re.sub(r"<metadata>.*?</metadata>\s*", "", text, flags=re.S)
    text = re.sub(r'\s+xmlns(:\w+)?="[^"]*"', "", text)  # HTML needs no namespaces
    ids = set(re.findall(r'id="([^"]+)"', text))  # unique in the page: several charts share it
    text = re.sub(r'(id="|#)([^"#()\s]+)(?=[")])',
                  lambda m: f"{m[1]}{name}-{m[2]}" if m[2] in ids else m[0], text)
    text = text.replace("<svg ", f'<svg class="chart" data-chart="{name}" role="img" ', 1)
    return text.strip()


def intervals(name: str, rows: list, *, title: str, xlabel: str, ref: float | None = None,
              ref_label: str = "") -> str:
    """A rate per row with its interval: rows of (label, rate, low, high, n), top to bottom."""
    from matplotlib import rc_context
    with rc_context(STYLE):
        fig, ax = _figure(0.9 + 0.28 * max(1, len(rows)))
        ys = list(range(len(rows)))[::-1]
        for y, (label, r, lo, hi, n) in zip(ys, rows):
            if r is None:
                continue
            ax.plot([lo, hi], [y, y], color=ACCENT, lw=2.2, solid_capstyle="butt")
            ax.plot([r], [y], "o", color=INK, ms=4.5)
            ax.annotate(f"{r:.1%}  (n={n:,})", (1.0, y), xycoords=("axes fraction", "data"),
                        xytext=(6, 0), textcoords="offset points", va="center", fontsize=8,
                        color=INK, annotation_clip=False)
        if ref is not None:
            ax.axvline(ref, color=MUTED, lw=1, ls="--")
            if ref_label:
                ax.annotate(ref_label, (ref, 0.0), xycoords=("data", "axes fraction"),
                            xytext=(3, 3), textcoords="offset points", fontsize=8, color=MUTED)
        ax.set_yticks(ys, [r[0] for r in rows])
        ax.set_ylim(-0.7, len(rows) - 0.3)
        ax.set_xlim(-0.015, 1.015)  # a point at 0 or 1 drawn whole
        ax.xaxis.set_major_formatter(lambda v, _p: f"{v:.0%}")
        ax.grid(axis="x", color=GRID, lw=0.8)
        ax.set_axisbelow(True)
        ax.set_xlabel(xlabel)
        ax.set_title(title, loc="left", fontsize=10, color=INK)
        return _svg(fig, name)


def counts(name: str, values: dict, *, title: str, xlabel: str, ylabel: str = "share") -> str:
    """A distribution of values counted (value -> count) as bars of their share."""
    from matplotlib import rc_context
    from matplotlib.ticker import MaxNLocator
    with rc_context(STYLE):
        fig, ax = _figure(2.5)
        total = sum(values.values()) or 1
        xs = sorted(values)
        if len(xs) <= 60:
            gaps = [b - a for a, b in zip(xs, xs[1:])] or [1]
            ax.bar(xs, [values[x] / total for x in xs], width=0.8 * min(gaps), color=ACCENT)
            if len(xs) < 8:  # few values: narrow bars, not a wall
                pad = (8 - len(xs)) * min(gaps) / 2
                ax.set_xlim(xs[0] - pad, xs[-1] + pad)
            if all(float(x).is_integer() for x in xs):
                if xs[-1] - xs[0] <= 16:  # a tick under every bar while they fit
                    ax.set_xticks(xs, [str(int(x)) for x in xs])
                else:
                    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        else:
            ax.hist(xs, bins=40, weights=[values[x] / total for x in xs], color=ACCENT)
        ax.yaxis.set_major_formatter(lambda v, _p: f"{v:.0%}")
        ax.grid(axis="y", color=GRID, lw=0.8)
        ax.set_axisbelow(True)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.set_title(f"{title}  (n={sum(values.values()):,})", loc="left", fontsize=10,
                     color=INK)
        return _svg(fig, name)


def paired_bars(name: str, groups: list, series: dict, *, title: str, ylabel: str) -> str:
    """Bars side by side: for each group label, one bar per series (label -> values)."""
    from matplotlib import rc_context
    from matplotlib.ticker import MaxNLocator
    with rc_context(STYLE):
        fig, ax = _figure(2.5)
        k = len(series)
        w = 0.8 / max(1, k)
        colours = [ACCENT, "#d08a2e", "#5a9a4a", MUTED]
        for j, (label, vals) in enumerate(series.items()):
            xs = [i + (j - (k - 1) / 2) * w for i in range(len(groups))]
            ax.bar(xs, vals, width=w, label=label, color=colours[j % len(colours)])
        ax.set_xticks(range(len(groups)), groups)
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        ax.grid(axis="y", color=GRID, lw=0.8)
        ax.set_axisbelow(True)
        ax.set_ylabel(ylabel)
        ax.legend(frameon=False, fontsize=8)
        ax.set_title(title, loc="left", fontsize=10, color=INK)
        return _svg(fig, name)
