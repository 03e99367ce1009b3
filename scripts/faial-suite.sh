#!/usr/bin/env bash
# Measures weft check on Faial's example kernels (issue 16 §3): files named
# drf-*.cu are race-free, racy-*.cu have a race. The examples are not part
# of this repository: pass their directory (Faial's examples/drf). Flags
# after the directory go to weft check; Faial looks for races inside one
# block by default, which --only-intra-group selects.
#   scripts/faial-suite.sh DIR [FLAGS...]
# Prints one line per file (exit status, codes reported), then the
# figures and the wall time.
set -u
dir=${1:?usage: faial-suite.sh DIR [FLAGS...]}
shift
weft=${WEFT:-bin/weft}
[ -x "$weft" ] || go build -o "$weft" ./cmd/weft || exit 2
start=$(date +%s.%N)
drf=0 accepted=0 falserace=0 racy=0 found=0
for f in "$dir"/drf-*.cu "$dir"/racy-*.cu; do
  [ -e "$f" ] || continue
  out=$(timeout 120 "$weft" check "$@" "$f" 2>&1 >/dev/null); rc=$?
  codes=$(printf '%s\n' "$out" | grep -o 'error\[C[0-9]*\]' | sort -u | tr '\n' ' ')
  name=$(basename "$f")
  echo "rc=$rc $name $codes"
  case "$name" in
  drf-*)
    drf=$((drf+1)); [ $rc -eq 0 ] && accepted=$((accepted+1))
    case "$codes" in *C0501*) falserace=$((falserace+1));; esac ;;
  racy-*)
    racy=$((racy+1)); case "$codes" in *C0501*) found=$((found+1));; esac ;;
  esac
done
end=$(date +%s.%N)
echo "race-free accepted: $accepted/$drf; races reported on them: $falserace"
echo "races found: $found/$racy"
echo "wall time: $(echo "$end - $start" | bc) s"
