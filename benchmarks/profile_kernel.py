"""Where a batch kernel spends its time, function by function: Linux `perf` samples of the
compiled code, named by the kernel's own generated functions.

    python benchmarks/profile_kernel.py taroky --agents rules --hands 400000
    python benchmarks/profile_kernel.py moon --annotate _hand     # and its hottest instructions

The script runs itself under `perf record`: the child compiles the kernel afresh into a
temporary cache (a kernel loaded from numba's cache keeps no function names), plays the hands,
then writes where each compiled function lies (numba's code library:
`get_pointer_to_function`), `/tmp/perf-<pid>.map` for `perf report` and a copy of each
function's bytes. The parent counts the samples that fall in each function. A function the
kernel inlines is part of its caller: what is listed is what numba compiled on its own (the
hand loop `_hand`, each `_..._at` body: the rules agent's decisions `_k_rules_at`, a kept
value `_c<N>_at`, a ruleset function `_u<N>_at`, the dispatchers `_k_..._at`). The compile
(up to a minute) is not sampled: the recording starts after it. Read docs/speed.md for the
names; `--annotate NAME` prints that function's hottest instructions (objdump) with their
samples. Needs `perf` (linux-tools) and `objdump` (binutils); exits 2 without them.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(REPO, "src"))  # run from a checkout without installing

# a generated function's symbol: the module's name (tablerules_batch_ and 20 hex digits), then
# the function's name by its length (Itanium mangling)
_MANGLED = re.compile(r"tablerules_batch_[0-9a-f]{20}(\d+)")


def _name(symbol: str) -> str:
    m = _MANGLED.search(symbol)
    if not m:
        return symbol[:60]
    k = int(m.group(1))
    return symbol[m.end():m.end() + k]


def _functions(module) -> list[tuple[int, str]]:
    """(address, name) of every function numba compiled for the kernel's entry points, sorted."""
    found = {}
    for f in vars(module).values():
        for cres in (getattr(f, "overloads", None) or {}).values():
            lib = cres.library
            for fn in lib._final_module.functions:
                if fn.is_declaration:
                    continue
                addr = lib.get_pointer_to_function(fn.name)
                if addr:
                    found[addr] = _name(fn.name)
    return sorted(found.items())


def _readable() -> list[tuple[int, int]]:
    out = []
    with open("/proc/self/maps") as fh:
        for line in fh:
            span, perms = line.split()[:2]
            if perms.startswith("r"):
                lo, hi = (int(x, 16) for x in span.split("-"))
                out.append((lo, hi))
    return out


def child(a) -> None:
    """Compile, signal the parent to start recording, play, write the symbol table."""
    import random

    from tablerules.agents import make_agent
    from tablerules.batch import compile_batch
    from tablerules.game import load_game

    g = load_game(a.ruleset, dict(o.split("=", 1) for o in a.option), typed=True).definition
    agents = [make_agent("rules", random.Random(0), g)] if a.agents == "rules" else None
    t0 = time.perf_counter()
    batch = compile_batch(g, agents)
    print(f"compiled in {time.perf_counter() - t0:.1f}s", file=sys.stderr, flush=True)
    chunk = min(a.hands, 20000)
    batch.play(chunk, 0)  # warm: the buffers faulted in before the samples count
    with open(a.ready, "w") as fh:
        fh.write("ready")
    go = a.ready + ".go"  # written by the parent once `perf record` has attached
    wait = time.monotonic() + 60
    while not os.path.exists(go) and time.monotonic() < wait:
        time.sleep(0.02)
    t0 = time.perf_counter()
    done = 0
    while done < a.hands:
        batch.play(min(chunk, a.hands - done), 1 + done)
        done += chunk
    dt = time.perf_counter() - t0
    funcs = _functions(batch.module)
    spans = _readable()
    table, perf_map = [], []
    for i, (addr, name) in enumerate(funcs):
        end = funcs[i + 1][0] if i + 1 < len(funcs) else addr + 65536
        mapped = [hi for lo, hi in spans if lo <= addr < hi]
        if not mapped:
            continue
        size = min(end - addr, 1 << 20, mapped[0] - addr)
        table.append({"name": name, "addr": addr, "size": size,
                      "code": ctypes.string_at(addr, size).hex() if a.annotate == name else ""})
        perf_map.append(f"{addr:x} {size:x} {name}\n")
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as fh:
        fh.writelines(perf_map)
    with open(a.table, "w") as fh:
        json.dump({"functions": table, "hands": a.hands, "seconds": dt}, fh)


