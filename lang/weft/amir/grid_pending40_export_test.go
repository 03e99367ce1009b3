package amir

import "reflect"

// GridPendingIntact reports whether the shared "block plan not made yet"
// value (gridPending, plan_grid.go) still holds only its blk and lazy
// fields: nests share it, so a write into it would leak from one nest,
// and one check, into the next.
func GridPendingIntact() bool {
	return reflect.DeepEqual(*gridPending, gridPlan{blk: true, lazy: true})
}
