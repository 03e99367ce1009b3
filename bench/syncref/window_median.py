"""window.sh's join of its rounds: per test, the median over the rounds of
the reference's CPU time (exo_timing.py's records, ref-R.jsonl) and of
Weft's (weftime's columns, weft-R.tsv).

Writes OUT/ref-median.jsonl and OUT/weft-median.tsv in the forms table.py
reads, and OUT/rounds.txt: each round's ratio per test, reference over
Weft's whole check. A verdict that differs between rounds is an error:
the median would mix two different checks.

Usage: python3 window_median.py OUT ROUNDS
"""

import json
import statistics
import sys


def key(e):
    return (e["node"], json.dumps(e["args"], sort_keys=True))


def main(out, rounds):
    rounds = int(rounds)
    refs, wefts = [], []
    for r in range(1, rounds + 1):
        recs = [json.loads(l) for l in open(f"{out}/ref-{r}.jsonl")]
        refs.append(recs)
        rows = {}
        for line in open(f"{out}/weft-{r}.tsv"):
            f = line.rstrip("\n").split("\t")
            rows[int(f[0])] = f[1:]
        wefts.append(rows)
    order = [key(e) for e in refs[0]]
    by = {}
    for r, recs in enumerate(refs):
        for e in recs:
            by.setdefault(key(e), []).append(e)
    with open(f"{out}/ref-median.jsonl", "w") as f:
        for k in order:
            es = by[k]
            if len({e["verdict"] for e in es}) != 1:
                sys.exit(f"window_median: {k[0]}: the reference's verdict differs between rounds")
            e = dict(es[0])
            e["cpu_s"] = statistics.median(x["cpu_s"] for x in es)
            e["rounds"] = [x["cpu_s"] for x in es]
            f.write(json.dumps(e) + "\n")
    rows = sorted(set().union(*[set(w) for w in wefts]))
    with open(f"{out}/weft-median.tsv", "w") as f:
        for i in rows:
            rs = [w[i] for w in wefts if i in w]
            if len({x[1] for x in rs}) != 1:
                sys.exit(f"window_median: row {i}: Weft's verdict differs between rounds")
            rc, verdict, first = rs[0][0], rs[0][1], rs[0][2]
            med = statistics.median(float(x[3]) for x in rs)
            back = statistics.median(float(x[4]) for x in rs)
            f.write(f"{i}\t{rc}\t{verdict}\t{first}\t{med:.6f}\t{back:.6f}\n")
    # Each round's ratios, in map order: the i-th Weft row stands for the
    # i-th reference record with its test's name (run.sh's pairing).
    names = []
    for line in open("bench/syncref/map.tsv"):
        if not line.startswith("#"):
            names.append(line.split("\t")[0])
    with open(f"{out}/rounds.txt", "w") as f:
        f.write("per round, reference / Weft (whole check): test | round 1 .. %d | min\n" % rounds)
        for i in rows:
            ratios = []
            for r in range(rounds):
                w = wefts[r].get(i)
                same = [e for e in refs[r] if e["node"].split("::")[-1] == names[i]]
                # the n-th row of this name pairs with the n-th record
                nth = sum(1 for j in rows if j < i and names[j] == names[i])
                if w is None or nth >= len(same):
                    continue
                ratios.append(same[nth]["cpu_s"] / float(w[3]))
            if ratios:
                f.write(f"{names[i]} | " + " ".join(f"{x:.0f}x" for x in ratios) + f" | {min(ratios):.0f}x\n")
        # The core's speed around each phase (calib, millions of dependent
        # multiply-adds a CPU second), where window.sh measured it.
        speeds = []
        for r in range(1, rounds + 1):
            try:
                c = dict(l.rstrip("\n").split("\t") for l in open(f"{out}/calib-{r}.tsv"))
            except OSError:
                continue
            speeds.append((r, c))
        if speeds:
            f.write("\ncore speed (bench/syncref/calib, M steps/s; 4 cycles a step): round | reference before, after | Weft before, after\n")
            for r, c in speeds:
                f.write(f"{r} | {c.get('ref-before', '-')}, {c.get('ref-after', '-')} | {c.get('weft-before', '-')}, {c.get('weft-after', '-')}\n")


if __name__ == "__main__":
    main(*sys.argv[1:])