def _annotate(fn: dict, hits: dict, top: int) -> list[str]:
    with tempfile.NamedTemporaryFile(suffix=".bin") as f:
        f.write(bytes.fromhex(fn["code"]))
        f.flush()
        dis = subprocess.run(["objdump", "-D", "-b", "binary", "-m", "i386:x86-64",
                              f"--adjust-vma={fn['addr']:#x}", "--no-show-raw-insn", f.name],
                             capture_output=True, text=True, check=True).stdout
    rows = []
    for line in dis.splitlines():
        m = re.match(r"\s*([0-9a-f]+):\s*(.*)", line)
        if m:
            rows.append((hits.get(int(m.group(1), 16), 0), m.group(1), m.group(2)))
    best = sorted(range(len(rows)), key=lambda i: -rows[i][0])[:top]
    return [f"{rows[i][0]:7d}  {rows[i][1]}  {rows[i][2]}" for i in sorted(best)]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("ruleset", help="a built-in ruleset's name or a ruleset file")
    ap.add_argument("--agents", choices=("random", "rules"), default="random",
                    help="every seat's agent (rules: the ruleset's strategy)")
    ap.add_argument("--option", "-o", action="append", default=[], help="an option, name=value")
    ap.add_argument("--hands", type=int, default=200000, help="hands played while sampled")
    ap.add_argument("--frequency", type=int, default=5000, help="samples a second (perf -F)")
    ap.add_argument("--annotate", metavar="NAME",
                    help="also print this function's hottest instructions")
    ap.add_argument("--top", type=int, default=40, help="how many instructions --annotate shows")
    ap.add_argument("--json", action="store_true", help="print the shares as one JSON line too")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--ready", help=argparse.SUPPRESS)
    ap.add_argument("--table", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.hands < 1 or a.frequency < 1 or a.top < 1:
        ap.error("--hands, --frequency and --top are at least 1")
    bad = [o for o in a.option if "=" not in o]
    if bad:
        ap.error(f"an option is name=value, got {bad[0]!r}")
    if a.child:
        from tablerules.batch import NotBatchable
        from tablerules.errors import TablerulesError

        try:
            child(a)
        except NotBatchable as e:  # a part the batch engine has no form of
            print(f"error: the batch engine cannot play this ruleset: {e}", file=sys.stderr)
            return 1
        except TablerulesError as e:  # a ruleset or option that does not load, numba missing
            print(f"error: {e}", file=sys.stderr)
            return 1
        return 0
    missing = [t for t in ("perf",) + (("objdump",) if a.annotate else ()) if not shutil.which(t)]
    if missing:
        print(f"error: profile_kernel.py needs {' and '.join(missing)} (Debian: linux-perf, "
              "binutils)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        ready, table, data = (os.path.join(tmp, x) for x in ("ready", "table.json", "perf.data"))
        env = dict(os.environ, TABLERULES_CACHE=os.path.join(tmp, "cache"),
                   NUMBA_CACHE_DIR=os.path.join(tmp, "numba"))
        cmd = [sys.executable, os.path.abspath(__file__), a.ruleset, "--agents", a.agents,
               "--hands", str(a.hands), "--child", "--ready", ready, "--table", table]
        cmd += [x for o in a.option for x in ("--option", o)]
        if a.annotate:
            cmd += ["--annotate", a.annotate]
        proc = subprocess.Popen(cmd, env=env)
        while not os.path.exists(ready):
            if proc.poll() is not None:
                print("error: the kernel was not compiled and played (above)", file=sys.stderr)
                return 1
            time.sleep(0.1)
        rec = subprocess.Popen(["perf", "record", "-q", "-F", str(a.frequency), "-p",
                                str(proc.pid), "-o", data], stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
        wait = time.monotonic() + 30
        while not os.path.exists(data) and rec.poll() is None and time.monotonic() < wait:
            time.sleep(0.02)
        time.sleep(0.2)  # perf writes its file's head as it attaches
        with open(ready + ".go", "w") as fh:
            fh.write("go")
        code = proc.wait()
        rec.wait()
        if code != 0 or not os.path.exists(table):
            print("error: the kernel's run failed (above)", file=sys.stderr)
            return 1
        if rec.returncode not in (0, None) or not os.path.exists(data):
            print(f"error: perf record failed: {rec.stderr.read().strip()[-400:]}"
                  " (perf_event_paranoid may forbid it: sysctl kernel.perf_event_paranoid=1)",
                  file=sys.stderr)
            return 1
        ips = subprocess.run(["perf", "script", "-i", data, "-F", "ip"], capture_output=True,
                             text=True).stdout.split()
        info = json.load(open(table))
    counts: dict[int, int] = {}
    for x in ips:
        ip = int(x, 16)
        counts[ip] = counts.get(ip, 0) + 1
    total = sum(counts.values())
    funcs = info["functions"]
    per = []
    for fn in funcs:
        lo, hi = fn["addr"], fn["addr"] + fn["size"]
        hits = {ip: c for ip, c in counts.items() if lo <= ip < hi}
        per.append((sum(hits.values()), fn, hits))
    kernel = sum(s for s, _, _ in per)
    us = info["seconds"] / info["hands"] * 1e6
    print(f"{a.ruleset}, {a.agents} agents: {info['hands']} hands, {us:.2f} µs a hand; "
          f"{total} samples, {kernel} in the kernel ({100 * kernel / max(total, 1):.0f}%)")
    by_name: dict[str, int] = {}  # numba's wrappers of a function demangle to its name too
    for s, fn, _ in per:
        by_name[fn["name"]] = by_name.get(fn["name"], 0) + s
    shares = {}
    for name, s in sorted(by_name.items(), key=lambda x: -x[1]):
        if s and 100 * s / max(kernel, 1) >= 0.1:
            shares[name] = round(100 * s / kernel, 1)
            print(f"  {100 * s / kernel:5.1f}%  {name}")
    mine = [p for p in per if p[1]["name"] == a.annotate]
    if mine:
        s, fn, hits = max(mine, key=lambda p: p[0])
        print(f"\n{fn['name']} ({s} samples): its {a.top} hottest instructions, in address order")
        print("\n".join(_annotate(fn, hits, a.top)))
    elif a.annotate:
        print(f"\n{a.annotate}: no such function compiled on its own", file=sys.stderr)
    if a.json:
        print(json.dumps({"ruleset": a.ruleset, "agents": a.agents, "hands": info["hands"],
                          "us_per_hand": round(us, 3), "samples": total,
                          "kernel_samples": kernel, "shares": shares}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
