#!/usr/bin/env bash
# bench/gpu/cudac.sh: the CUDA-C semantics against a real GPU (issue 15,
# "the same bytes"). Run ON a GPU machine from the repository root with a
# prebuilt bin/weft (no Go there; see README.md). It takes every runnable
# program of the CUDA-C corpus:
#   * each case of lang/cudac/sem/testdata/*.cu (cases are separated by
#     "// ---- name") that has a main, expects no diagnostic (no // ERROR,
#     // WARN) and takes no // FLAGS:;
#   * every examples/cuda/*.cu with a main;
# a program with a line "// GPU: differs (reason)" prints what the
# semantics models but a GPU does not reproduce (elapsed times, poll
# counts, the virtual clock and machine): it is compiled, not run, and
# listed as `differs` with the reason;
# and for each one
#   1. runs `weft check` on it: a program the semantics reports (an error
#      or warning: a race, a deadlock, undefined behaviour) has no defined
#      output, so it is skipped (`skip-ub`); a program that only exits with
#      a non-zero status is compared;
#   2. runs `weft run` (stdout and exit status) and the nvcc-compiled
#      program, both with an empty standard input, on the GPU (sm_90a, -fmad=false: the semantics rounds
#      a*b+c twice, as written), and compares stdout byte for byte and the
#      exit status.
# usage: bench/gpu/cudac.sh [-j N]
# environment: WEFT (bin/weft), NVCC (nvcc on PATH, else
#   /usr/local/cuda/bin/nvcc), NVCC_FLAGS (extra flags), BENCH_OUT
#   (bench/gpu/out-cudac), RUN_TIMEOUT (seconds per program, default 60)
# Output: one line per program (match / MISMATCH / differs / skip-ub /
# nvcc-fail / gpu-fail), then the counts, then the full diff of every
# MISMATCH; exit 1 when any program mismatched. Each MISMATCH also keeps
# both outputs under $OUT/mismatch/ID/ (the program, weft's and the GPU's
# stdout and stderr, and the diff), so that a run records the differing
# lines, not only their count.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
jobs=8
while [ $# -gt 0 ]; do
  case $1 in
    -j) jobs=$2; shift ;;
    *) echo "usage: bench/gpu/cudac.sh [-j N]" >&2; exit 2 ;;
  esac
  shift
done
WEFT=${WEFT:-bin/weft}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
OUT=${BENCH_OUT:-bench/gpu/out-cudac}
T=${RUN_TIMEOUT:-60}
[ -x "$WEFT" ] || { echo "cudac.sh: no weft binary at $WEFT" >&2; exit 2; }
rm -rf "$OUT" && mkdir -p "$OUT/cases"
OUT=$(cd "$OUT" && pwd)
WEFT=$(cd "$(dirname "$WEFT")" && pwd)/$(basename "$WEFT")
TD=$(pwd)/lang/cudac/sem/testdata
# the cases include "include/x.h" relative to their file: search the testdata directory
INCS="-I $TD -I $TD/include"

# Split the testdata files into one file per case; keep those that can run.
for f in lang/cudac/sem/testdata/*.cu; do
  base=$(basename "$f" .cu)
  awk -v dir="$OUT/cases" -v base="$base" '
    function flush() { if (n > 0 && body ~ /int main/ && body !~ /\/\/ (ERROR|WARN|NOTE)/ && body !~ /\/\/ (FLAGS|MODE):/) {
        fn = sprintf("%s/%s_%02d.cu", dir, base, n); printf "%s", body > fn; close(fn); print name > (fn ".name"); close(fn ".name") } }
    /^\/\/ ---- / { flush(); n++; name = substr($0, 9); body = ""; next }
    { body = body $0 "\n" }
    END { flush() }' "$f"
done
for f in examples/cuda/*.cu; do
  grep -q "int main" "$f" && cp "$f" "$OUT/cases/example_$(basename "$f")"
done

one() {
  c=$1; b=${c%.cu}; id=$(basename "$b")
  (cd "$(dirname "$c")" && timeout "$T" "$WEFT" check $INCS "$c" >"$b.check" 2>&1)
  if grep -Eq '(error|warning)\[C[0-9]+\]' "$b.check"; then
    echo "$id: skip-ub ($(grep -o 'C0[0-9]*' "$b.check" | sort -u | tr '\n' ' '))"; return
  fi
  (cd "$(dirname "$c")" && timeout "$T" "$WEFT" run $INCS "$c" </dev/null >"$b.sem" 2>"$b.sem.err"); rs=$?
  lcuda=; grep -q 'cuTensorMap\|cuGetProcAddress\|<cuda\.h>' "$c" && lcuda=-lcuda
  # dynamic parallelism (a launch in device code) needs relocatable device
  # code: compiled again with -rdc=true when nvcc asks for it
  if ! "$NVCC" -gencode arch=compute_90a,code=sm_90a -fmad=false $INCS ${NVCC_FLAGS:-} -o "$b.bin" "$c" $lcuda >"$b.nvcc" 2>&1 &&
     ! { grep -q 'requires separate compilation' "$b.nvcc" &&
         "$NVCC" -gencode arch=compute_90a,code=sm_90a -fmad=false -rdc=true $INCS ${NVCC_FLAGS:-} -o "$b.bin" "$c" $lcuda -lcudadevrt >"$b.nvcc" 2>&1; }; then
    echo "$id: nvcc-fail ($(grep -m1 -o 'error.*' "$b.nvcc"))"; return
  fi
  if grep -q '// GPU: differs' "$c"; then
    echo "$id: differs as expected ($(grep -m1 -o '// GPU: differs.*' "$c" | sed 's|// GPU: differs ||'))"; return
  fi
  (cd "$(dirname "$c")" && timeout "$T" "$b.bin" </dev/null >"$b.gpu" 2>"$b.gpu.err"); rg=$?
  if [ $rg -ge 124 ] && [ $rg -le 137 ]; then echo "$id: gpu-fail (status $rg)"; return; fi
  if cmp -s "$b.sem" "$b.gpu" && [ $rs = $rg ]; then
    echo "$id: match ($(wc -l <"$b.gpu") lines, status $rg)"
  else
    echo "$id: MISMATCH (status weft $rs, gpu $rg; $(diff "$b.sem" "$b.gpu" | grep -c '^[<>]') differing lines)"
    keep="$OUT/mismatch/$id"; mkdir -p "$keep"
    cp "$c" "$keep/program.cu"
    cp "$b.sem" "$keep/weft.out"; cp "$b.sem.err" "$keep/weft.err"
    cp "$b.gpu" "$keep/gpu.out"; cp "$b.gpu.err" "$keep/gpu.err"
    { echo "status weft $rs, gpu $rg"; diff "$b.sem" "$b.gpu"; } > "$keep/diff.txt"
  fi
}
export -f one; export WEFT NVCC T INCS NVCC_FLAGS
ls "$OUT"/cases/*.cu | xargs -P "$jobs" -I{} bash -c 'one {}' | sort > "$OUT/summary.txt"
cat "$OUT/summary.txt"
for k in match MISMATCH differs skip-ub nvcc-fail gpu-fail; do printf '%s %d  ' "$k" "$(grep -c ": $k" "$OUT/summary.txt")"; done; echo
# the differing lines of each mismatch (< weft, > GPU), in program order
for d in "$OUT"/mismatch/*/diff.txt; do
  [ -f "$d" ] || continue
  echo "== $(basename "$(dirname "$d")") (weft <, GPU >)"
  sed 's/^/    /' "$d"
done
! grep -q ": MISMATCH" "$OUT/summary.txt"
