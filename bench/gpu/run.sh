#!/usr/bin/env bash
# bench/gpu/run.sh: the GPU checks and benchmarks of the GEMM examples, run
# ON a GPU machine from the repository root with a prebuilt bin/weft (no Go
# there; see bench/gpu/README.md). For each kernel it
#   1. builds the harness with bin/weft (weft build --harness) at a small
#      check size and a large benchmark size, and compiles it with nvcc;
#   2. runs the check build and compares it with the CPU reference:
#      Weft: inputs from `weft run --inputs`, GPU outputs checked with
#      `weft run --compare` within the tf32 bound (README.md);
#      Prism: the harness's printed output diffed with `weft run`'s (exact:
#      the inputs are small integers, every sum is exact in binary32);
#   3. runs compute-sanitizer --tool racecheck and --tool synccheck on the
#      check build;
#   4. times the benchmark build (WEFT_REPEAT) and cuBLAS (cublas_gemm.cu)
#      on the same shape and layout, and prints a table;
#   5. AuDaLa: prefix sum and SCC colouring (ps_thesis.adl, ch_thesis.adl)
#      on .init inputs written by audala/init.awk, built with `weft build
#      --time` for every schedule strategy and memory order, checked line
#      for line against `weft run --workers=1 --dump`, and timed against
#      that interpreter run and the sequential C++ baseline audala/seq.cpp.
#
# usage: bench/gpu/run.sh [-compile-only] [-quick] [-reps R] [-only gemm|audala] [-adl-reps R]
#   -compile-only  steps 1 only (no GPU needed; the benchmark builds are
#                  generated but not compiled): what `go test ./bench/gpu` runs
#   -quick         benchmark sizes of 2048 instead of 4096-8192
#   -reps R        timed launches per benchmark (default 50)
#   -only W        only the GEMMs (gemm) or only AuDaLa (audala)
#   -adl-reps R    timed runs per AuDaLa program and size (default 3; the
#                  table shows the fastest)
# environment: WEFT (bin/weft), NVCC (nvcc on PATH, else
#   /usr/local/cuda/bin/nvcc), SANITIZER (compute-sanitizer next to nvcc),
#   CC (cc, for the Weft host C), BENCH_OUT (bench/gpu/out), ARCH80 (the gencode
#   flags of the sm_80 kernels; default sm_80 SASS plus sm_90 SASS built from
#   compute_80 PTX, so they run on an H100), RUN_TIMEOUT (seconds per GPU
#   command, default 120), CXX (c++, for audala/seq.cpp), ARCHADL (the
#   gencode flags of the AuDaLa programs; default ARCH80).
# Output: one `ok`/`FAIL`/`skip` line per step on stdout, then the table;
# logs under $OUT. Exit status 1 when any step failed.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2

compile_only=0 quick=0 reps=50 only="" adl_reps=3
usage="usage: bench/gpu/run.sh [-compile-only] [-quick] [-reps R] [-only gemm|audala] [-adl-reps R]"
while [ $# -gt 0 ]; do
  case $1 in
    -compile-only) compile_only=1 ;;
    -quick) quick=1 ;;
    -reps) reps=$2; shift ;;
    -only) only=$2; shift ;;
    -adl-reps) adl_reps=$2; shift ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
  shift
done

WEFT=${WEFT:-bin/weft}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
SANITIZER=${SANITIZER:-$(command -v compute-sanitizer || echo "$(dirname "$NVCC")/compute-sanitizer")}
CC=${CC:-cc}
OUT=${BENCH_OUT:-bench/gpu/out}
ARCH80=${ARCH80:-"-gencode arch=compute_80,code=sm_80 -gencode arch=compute_80,code=sm_90"}
ARCH90="-gencode arch=compute_90a,code=sm_90a"
ARCHADL=${ARCHADL:-$ARCH80}
CXX=${CXX:-c++}
case $only in
  "") run_gemm=1 run_adl=1 ;;
  gemm) run_gemm=1 run_adl=0 ;;
  audala) run_gemm=0 run_adl=1 ;;
  *) echo "$usage" >&2; exit 2 ;;
