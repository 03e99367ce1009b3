package amir

// RigidCountCache turns rigidCount's cell cache on (true) or off; with
// sets non-nil, the caches it leaves are counted in *sets. For
// TestRigidCountCacheRings.
func RigidCountCache(on bool, sets *int64) { rigidNoCountCache, rigidCountSets = !on, sets }
