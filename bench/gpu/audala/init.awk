# bench/gpu/audala/init.awk: the .init inputs of the AuDaLa benchmarks
# (spec §5.11 format), written by awk so that the GPU machine (no Go) can
# make them:
#   awk -v prog=ps -v n=N [-v seed=S] -f bench/gpu/audala/init.awk > ps.init
#     ps_thesis.adl: N positions, val uniform in -100..100, prev = the
#     previous position (0 = null for the first), as psData in
#     lang/audala/interp/bench_test.go;
#   awk -v prog=ch -v n=N [-v seed=S] -f bench/gpu/audala/init.awk > ch.init
#     ch_thesis.adl: a random graph of N nodes and 1.3 N edges with
#     uniform endpoints (self-loops and repeats allowed), the shape of the
#     thesis's random_col inputs and of chData in bench_test.go; the Node
#     section declares 0 lines and N instances (the init step sets them).
# The numbers depend on the awk's rand(): the same file feeds every run of
# one session (interpreter, GPU, sequential baseline), so that is enough.
BEGIN {
  if (seed == "") seed = 1
  srand(seed)
  if (n + 0 < 1) { print "audala/init.awk: set -v n=N (N >= 1)" > "/dev/stderr"; exit 2 }
  if (prog == "ps") {
    print "ADL structures 1"
    print "Position Int Position Int Position"
    print "Position instances " n " " n
    for (i = 1; i <= n; i++) print int(rand() * 201) - 100, i - 1
  } else if (prog == "ch") {
    m = int(n * 13 / 10)
    print "ADL structures 2"
    print "Edge Node Node Bool"
    print "Node Node Node"
    print "Edge instances " m " " m
    for (i = 0; i < m; i++) print int(rand() * n) + 1, int(rand() * n) + 1
    print "Node instances 0 " n
  } else {
    print "audala/init.awk: set -v prog=ps or prog=ch" > "/dev/stderr"
    exit 2
  }
}