esac
[ -x "$WEFT" ] || { echo "run.sh: no weft binary at $WEFT (build it with: CGO_ENABLED=0 go build -o bin/weft ./cmd/weft)" >&2; exit 2; }
[ -x "$NVCC" ] || { echo "run.sh: no nvcc (set NVCC)" >&2; exit 2; }
rm -rf "$OUT"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
WEFT=$(cd "$(dirname "$WEFT")" && pwd)/$(basename "$WEFT")

# A GPU program that hangs (an mbarrier phase that never completes) must
# not stall the whole run: every GPU command gets RUN_TIMEOUT seconds
# (default 120; exit status 124 when it runs out).
RUN_TIMEOUT=${RUN_TIMEOUT:-120}
tmo() { timeout "$RUN_TIMEOUT" "$@"; }

failed=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; failed=1; }
skip() { echo "skip $*"; }
# step DESC LOG CMD...: runs CMD with its output in LOG.
step() {
  local desc=$1 log=$2
  shift 2
  if "$@" >"$log" 2>&1; then ok "$desc"; else bad "$desc (see $log)"; return 1; fi
}

# The tf32 tolerance of the Weft GEMMs (README.md): inputs uniform in
# [-1, 1), so sum_k |A B| <= K and |GPU - CPU| <= K (2^-10 + 2^-22 + K 2^-23).
tf32_atol() { awk -v k="$1" 'BEGIN { printf "%.6g", k * (2^-10 + 2^-22 + k * 2^-23) }'; }

if [ "$quick" = 1 ]; then S=2048 SH=2048 S80=2304; else S=4096 SH=8192 S80=4608; fi

# ---------------------------------------------------------------------------
# Kernels. Prism: NAME FILE ARCH BLOCKS ARGS (check) / BLOCKS ARGS (bench)
# FLOPS, cuBLAS LAYOUT MATH M N K.
prism_names=(fig6_tf32 b2_sgemm b5_hgemm)
declare -A P_file P_arch P_cblocks P_cargs P_bblocks P_bargs P_flops P_cublas P_size
P_file[fig6_tf32]=examples/prism/fig6_tf32.prism
P_arch[fig6_tf32]=80
P_cblocks[fig6_tf32]=4
P_cargs[fig6_tf32]="--arg M=32 --arg N=16 --arg K=16 --arg A=rand:512 --arg B=rand:256 --arg C=zeros:512"
# The running example is naive (one 16 x 8 tile per warp): 2048^3.
FS=2048
P_bblocks[fig6_tf32]=$(( (FS / 16) * (FS / 8) ))
P_bargs[fig6_tf32]="--arg M=$FS --arg N=$FS --arg K=$FS --arg A=iota%7:$((FS * FS)) --arg B=iota%5:$((FS * FS)) --arg C=zeros:$((FS * FS))"
P_flops[fig6_tf32]=$((2 * FS * FS * FS))
P_cublas[fig6_tf32]="nn tf32 $FS $FS $FS"
P_size[fig6_tf32]="${FS}x${FS}x${FS}"

P_file[b2_sgemm]=examples/prism/b2_sgemm.prism
P_arch[b2_sgemm]=80
P_cblocks[b2_sgemm]=2
P_cargs[b2_sgemm]="--arg M=128 --arg N=64 --arg K=16 --arg alpha=1.5 --arg beta=-1 --arg A=rand:2048 --arg B=rand:1024 --arg C=rand:8192"
P_bblocks[b2_sgemm]=$(( (S / 64) * (S / 64) ))
P_bargs[b2_sgemm]="--arg M=$S --arg N=$S --arg K=$S --arg alpha=1 --arg beta=0 --arg A=iota%7:$((S * S)) --arg B=iota%5:$((S * S)) --arg C=zeros:$((S * S))"
P_flops[b2_sgemm]=$((2 * S * S * S))
P_cublas[b2_sgemm]="nn tf32 $S $S $S"
P_size[b2_sgemm]="${S}x${S}x${S}"

