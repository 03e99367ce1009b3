#!/bin/sh
# Mutation test of weft validate (issue 12, item 8; docs/validate.md
# "Mutation test"): every synchronization statement of the generated code of
# the synchronization examples is deleted in turn and validated again.
# Usage: scripts/mutation.sh [WEFT]   (default: go run ./cmd/weft)
# Prints every mutant line and, per example, the kill line.
W=${1:-"go run ./cmd/weft"}
E=examples
for f in $E/weft/gemv_smem.weft $E/weft/sync/*.weft $E/weft/gemm/*.weft; do
  $W validate --mutate --sms 1 "$f"
done
$W validate --mutate --sms 1 $E/prism/fig6_tf32.prism --arg A=ones:512 --arg B=iota:256 --arg C=zeros:128 --arg M=16 --arg N=8 --arg K=32
$W validate --mutate --sms 1 $E/prism/fig13_async.prism --blocks 2 --arg src=iota:256 --arg dst=zeros:256
$W validate --mutate --sms 1 $E/prism/b1_tf32.prism --arg A=ones:512 --arg B=iota:256 --arg C=zeros:128 --arg M=16 --arg N=8 --arg K=32
$W validate --mutate --sms 1 $E/prism/b2_sgemm.prism --blocks 2 --arg A=ones:2048 --arg B=iota:1024 --arg C=zeros:8192 --arg M=128 --arg N=64 --arg K=16 --arg alpha=1 --arg beta=0
$W validate --mutate --sms 1 $E/prism/p6_broader_call.prism --arg x=iota:128 --arg y=zeros:128
$W validate --mutate --sms 1 $E/prism/b5_hgemm.prism --arg M=128 --arg N=256 --arg K=512 --arg C=zeros:32768 --buffer A=iota%7:65536:bf16 --buffer B=iota%5:131072:bf16 --arg tensorMapA=tma:A,128,512,128,64,128 --arg tensorMapB=tma:B,256,512,256,64,128
# AuDaLa: inputs larger than one block of instances, so that the grid
# strategy's grid.sync between steps orders accesses of different blocks.
T=$(mktemp -d)
awk 'BEGIN { n = 2000; print "ADL structures 1"; print "Position Int Position Int Position";
  print "Position instances " n " " n; for (k = 1; k <= n; k++) print k % 10, k - 1 }' > $T/prefix_sum.init
awk 'BEGIN { R = 64; S = 8; e = 0
  for (r = 0; r < R; r++) { for (i = 0; i < S; i++) { a[e] = r * S + i + 1; b[e] = r * S + (i + 1) % S + 1; e++ }
    if (r > 0) { a[e] = 1; b[e] = r * S + 1; e++ } }
  print "ADL structures 2"; print "Edge Node Node Bool"; print "Node Node Node"; print "Edge instances " e " " e
  for (i = 0; i < e; i++) print a[i], b[i]; print "Node instances 0 " R * S }' > $T/scc_colouring.init
# reachability: 300 edges from the null node to itself ahead of the four the
# init step creates, so that those (Edge 301-304) run in block 1 and clear
# the fixpoint flag that thread 0 of block 0 sets: the grid.sync between the
# two is exercised (with the program's own graph all of it runs in block 0).
awk 'BEGIN { print "ADL structures 2"; print "Edge Node Node"; print "Node Bool"
  print "Edge instances 300 300"; for (i = 0; i < 300; i++) print "0 0"; print "Node instances 0 0" }' > $T/reachability.init
$W validate --mutate --sms 1 --schedule-strategy grid $E/audala/prefix_sum.adl $T/prefix_sum.init
$W validate --mutate --sms 1 --schedule-strategy grid $E/audala/reachability.adl $T/reachability.init
$W validate --mutate --sms 1 --schedule-strategy grid $E/audala/scc_colouring.adl $T/scc_colouring.init
rm -rf $T
