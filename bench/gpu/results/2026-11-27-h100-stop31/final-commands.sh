#!/usr/bin/env bash
# (kept as the record of how the final-*.txt files were made; old31/ held f805416's b5_hgemm.prism and bin/weft_old was f805416's weft, CGO_ENABLED=0)
# stop 31's second device call: all.sh on main, the multi-k-step b5_hgemm on the GPU, and the old GEMMs in the same call
set -u
O=$1; mkdir -p $O
bench/gpu/all.sh $O/all
T=$(pwd)
timeout 120 bin/weft validate --gpu examples/prism/b5_hgemm.prism --blocks 4 --arg M=256 --arg N=512 --arg K=1024 --arg C=zeros:131072 --buffer A=rand:262144:bf16 --buffer B=rand:524288:bf16 --arg tensorMapA=tma:A,256,1024,128,64,128 --arg tensorMapB=tma:B,512,1024,256,64,128 > $O/b5_k1024.txt 2>&1; echo rc=$? >> $O/b5_k1024.txt
rm -rf /tmp/old && mkdir -p /tmp/old && tar cf - --exclude=./bench/gpu/out --exclude=./bench/gpu/out-all --exclude=./bench/gpu/out-validate --exclude=./bench/gpu/out-cudac . | (cd /tmp/old && tar xf -); cp old31/b5_hgemm.prism /tmp/old/examples/prism/b5_hgemm.prism
(cd /tmp/old && WEFT=bin/weft_old BENCH_OUT=/tmp/oldout timeout 150 bench/gpu/run.sh -only gemm -reps 20 > $O/gemm-old.txt 2>&1; echo rc=$? >> $O/gemm-old.txt)
# and the new one again right after, for a same-period pair
timeout 150 bench/gpu/run.sh -only gemm -reps 20 > $O/gemm-new2.txt 2>&1; echo rc=$? >> $O/gemm-new2.txt
cat $O/b5_k1024.txt | tail -4
for f in all/gemm gemm-old gemm-new2; do echo "== $f"; sed -n '/^kernel /,$p' $O/$f.txt | head -9; grep -c '^FAIL' $O/$f.txt; done