P_file[b5_hgemm]=examples/prism/b5_hgemm.prism
P_arch[b5_hgemm]=90
P_cblocks[b5_hgemm]=4
P_cargs[b5_hgemm]="--arg M=256 --arg N=512 --arg K=256 --arg C=zeros:131072 --buffer A=rand:65536:bf16 --buffer B=rand:131072:bf16 --arg tensorMapA=tma:A,256,256,128,64,128 --arg tensorMapB=tma:B,512,256,256,64,128"
P_bblocks[b5_hgemm]=$(( (SH / 128) * (SH / 256) ))
P_bargs[b5_hgemm]="--arg M=$SH --arg N=$SH --arg K=$SH --arg C=zeros:$((SH * SH)) --buffer A=iota%7:$((SH * SH)):bf16 --buffer B=iota%5:$((SH * SH)):bf16 --arg tensorMapA=tma:A,$SH,$SH,128,64,128 --arg tensorMapB=tma:B,$SH,$SH,256,64,128"
P_flops[b5_hgemm]=$((2 * SH * SH * SH))
P_cublas[b5_hgemm]="hgemm bf16 $SH $SH $SH"
P_size[b5_hgemm]="${SH}x${SH}x${SH}"

# Weft: NAME ARCH CHECK-SIZES BENCH-SIZES cuBLAS.
weft_names=(xgemm_sm80 xgemm_sm90)
declare -A W_arch W_check W_bench W_cublas W_size W_flags W_file
wfile() { echo "${W_file[$1]:-examples/weft/gemm/$1.weft}"; }
W_arch[xgemm_sm80]=80
W_check[xgemm_sm80]="M=384 N=512 K=64"
W_bench[xgemm_sm80]="M=$S80 N=$S K=$S"
W_cublas[xgemm_sm80]="nn tf32 $S80 $S $S"
W_size[xgemm_sm80]="${S80}x${S}x${S}"
W_flags[xgemm_sm80]=""
W_arch[xgemm_sm90]=90
W_check[xgemm_sm90]="M=256 N=512 K=256"
W_bench[xgemm_sm90]="M=$S N=$S K=$S"
W_cublas[xgemm_sm90]="nt tf32 $S $S $S"
W_size[xgemm_sm90]="${S}x${S}x${S}"
# The sync check's end-of-task reports on the SMEM ring (examples/weft/gemm/README.md).
W_flags[xgemm_sm90]="--no-check"
# The same GEMM restructured so that the sync check accepts it (its K loop
# outside the producer and consumer blocks): built checked.
weft_names+=(xgemm_Sm90_ring)
W_file[xgemm_Sm90_ring]=examples/weft/sync/xgemm_Sm90_ring.weft
W_arch[xgemm_Sm90_ring]=90
W_check[xgemm_Sm90_ring]="M=256 N=512 K=256"
W_bench[xgemm_Sm90_ring]="M=$S N=$S K=$S"
W_cublas[xgemm_Sm90_ring]="nt tf32 $S $S $S"
W_size[xgemm_Sm90_ring]="${S}x${S}x${S}"
W_flags[xgemm_Sm90_ring]=""

gencode() { if [ "$1" = 90 ]; then echo "$ARCH90"; else echo "$ARCH80"; fi; }
[ $run_gemm = 1 ] || { prism_names=(); weft_names=(); }

# AuDaLa: programs (the prefix sum without its S.print, so that the timed
# schedule does not print a million lines: `weft run --dump` and the
# program's --dump print the result after the schedule instead), the
# configurations (every schedule strategy x memory order, as the thesis's
# §6.5 measurements), and the sizes.
adl_names=()
[ $run_adl = 1 ] && adl_names=(ps ch)
declare -A A_file=([ps]=$OUT/ps_bench.adl [ch]=lang/audala/testdata/ch_thesis.adl)
sed 's/ *< *Position.print//' lang/audala/testdata/ps_thesis.adl >"$OUT/ps_bench.adl"
adl_configs=()
for s in graph host grid; do for m in relaxed ra sc; do adl_configs+=("$s.$m"); done; done
if [ "$quick" = 1 ]; then adl_sizes=(100000); else adl_sizes=(100000 1000000); fi

# ---------------------------------------------------------------------------
# 1. Build and compile.
declare -a jobs=() jobdesc=() joblog=()
# background DESC LOG CMD...: an nvcc job, waited for below.
background() {
  local desc=$1 log=$2
  shift 2
  ("$@" >"$log" 2>&1) &
  jobs+=($!)
  jobdesc+=("$desc")
  joblog+=("$log")
}

