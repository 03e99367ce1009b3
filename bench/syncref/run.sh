#!/usr/bin/env bash
# bench/syncref/run.sh: Weft's sync checker against the reference
# implementation (Exo-GPU's sync_check, its C++ "camspork" core) on every
# sync check of the reference's test suite (issue 13). Not run in CI: it
# needs the reference's source, a Python venv and a C++ compiler.
#
# Prints: test | sizes | reference verdict | Weft verdict | reference s |
# Weft s | ratio | Weft s in sync_check's scope | ratio | note, then the
# counts. Both times are CPU seconds of
# one check inside a running process, one core (taskset -c $CPU):
#   reference: Procedure.sync_check (its static checks and camspork run;
#     time.process_time) in the pytest process, recorded by exo_timing.py
#     (the tests that need a GPU fixture by exo_gpu_tests.py: the same
#     procedures and sizes); libcamspork is built beforehand, not timed.
#   Weft: `weft check` (parse, static checks, sync check; getrusage) in
#     weftime, GOMAXPROCS=1: the median of the runs after a first one,
#     at least 5 and until they add up to 0.5 s of CPU (-min-cpu 0.5s).
#     The reference's figure is one check in a pytest process that has
#     already run the tests before it (warm caches, heap and imports);
#     the median of a long series is Weft in the same state. Until stop
#     27 the figure was the median of 5 runs, which on the smallest
#     kernels still counts a fresh process's page faults and heap growth
#     (per_cta_alloc: 0.2-0.3 ms after 5 runs, 0.11 ms steady);
#     WEFTIME_FLAGS="-min-cpu 0" gives that figure again.
#     weftime turns the runtime's allocation sampling off unless
#     -memprofile is given: the weft command does not link runtime/pprof,
#     so the Go linker turns it off there (stop 34; before, weftime's
#     figure counted a sampled stack walk every 512 KB allocated).
#   Weft in sync_check's scope: the same runs, timed from the end of the
#     front end (parse and check.Check: names, types, static bounds) to
#     the end of the check. The reference's timed call does not parse or
#     type check: Exo's @proc has done that (exo/API.py: Procedure's
#     constructor runs TypeChecker, CheckBounds and Check_Aliasing;
#     sync_check runs run_backend_checks and top_level_check). Both
#     figures are printed; the first counts more work than the
#     reference's.
# map.tsv says which Weft program stands for each test (or none, and why).
#
# Setup (once; about 5 minutes):
#   # the mirror lacks some large blobs (apps/, libcamspork.so), so copy
#   # the tree blob by blob, skipping apps/:
#   git -C /work/.mirror/exo-lang+exo/repo ls-tree -r akeley98/endgame |
#     grep -v -P '\tapps/' | while IFS=$'\t' read -r meta path; do
#       set -- $meta; [ "$2" = blob ] || continue
#       mkdir -p "/tmp/exo/$(dirname "$path")"
#       git -C /work/.mirror/exo-lang+exo/repo cat-file blob $3 > "/tmp/exo/$path" || rm -f "/tmp/exo/$path"
#     done
#   python3.11 -m venv /tmp/exovenv
#   /tmp/exovenv/bin/pip install PySMT asdl-adt==0.1.0 asdl==0.1.5 yapf z3-solver pytest ninja numpy
#   /tmp/exovenv/bin/pip install --no-deps -e /tmp/exo
#   PATH=/tmp/exovenv/bin:$PATH CAMSPORK_JIT_DIR=/tmp/exojit python /tmp/exo/src/exo/spork/camspork/jit.py
#
# Usage: bench/syncref/run.sh [-weft-only]   (-weft-only reuses bench/out/syncref/ref.jsonl; a recorded
#   reference run to copy there: bench/syncref/results/ref-2026-11-27-stop31.jsonl)
# Environment: EXO_SRC (/tmp/exo), EXO_VENV (/tmp/exovenv), CAMSPORK_JIT_DIR (/tmp/exojit), CPU (0),
#   WEFTIME_FLAGS (weftime flags, default "-min-cpu 0.5s"; e.g. add
#   "-stat mean": the mean counts the garbage collections that a median
#   can leave out).
set -euo pipefail
cd "$(dirname "$0")/../.."
EXO_SRC=${EXO_SRC:-/tmp/exo}
EXO_VENV=${EXO_VENV:-/tmp/exovenv}
export CAMSPORK_JIT_DIR=${CAMSPORK_JIT_DIR:-/tmp/exojit}
CPU=${CPU:-0}
out=bench/out/syncref
mkdir -p "$out"
here=$PWD/bench/syncref

if [ "${1:-}" != "-weft-only" ]; then
  : > "$out/ref.jsonl"
  files=$(cd "$EXO_SRC" && grep -l 'sync_check(' tests/cuda/*.py)
  echo "== reference: pytest $files" >&2
  (cd "$EXO_SRC" && PATH=$EXO_VENV/bin:$PATH PYTHONPATH=$here SYNCREF_OUT=$here/../out/syncref/ref.jsonl \
    taskset -c "$CPU" pytest -p exo_timing -p no:cacheprovider -q $files >"$here/../out/syncref/pytest.log" 2>&1) || true
  echo "== reference: GPU-fixture tests" >&2
  (cd "$EXO_SRC/tests/cuda" && PATH=$EXO_VENV/bin:$PATH PYTHONPATH=$here:$EXO_SRC/src \
    SYNCREF_OUT=$here/../out/syncref/ref.jsonl taskset -c "$CPU" python "$here/exo_gpu_tests.py" \
    >"$here/../out/syncref/gpu.log" 2>&1)
fi

echo "== Weft" >&2
# As `go build ./cmd/weft` builds the weft command (without a PGO
# profile since stop 41: scripts/pgo.sh): the figures are of the binary
# users run.
go build -o "$out/weftime" ./bench/syncref/weftime
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: > "$out/weft.tsv"
i=0
grep -v '^#' bench/syncref/map.tsv | while IFS=$'\t' read -r name sizes file chunk wargs sedscript note; do
  if [ "$file" != "-" ]; then
    f=$tmp/$i.weft
    if [ "$chunk" = 0 ]; then cp "$file" "$f"
    else awk -v n="$chunk" 'BEGIN{RS="\n---\n"} NR==n{print}' "$file" > "$f"; fi
    if [ "$sedscript" != "-" ]; then sed -i "$sedscript" "$f"; fi
    [ "$wargs" = "-" ] && wargs=""
    # shellcheck disable=SC2086
    printf '%s\t%s\n' "$i" "$(GOMAXPROCS=1 taskset -c "$CPU" "$out/weftime" ${WEFTIME_FLAGS--min-cpu 0.5s} "$f" $wargs)" >> "$out/weft.tsv"
  fi
  i=$((i + 1))
done
echo "load: $(cat /proc/loadavg) on $(nproc) CPUs" >&2
python3 bench/syncref/table.py bench/syncref/map.tsv "$out/ref.jsonl" "$out/weft.tsv"
