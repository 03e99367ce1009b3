#!/usr/bin/env bash
# bench/cudasamples/run.sh: NVIDIA's CUDA samples, as shipped, under the
# CUDA-C semantics (issue 15, "real programs, unmodified"). The samples are
# not part of Weft (their licence is NVIDIA's): point the script at a
# checkout of github.com/NVIDIA/cuda-samples. For every sample directory
# under the given categories it runs
#   weft run -I <checkout>/Common <every .cu and .cpp of the directory>
# from inside the directory (samples read their data files relative to
# it), with a wall-clock limit, and prints one line: the sample, `ok` (exit
# status 0) or `fail` with the first diagnostic, or `timeout`; then counts.
# usage: bench/cudasamples/run.sh CHECKOUT [CATEGORY...]
#   CATEGORY defaults to 0_Introduction 2_Concepts_and_Techniques
#   3_CUDA_Features 5_Domain_Specific 6_Performance
# environment: WEFT (bin/weft), T (seconds per sample, default 60),
#   WEFT_FLAGS (extra flags for weft run, e.g. --max-steps=...)
set -uo pipefail
[ $# -ge 1 ] || { echo "usage: bench/cudasamples/run.sh CHECKOUT [CATEGORY...]" >&2; exit 2; }
root=$(cd "$1" && pwd); shift
cats=("$@"); [ ${#cats[@]} -gt 0 ] || cats=(0_Introduction 2_Concepts_and_Techniques 3_CUDA_Features 5_Domain_Specific 6_Performance)
cd "$(dirname "$0")/../.." || exit 2
WEFT=$(cd "$(dirname "${WEFT:-bin/weft}")" && pwd)/$(basename "${WEFT:-bin/weft}")
[ -x "$WEFT" ] || { echo "run.sh: no weft binary at $WEFT" >&2; exit 2; }
ok=0 fail=0 to=0
for c in "${cats[@]}"; do
  for d in "$root"/Samples/"$c"/*/; do
    srcs=$(cd "$d" && ls *.cu *.cpp 2>/dev/null | tr '\n' ' ')
    [ -n "$srcs" ] || continue
    n="$c/$(basename "$d")"
    err=$(cd "$d" && timeout "${T:-60}" "$WEFT" run ${WEFT_FLAGS:-} -I "$root/Common" $srcs 2>&1 >/dev/null); rc=$?
    if [ $rc = 0 ]; then ok=$((ok+1)); echo "$n: ok"
    elif [ $rc = 124 ]; then to=$((to+1)); echo "$n: timeout (${T:-60} s)"
    else fail=$((fail+1)); echo "$n: fail: $(echo "$err" | grep -m1 -E '(error|warning)\[' | sed "s|^$root/||" | cut -c1-220)"
    fi
  done
done
echo "ok $ok  fail $fail  timeout $to"
