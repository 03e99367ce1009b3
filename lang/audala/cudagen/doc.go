// Package cudagen compiles a checked AuDaLa program to one self-contained
// CUDA C++ file, following the AuDaLaC compiler of seed 003 (spec §5):
//
//   - Data layout (§5.3): a structure of arrays, one 32-bit array per
//     parameter, labels are indices, index 0 is the null instance and is
//     never written (SetParam skips owner 0).
//   - Steps (§5.5): one __device__ function execute_<S>_<step>(self,
//     &stable) per step; kernels run it over the instances that existed at
//     the step's start with a grid-stride loop, so one grid size serves
//     every strategy and structs may grow.
//   - Parameter writes compare against the old value and clear the
//     stability of every enclosing fixpoint when it differs (Write
//     Parameter II); constructors take a label from an atomic creation
//     counter, store the arguments and clear stability (§5.8). The count of
//     instances a step runs over is a separate snapshot, advanced after each
//     step that may create instances, so new instances join from the next
//     step.
//   - Accesses (§5.9, §5.10): a parameter that a step both writes and
//     reaches through a reference is racing and accessed atomically with
//     the chosen --memorder (relaxed, ra, sc); other accesses are weak
//     (ONRP, --onrp=false turns it off). Under relaxed, racing parameters
//     that may carry a freshly created label are stored with release and
//     loaded with acquire, so the new instance's parameters are visible to
//     whoever receives the label (the thesis's fresh-label data flow).
//   - Schedules (§5.6): host (one launch per step, the host reads the
//     stability stack after each fixpoint iteration), graph (CUDA graphs
//     with conditional while nodes per Fix; a one-thread kernel at the end
//     of each iteration reads and resets the top of the stability stack,
//     the relaunch kernel of the thesis), grid (one cooperative kernel per
//     segment, grid.sync() between steps, the simple fixpoint strategy).
//
// The emitted program reads an optional .init file (spec §5.11) and prints
// S.print lines in label order exactly as `weft run` does. Integer
// arithmetic is checked as in the interpreter: a result outside its 32-bit
// type, a division by zero or a full instance array stops the run with the
// interpreter's diagnostic code (A0201, A0202, A0204) and source position.
package cudagen
