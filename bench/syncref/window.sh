#!/usr/bin/env bash
# bench/syncref/window.sh: the reference and Weft timed in the same window
# (issue 13), for a selection of the reference's sync tests.
#
# Why: run.sh -weft-only divides Weft's time today by the reference's time
# recorded on another day (bench/syncref/results/ref-*.jsonl, one call per
# test). This machine's speed moves by 15-20% between days and within an
# hour (stop 38: the same binary ran bimodally, up to 2x), and it moves the
# reference's times with it: the three-ring rows' reference calls took
# 15.5 / 11.8 / 11.4 ms on 28 Nov 19:15 UTC against 15.1 / 10.8 / 10.2 ms
# recorded on 27 Nov. A ratio is only as good as its two times' window.
# This script alternates the two: each round runs the reference's pytest
# on the selected tests (a fresh process, the tests in their files' order,
# so the same warm-up falls on the same first test as in run.sh), then
# weftime on the Weft programs standing for them; after ROUNDS rounds each
# side's time per test is the median over the rounds, and table.py joins
# them as run.sh does.
#
# Usage: bench/syncref/window.sh [-n ROUNDS] [-k PYTEST_EXPR] [TEST_FILE...]
#   ROUNDS: 5 by default. PYTEST_EXPR and TEST_FILEs (under the
#   reference's tests/cuda/) default to the small kernels, the rows
#   closest to the 100x goal: the three-ring mbarrier tests, the per-CTA
#   allocation tests, rmem_uniform and shfl_xor (about 13 s of reference a
#   round on this machine). The setup is run.sh's (EXO_SRC, EXO_VENV,
#   CAMSPORK_JIT_DIR, CPU; WEFTIME_FLAGS).
# Prints run.sh's table over the selected tests, then each round's ratio
# per test (reference over Weft, whole check), so that a round the machine
# disturbed shows as one, and the core's speed around each phase of each
# round (bench/syncref/calib: millions of dependent multiply-adds a second
# of CPU time; stop 41 saw it move by a third within seconds), and last
# the bytes each Weft check allocates (weftime -bytes).
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=5
expr="3cycle or per_cta or rmem_uniform or shfl_xor"
while [ $# -gt 0 ]; do
  case "$1" in
    -n) rounds=$2; shift 2 ;;
    -k) expr=$2; shift 2 ;;
    *) break ;;
  esac
done
files=("$@")
[ ${#files[@]} -gt 0 ] || files=(test_3cycle_mbarrier.py test_coll_units.py test_simple_cuda.py)
EXO_SRC=${EXO_SRC:-/tmp/exo}
EXO_VENV=${EXO_VENV:-/tmp/exovenv}
export CAMSPORK_JIT_DIR=${CAMSPORK_JIT_DIR:-/tmp/exojit}
CPU=${CPU:-0}
out=bench/out/syncref/window
rm -rf "$out"
mkdir -p "$out"
here=$PWD/bench/syncref
# As `go build ./cmd/weft` builds the weft command (without a PGO
# profile since stop 41: scripts/pgo.sh): the figures are of the binary
# users run.
go build -o "$out/weftime" ./bench/syncref/weftime
go build -o "$out/calib" ./bench/syncref/calib
calib() { printf '%s\t%s\n' "$1" "$(taskset -c "$CPU" "$out/calib")" >> "$out/calib-$r.tsv"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
paths=()
for f in "${files[@]}"; do paths+=("tests/cuda/$f"); done

# The Weft programs of map.tsv, written once: row index -> file and args.
i=0
grep -v '^#' bench/syncref/map.tsv | while IFS=$'\t' read -r name sizes file chunk wargs sedscript note; do
  if [ "$file" != "-" ]; then
    f=$tmp/$i.weft
    if [ "$chunk" = 0 ]; then cp "$file" "$f"
    else awk -v n="$chunk" 'BEGIN{RS="\n---\n"} NR==n{print}' "$file" > "$f"; fi
    if [ "$sedscript" != "-" ]; then sed -i "$sedscript" "$f"; fi
    [ "$wargs" = "-" ] && wargs=""
    printf '%s\t%s\t%s\t%s\n' "$i" "$name" "$sizes" "$wargs" >> "$tmp/rows.tsv"
  fi
  i=$((i + 1))
done

for r in $(seq 1 "$rounds"); do
  echo "== round $r: reference ($expr)" >&2
  : > "$out/calib-$r.tsv"
  calib ref-before
  (cd "$EXO_SRC" && PATH=$EXO_VENV/bin:$PATH PYTHONPATH=$here SYNCREF_OUT=$here/../out/syncref/window/ref-$r.jsonl \
    taskset -c "$CPU" pytest -p exo_timing -p no:cacheprovider -q "${paths[@]}" -k "$expr" \
    >"$here/../out/syncref/window/pytest-$r.log" 2>&1) || true
  [ -s "$out/ref-$r.jsonl" ] || { echo "window.sh: the reference recorded nothing (see $out/pytest-$r.log)" >&2; exit 1; }
  calib ref-after
  echo "== round $r: Weft" >&2
  calib weft-before
  : > "$out/weft-$r.tsv"
  # Only the rows whose test the reference ran this round.
  while IFS=$'\t' read -r i name sizes wargs; do
    grep -q "::$name\"" "$out/ref-$r.jsonl" || continue
    # shellcheck disable=SC2086
    printf '%s\t%s\n' "$i" "$(GOMAXPROCS=1 taskset -c "$CPU" "$out/weftime" ${WEFTIME_FLAGS--min-cpu 0.5s} "$tmp/$i.weft" $wargs)" >> "$out/weft-$r.tsv"
  done < "$tmp/rows.tsv"
  calib weft-after
done
echo "load: $(cat /proc/loadavg) on $(nproc) CPUs" >&2
python3 bench/syncref/window_median.py "$out" "$rounds"
python3 bench/syncref/table.py --ran-only bench/syncref/map.tsv "$out/ref-median.jsonl" "$out/weft-median.tsv"
echo
cat "$out/rounds.txt"
# The bytes each check allocates (weftime -bytes: exact counters, not
# timed): stop 45 found a byte allocated costing ~0.14 ns of a check's time
# here, which instruction counts do not show.
echo
echo "bytes allocated per check (weftime -bytes 100): test | whole | sync_check's scope"
while IFS=$'\t' read -r i name sizes wargs; do
  grep -q "::$name\"" "$out/ref-1.jsonl" || continue
  # shellcheck disable=SC2086
  b=$(GOMAXPROCS=1 "$out/weftime" -reps 0 -bytes 100 "$tmp/$i.weft" $wargs 2>&1 >/dev/null | awk '/^bytes whole/{print $3 " | " $5}')
  [ "$sizes" = "-" ] && sizes=""
  echo "$name${sizes:+ $sizes} | $b"
done < "$tmp/rows.tsv"
