#!/usr/bin/env bash
# Runs the benchmarks behind each performance goal of the issues and prints
# them as ratios against their baselines (bench/report). Every ratio is taken
# from numbers measured in the same run: the native baseline runs beside the
# interpreter, and the seed's published times are quoted constants.
#
# Usage: bench/run.sh [-quick] [-count N]
#   -quick   smaller sizes and one count (a smoke run, about a minute)
# Output: bench/out/raw.txt (go test -bench output) and the report on stdout.
set -euo pipefail
cd "$(dirname "$0")/.."
count=5 short="" benchtime=""
while [ $# -gt 0 ]; do
  case $1 in
    -quick) count=1 short=-short benchtime="-benchtime=1x" ;;
    -count) count=$2; shift ;;
    *) echo "usage: bench/run.sh [-quick] [-count N]" >&2; exit 2 ;;
  esac
  shift
done
mkdir -p bench/out
raw=bench/out/raw.txt
: > "$raw"
# run PKG REGEXP [extra go test flags]: one core (the goals are stated per
# core) unless CPU is set.
run() {
  local pkg=$1 re=$2
  shift 2
  echo "== $pkg $re" >&2
  # bench/report strips the -N suffix go test adds to names when N > 1
  echo "procs: ${CPU:-1}" >> "$raw"
  go test -run='^$' -bench="$re" -count="$count" -cpu="${CPU:-1}" $short $benchtime "$@" "$pkg" | tee -a "$raw" >&2
}
run ./lang/weft/interp 'GEMM256(Interp|Go|Ratio)$'
run ./lang/weft/syncheck 'Sm(80|90)GEMM$|CommitGroupRing$|ScalarSmemMatmul$' -timeout=60m
run ./lang/weft/distmem 'Check'
run ./lang/weft/coll 'Collective'
run ./lang/cudac/sem '(Figure1|Sum512)(Check|Run)$'
# Issue 16: kernel-only search, configurations per second (GPUVerify's suite
# instead of the corpus when WEFT_GPUVERIFY_SUITE names its testsuite/CUDA).
run ./lang/cudac/verify 'Search'
# AuDaLa measures scaling: 1 worker against all cores (the lockstep
# configurations, slow on colouring at 10^6, are left out).
CPU=$(nproc) run ./lang/audala/interp '(PrefixSum|SCCColouring)/./(native|tarjan|relaxed|strict)'
run ./lang/prism/bundl 'RunningExample'
go run ./bench/report "$raw"
