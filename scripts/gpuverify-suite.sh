#!/usr/bin/env bash
# Measures weft check on GPUVerify's CUDA test suite (issue 16). The suite is
# not part of this repository: pass its testsuite/CUDA directory.
#   scripts/gpuverify-suite.sh DIR [WEFT]
# Prints one line per file (expectation, exit status, codes reported), then
# the figures: race-free (//pass) files accepted, false races on them, files
# labelled with a race (//xfail whose path or expected output names a race)
# whose race was found, other //xfail files rejected, and the wall time.
set -u
dir=${1:?usage: gpuverify-suite.sh DIR [WEFT]}
weft=${2:-bin/weft}
[ -x "$weft" ] || go build -o "$weft" ./cmd/weft || exit 2
start=$(date +%s.%N)
pass=0 accepted=0 falserace=0 races=0 found=0 xfail=0 rejected=0
while IFS= read -r f; do
  exp=$(head -1 "$f" | tr 'A-Z' 'a-z' | sed 's#^//##')
  out=$(timeout 120 "$weft" check "$f" 2>&1 >/dev/null); rc=$?
  codes=$(printf '%s\n' "$out" | grep -o 'error\[C[0-9]*\]' | sort -u | tr '\n' ' ')
  echo "$exp rc=$rc ${f#$dir/} $codes"
  case "$exp" in
  pass)
    pass=$((pass+1)); [ $rc -eq 0 ] && accepted=$((accepted+1))
    case "$codes" in *C0501*) falserace=$((falserace+1));; esac ;;
  xfail*)
    xfail=$((xfail+1)); [ $rc -ne 0 ] && rejected=$((rejected+1))
    if printf '%s %s' "$f" "$(sed -n 2,4p "$f")" | grep -qi race; then
      races=$((races+1)); case "$codes" in *C0501*) found=$((found+1));; esac
    fi ;;
  esac
done < <(find "$dir" -name '*.cu' | sort)
end=$(date +%s.%N)
echo "race-free accepted: $accepted/$pass; false races: $falserace"
echo "labelled races found: $found/$races; xfail rejected: $rejected/$xfail"
echo "wall time: $(echo "$end - $start" | bc) s"