declare -A built
for n in "${prism_names[@]}"; do
  for kind in check bench; do
    d=$OUT/$n.$kind
    if [ $kind = check ]; then blocks=${P_cblocks[$n]} args=${P_cargs[$n]} flops=0; else blocks=${P_bblocks[$n]} args=${P_bargs[$n]} flops=${P_flops[$n]}; fi
    # shellcheck disable=SC2086
    step "weft build --harness $n ($kind)" "$OUT/$n.$kind.build.log" \
      "$WEFT" build "${P_file[$n]}" -o "$d" --harness --blocks "$blocks" $args --flops "$flops" || continue
    [ $kind = bench ] && [ $compile_only = 1 ] && continue
    built[$n.$kind]=1
    # shellcheck disable=SC2046
    background "nvcc $n ($kind, sm_${P_arch[$n]})" "$OUT/$n.$kind.nvcc.log" \
      "$NVCC" -O3 $(gencode "${P_arch[$n]}") -o "$d/prog" "$d/$n.cu"
  done
done
for n in "${weft_names[@]}"; do
  d=$OUT/$n
  # shellcheck disable=SC2086
  step "weft build --harness $n" "$OUT/$n.build.log" \
    "$WEFT" build "$(wfile "$n")" -o "$d" --harness ${W_flags[$n]} || continue
  built[$n]=1
  # shellcheck disable=SC2046
  background "nvcc $n (sm_${W_arch[$n]})" "$OUT/$n.nvcc.log" \
    bash -c "cd '$d' && '$CC' -std=c11 -O2 -c $n.c -o host.o && '$NVCC' -std=c++17 -O3 $(gencode "${W_arch[$n]}") $n.cu main.cu host.o -o main"
done
for p in "${adl_names[@]}"; do
  for c in "${adl_configs[@]}"; do
    d=$OUT/adl.$p.$c
    step "weft build $p --time (${c%.*}, ${c#*.})" "$d.build.log" \
      "$WEFT" build "${A_file[$p]}" -o "$d" --time --schedule-strategy="${c%.*}" --memorder="${c#*.}" || continue
    # -compile-only compiles one memory order per strategy: the others
    # differ in the ADL_*_ORDER #defines only (the GPU run compiles all).
    [ $compile_only = 1 ] && [[ ! " graph.relaxed host.ra grid.sc " =~ " $c " ]] && continue
    built[adl.$p.$c]=1
    # shellcheck disable=SC2086
    background "nvcc $p (${c%.*}, ${c#*.})" "$d.nvcc.log" \
      "$NVCC" -std=c++17 -O3 $ARCHADL -o "$d/prog" "$d/$(basename "${A_file[$p]}" .adl).cu"
  done
done
if [ $run_adl = 1 ]; then
  # --printunstable on thesis Fig. 1, one build per strategy.
  for s in graph host grid; do
    d=$OUT/adl.fig1.$s
    step "weft build fig1 --time --printunstable ($s)" "$d.build.log" \
      "$WEFT" build lang/audala/testdata/fig1.adl -o "$d" --time --printunstable --schedule-strategy=$s || continue
    [ $compile_only = 1 ] && [ $s != graph ] && continue # as above; TestNVCC in lang/audala/cudagen compiles the others
    built[adl.fig1.$s]=1
    # shellcheck disable=SC2086
    background "nvcc fig1 ($s, --printunstable)" "$d.nvcc.log" "$NVCC" -std=c++17 -O3 $ARCHADL -o "$d/prog" "$d/fig1.cu"
  done
  background "c++ audala_seq" "$OUT/audala_seq.log" "$CXX" -std=c++17 -O3 -o "$OUT/audala_seq" bench/gpu/audala/seq.cpp
fi
have_cublas=0
if [ $run_gemm = 0 ]; then
  :
elif "$NVCC" -E -x cu bench/gpu/cublas_gemm.cu -o /dev/null >"$OUT/cublas.pre.log" 2>&1; then
  have_cublas=1
  background "nvcc cublas_gemm" "$OUT/cublas.nvcc.log" \
    "$NVCC" -O3 $ARCH90 bench/gpu/cublas_gemm.cu -lcublas -o "$OUT/cublas_gemm"
else
  skip "nvcc cublas_gemm: cublas_v2.h not found (install the CUDA toolkit's cuBLAS); no baseline"
fi
for i in "${!jobs[@]}"; do
  if wait "${jobs[$i]}"; then ok "${jobdesc[$i]}"; else bad "${jobdesc[$i]} (see ${joblog[$i]})"; fi
