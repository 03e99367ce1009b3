// Package dcfg infers the synchronization of a checked Prism function from
// its data-control-flow graph (seed 001 §5). Both the CUDA lowering
// (package lower) and the Bundl interpreter (package bundl) use it, so the
// interpreter is an oracle for exactly the synchronization the generated
// code performs.
//
// Contract:
//   - Nodes are partition, claim and async scopes over thread-shared memory
//     and statements that use such memory directly. Walking the function in
//     program order (loop bodies twice, for the backedge), a node needs a
//     sync point when a pending node on the same memory is a write (rule 1)
//     or the node writes after reads (rule 2); writes of one scope in
//     successive iterations do not ("last writer wins", §3.4.2).
//   - A sync point sits before the nearest enclosing statement that the
//     whole owning group executes, then is hoisted past statements holding
//     none of its parents (out of with scopes, ifs, and loops whose bodies
//     hold no parent). Points at one place and scope merge (Sync.Points).
//   - In kernels, block-wide points are also given as split barriers
//     (Sync.Split): one per point and memory, arriving after the last use
//     of the memory and waiting, from a phase snapshot taken at the point,
//     before its first use on each path.
//   - Parents whose only writes are TMA loads need no barrier, only waits
//     on the mbarriers the loads complete on.
//   - Deterministic: the same function gives the same points in the same
//     order.
package dcfg
