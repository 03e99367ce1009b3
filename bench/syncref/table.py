"""Joins the reference's records (exo_timing.py's JSON lines), Weft's
(run.sh's TSV) and map.tsv into the Markdown table run.sh prints.

Usage: python3 table.py [--ran-only] map.tsv ref.jsonl weft.tsv
  --ran-only: only the tests the reference ran (window.sh's selections).
"""

import json
import statistics
import sys


def sizes_key(args):
    return " ".join(f"{k}={args[k]}" for k in sorted(args)) or "-"


def main(map_path, ref_path, weft_path, ran_only=False):
    ref = {}
    for line in open(ref_path):
        e = json.loads(line)
        name = (e["node"] or "").split("::")[-1]
        ref.setdefault((name, sizes_key(e["args"])), []).append(e)
    weft = {}
    for line in open(weft_path):
        row = line.rstrip("\n").split("\t")
        weft[int(row[0])] = row[1:]
    print("| test | sizes | reference verdict | Weft verdict | reference s | Weft s | ratio | Weft s, sync_check's scope | ratio | note |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    agree = disagree = 0
    ratios = []
    # The second pair of columns times Weft's check after its front end
    # (parse, check.Check), the part that the reference's figure covers:
    # Exo parses, type checks and bounds checks a procedure at @proc, and
    # Procedure.sync_check runs only its backend checks and camspork
    # (exo/API.py; weftime's last column).
    bratios = []
    n = 0
    for i, line in enumerate(l for l in open(map_path) if not l.startswith("#")):
        name, sizes, wfile, _chunk, _wargs, _sed, note = line.rstrip("\n").split("\t")
        recs = ref.get((name, sizes), [])
        if recs:
            r = recs.pop(0)
            rv = "accepted" if r["verdict"] == "accepted" else "rejected: " + r["verdict"].split(":", 1)[0] + ":" + r["verdict"].split(":", 1)[1][:40]
            rs = r["cpu_s"]
        else:
            if ran_only:
                continue
            rv, rs = "(not run)", None
        w = weft.get(i)
        bs = None
        if w:
            _rc, wv, _first, wmed = w[:4]
            ws = float(wmed)
            if len(w) > 4 and float(w[4]) > 0:
                bs = float(w[4])
            wv = wv if wv == "accepted" else "rejected: " + wv
        else:
            wv, ws = "(none)", None
        ratio = bratio = ""
        if bs is not None and rs is not None:
            bratio = f"{rs / bs:.0f}x" if rs / bs >= 10 else f"{rs / bs:.2f}x"
            bratios.append(rs / bs)
        if w and rs is not None:
            ratio = (f"{rs / ws:.0f}x" if rs / ws >= 10 else f"{rs / ws:.2f}x") if ws > 0 else "inf"
            ratios.append(rs / ws if ws > 0 else float("inf"))
            if (rv == "accepted") == (wv == "accepted"):
                agree += 1
            else:
                disagree += 1
                note = ("**verdicts differ**; " + note).rstrip("; ")
        n += 1
        # four decimals, or three significant digits below 0.01 s (a
        # small kernel's check is 0.0001-0.0005 s)
        fmt = lambda s: "" if s is None else (f"{s:.4f}" if s >= 0.01 else f"{s:.3g}")
        print(f"| {name} | {sizes} | {rv} | {wv} | {fmt(rs)} | {fmt(ws)} | {ratio} | {fmt(bs)} | {bratio} | {note} |")
    print()
    print(f"{n} reference sync checks; {agree + disagree} with a Weft program: "
          f"{agree} verdicts agree, {disagree} differ; {n - agree - disagree} without one.")
    if ratios:
        print(f"ratio reference/Weft CPU time: min {min(ratios):.1f}x, median {statistics.median(ratios):.1f}x, "
              f"max {max(ratios):.1f}x; below 100x: {sum(1 for r in ratios if r < 100)}; below 1x: {sum(1 for r in ratios if r < 1)}")
    if bratios:
        print(f"the same, Weft timed in sync_check's scope (after parse and check.Check): min {min(bratios):.1f}x, "
              f"median {statistics.median(bratios):.1f}x, max {max(bratios):.1f}x; below 100x: {sum(1 for r in bratios if r < 100)}")


if __name__ == "__main__":
    args = sys.argv[1:]
    ran_only = "--ran-only" in args
    main(*[a for a in args if a != "--ran-only"], ran_only=ran_only)