done
[ -x "$OUT/cublas_gemm" ] || have_cublas=0

if [ $compile_only = 1 ]; then
  exit $failed
fi

# ---------------------------------------------------------------------------
# 2-3. Correctness and sanitizers at the check sizes.
sanitize() { # NAME DIR CMD...
  local n=$1 dir=$2
  shift 2
  if [ ! -x "$SANITIZER" ]; then skip "compute-sanitizer $n: not found (set SANITIZER)"; return; fi
  for tool in racecheck synccheck; do
    step "compute-sanitizer --tool $tool $n" "$OUT/$n.$tool.log" \
      bash -c 'cd "$0" && "$@" >/dev/null' "$dir" timeout "$RUN_TIMEOUT" "$SANITIZER" --tool $tool --error-exitcode 1 "$@"
  done
}
for n in "${prism_names[@]}"; do
  [ -n "${built[$n.check]:-}" ] || continue
  d=$OUT/$n.check
  # Every output element: --print with the largest buffer length.
  # shellcheck disable=SC2086
  if ! "$WEFT" run "${P_file[$n]}" --blocks "${P_cblocks[$n]}" ${P_cargs[$n]} --print 1000000000 >"$d/ref.txt" 2>"$d/ref.log"; then
    bad "weft run $n (see $d/ref.log)"
    continue
  fi
  if ! tmo "$d/prog" >"$d/gpu.txt" 2>"$d/gpu.log"; then
    bad "GPU run $n (see $d/gpu.txt, $d/gpu.log)"
    continue
  fi
  if diff -q "$d/ref.txt" "$d/gpu.txt" >/dev/null; then
    ok "$n: GPU output = weft run output ($(wc -c <"$d/ref.txt") bytes)"
  else
    bad "$n: GPU output differs from weft run (diff $d/ref.txt $d/gpu.txt)"
  fi
  sanitize "$n" "$d" ./prog
done
for n in "${weft_names[@]}"; do
  [ -n "${built[$n]:-}" ] || continue
  d=$OUT/$n
  src=$(wfile "$n")
  sizes=${W_check[$n]}
  K=$(sed -n 's/.*K=\([0-9]*\).*/\1/p' <<<"$sizes")
  atol=$(tf32_atol "$K")
  mkdir -p "$d/in" "$d/gpu"
  # shellcheck disable=SC2086
  step "weft run $n $sizes (CPU reference, --inputs)" "$d/ref.log" "$WEFT" run "$src" $sizes A=rand B=rand --inputs "$d/in" || continue
  # shellcheck disable=SC2086
  step "GPU run $n $sizes" "$d/gpu.log" bash -c 'cd "$0" && timeout "$1" ./main in gpu "${@:2}"' "$d" "$RUN_TIMEOUT" $sizes || continue
  # shellcheck disable=SC2086
  step "$n: weft run --compare within atol $atol (tf32, K=$K)" "$d/compare.log" \
    "$WEFT" run "$src" $sizes A="$d/in/A.npy" B="$d/in/B.npy" --compare "$d/gpu" --rtol 0 --atol "$atol"
  # shellcheck disable=SC2086
  sanitize "$n" "$d" ./main in gpu $sizes
done

# ---------------------------------------------------------------------------
# 4. Benchmarks.
table=$OUT/table.txt
printf "%-12s %-16s %10s %9s %10s %7s  %s\n" kernel size ms TFLOP/s "cuBLAS ms" ratio baseline >"$table"
cublas() { # LAYOUT MATH M N K -> "ms" or "-"
  if [ $have_cublas = 0 ]; then echo -; return; fi
  local line
  line=$(tmo "$OUT/cublas_gemm" "$@" "$reps" 2>>"$OUT/cublas.log") || { echo -; return; }
  echo "$line" >>"$OUT/cublas.log"
  sed -n 's/.*: \([0-9.]*\) ms.*/\1/p' <<<"$line"
}
row() { # KERNEL SIZE MS FLOPS CUBLAS-ARGS...
  local k=$1 size=$2 ms=$3 flops=$4
  shift 4
  local cms tf ratio
  cms=$(cublas "$@")
  tf=$(awk -v f="$flops" -v ms="$ms" 'BEGIN { printf "%.2f", f / (ms * 1e9) }')
  ratio=-
  [ "$cms" != - ] && ratio=$(awk -v a="$cms" -v b="$ms" 'BEGIN { printf "%.2f", a / b }')
  printf "%-12s %-16s %10s %9s %10s %7s  %s\n" "$k" "$size" "$ms" "$tf" "$cms" "$ratio" "$*" >>"$table"
}
for n in "${prism_names[@]}"; do
  [ -n "${built[$n.bench]:-}" ] || continue
  d=$OUT/$n.bench
  if ! WEFT_PRINT=0 WEFT_REPEAT=$reps tmo "$d/prog" >/dev/null 2>"$d/time.log"; then
    bad "benchmark $n (see $d/time.log)"
    continue
  fi
  ms=$(sed -n 's/.*: \([0-9.]*\) ms per launch.*/\1/p' "$d/time.log")
  ok "benchmark $n ${P_size[$n]}: $ms ms"
  # shellcheck disable=SC2086
  row "$n" "${P_size[$n]}" "$ms" "${P_flops[$n]}" ${P_cublas[$n]}
  if [ "$n" = b2_sgemm ]; then
    # The SGEMM uses no tensor cores: also against cuBLAS without them.
    # shellcheck disable=SC2086
    row "$n" "${P_size[$n]}" "$ms" "${P_flops[$n]}" nn fp32 $S $S $S
  fi
done
for n in "${weft_names[@]}"; do
  [ -n "${built[$n]:-}" ] || continue
  d=$OUT/$n
  sizes=${W_bench[$n]}
  mkdir -p "$d/bin" "$d/bout"
  # Inputs only: the step limit stops the CPU run after --inputs wrote them.
  # shellcheck disable=SC2086
  "$WEFT" run "$(wfile "$n")" $sizes A=rand B=rand --inputs "$d/bin" --max-steps 1 >/dev/null 2>&1
  [ -f "$d/bin/A.npy" ] || { bad "benchmark inputs $n"; continue; }
  # shellcheck disable=SC2086
  if ! (cd "$d" && WEFT_REPEAT=$reps timeout "$RUN_TIMEOUT" ./main bin bout $sizes >time.log 2>&1); then
    bad "benchmark $n (see $d/time.log)"
    continue
  fi
  ms=$(sed -n 's/.*: \([0-9.]*\) ms per run.*/\1/p' "$d/time.log")
  ok "benchmark $n ${W_size[$n]}: $ms ms"
  read -r m nn k <<<"$(sed 's/[MNK]=//g' <<<"$sizes")"
  # shellcheck disable=SC2086
  row "$n" "${W_size[$n]}" "$ms" $((2 * m * nn * k)) ${W_cublas[$n]}
done

# ---------------------------------------------------------------------------
# 5. AuDaLa: correctness and times.
adl_table=$OUT/audala_table.txt
printf "%-8s %8s %-14s %10s %12s %10s %10s %9s\n" program n config "GPU ms" "interp-1 ms" "seq ms" interp/GPU seq/GPU >"$adl_table"
walltime() { sed -n 's/^Total walltime [CG]PU: \([0-9.]*\) ms$/\1/p' "$1"; }
if [ $run_adl = 1 ]; then
  # --printunstable: the GPU names the same parameters as weft run (the
  # counts may differ: racing writes of one step can each see the old value).
  "$WEFT" run lang/audala/testdata/fig1.adl --workers=1 --printunstable 2>&1 >/dev/null | sed 's/ [0-9]*$//' >"$OUT/fig1.unstable.ref"
  for s in graph host grid; do
    [ -n "${built[adl.fig1.$s]:-}" ] || continue
    d=$OUT/adl.fig1.$s
    if ! tmo "$d/prog" >"$d/gpu.txt" 2>"$d/gpu.log"; then bad "GPU run fig1 ($s) (see $d/gpu.log)"; continue; fi
    if grep '^unstable: ' "$d/gpu.log" | sed 's/ [0-9]*$//' | diff -q - "$OUT/fig1.unstable.ref" >/dev/null && grep -q '^Total walltime GPU: [0-9.]* ms$' "$d/gpu.log"; then
      ok "fig1 ($s): --printunstable names = weft run's: $(sed 's/^unstable: //' "$OUT/fig1.unstable.ref" | paste -sd, -), --time line printed"
    else
      bad "fig1 ($s): --printunstable/--time output (see $d/gpu.log, $OUT/fig1.unstable.ref)"
    fi
  done
  for p in "${adl_names[@]}"; do
    for n in "${adl_sizes[@]}"; do
      in=$OUT/adl.$p.$n.init ref=$OUT/adl.$p.$n.ref
      step "inputs $p n=$n (audala/init.awk)" "$in.log" bash -c 'awk -v prog="$1" -v n="$2" -f bench/gpu/audala/init.awk >"$0"' "$in" "$p" "$n" || continue
      step "weft run $p n=$n --workers=1 --dump --time" "$ref.log" bash -c '"$0" run "$1" "$2" --workers=1 --dump --time --max-input 268435456 >"$3"' "$WEFT" "${A_file[$p]}" "$in" "$ref" || continue
      ims=$(walltime "$ref.log")
      sms=-
      if [ -x "$OUT/audala_seq" ] && "$OUT/audala_seq" "$p" "$in" >"$in.seq" 2>"$in.seq.log"; then
        sms=$(walltime "$in.seq.log")
        if [ "$p" = ps ]; then
          got=$(awk -F'[=,]' '/^Position\(/ { print $2 }' "$ref" | head -n "$n" | cmp -s - "$in.seq" && echo same)
        else
          got=$(awk -F'[():=,]+' '/^Node\(/ { if ($2 == $4 && $2 == $6) c++ } END { print "sccs", c + 0 }' "$ref" | cmp -s - "$in.seq" && echo same)
        fi
        if [ "$got" = same ]; then ok "$p n=$n: sequential C++ baseline agrees with weft run ($(tail -1 "$in.seq"))"; else bad "$p n=$n: sequential baseline disagrees with weft run ($in.seq, $ref)"; fi
      else
        bad "sequential baseline $p n=$n (see $in.seq.log)"
      fi
      for c in "${adl_configs[@]}"; do
        [ -n "${built[adl.$p.$c]:-}" ] || continue
        d=$OUT/adl.$p.$c
        # Modules load eagerly, so that the timed schedule does not load them.
        if ! CUDA_MODULE_LOADING=EAGER tmo "$d/prog" "$in" --dump >"$d/$n.gpu.txt" 2>"$d/$n.gpu.log"; then
          bad "GPU run $p n=$n ($c) (see $d/$n.gpu.log)"
          continue
        fi
        if ! cmp -s "$ref" "$d/$n.gpu.txt"; then
          bad "$p n=$n ($c): GPU output differs from weft run (diff $ref $d/$n.gpu.txt)"
          continue
        fi
        ok "$p n=$n ($c): GPU output = weft run output ($(wc -l <"$ref") lines)"
        best=$(walltime "$d/$n.gpu.log")
        for ((r = 1; r < adl_reps; r++)); do
          CUDA_MODULE_LOADING=EAGER tmo "$d/prog" "$in" >/dev/null 2>"$d/$n.time.log" || break
          best=$(awk -v a="$best" -v b="$(walltime "$d/$n.time.log")" 'BEGIN { print (b != "" && b + 0 < a + 0) ? b : a }')
        done
        ratios=$(awk -v g="$best" -v i="$ims" -v s="$sms" 'BEGIN { printf "%10.2f %9s", i / g, (s == "-") ? "-" : sprintf("%.2f", s / g) }')
        printf "%-8s %8s %-14s %10s %12s %10s %s\n" "$p" "$n" "$c" "$best" "$ims" "$sms" "$ratios" >>"$adl_table"
      done
    done
  done
fi

if [ $run_gemm = 1 ]; then
  echo
  echo "ratio = cuBLAS ms / our ms (1.00: as fast as cuBLAS; the paper's hgemm goal is >= 0.85)"
  cat "$table"
fi
if [ $run_adl = 1 ]; then
  echo
  echo "AuDaLa: GPU ms = fastest of $adl_reps runs of the schedule (CUDA events, weft build --time); interp-1 = weft run --workers=1 --time;"
  echo "seq = bench/gpu/audala/seq.cpp (sequential C++, same algorithm); ratios = their ms / GPU ms (above 1: the GPU is faster)"
  cat "$adl_table"
fi
exit $failed
