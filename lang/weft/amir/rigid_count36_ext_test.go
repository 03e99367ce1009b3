package amir_test

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"weft.dev/weft/lang/weft/amir"
)

// TestRigidCountCacheRings: the same comparison as
// TestRigidCountCacheMatchesPlain on whole checks of the programs whose
// Awaits share their Access with a dead record (the three-ring
// pipeline's): random ring programs (ringsVariant with clockVariant's
// fences and roundVariant's breaks) and the mbarrier corpus (mbarChunks),
// each checked with the cache and without; the outputs must be equal.
func TestRigidCountCacheRings(t *testing.T) {
	t.Cleanup(func() { amir.RigidCountCache(true, nil) })
	dir := t.TempDir()
	rng := rand.New(rand.NewSource(36))
	cs := mbarChunks(t)
	for i := 0; i < 120; i++ {
		src, args := ringsVariant(rng)
		src = clockVariant(rng, src)
		src = roundVariant(rng, src)
		cs = append(cs, writeChunk(t, dir, fmt.Sprintf("count%d.weft", i), src, args))
	}
	var sets int64
	rejects := 0
	for _, c := range cs {
		amir.RigidCountCache(true, &sets)
		fast := c.checkJSON()
		amir.RigidCountCache(false, nil)
		plain := c.checkJSON()
		if fast != plain {
			t.Fatalf("%s %v: with the cache:\n%s\nwithout:\n%s", c.path, c.args, fast, plain)
		}
		if strings.Contains(plain, "W06") {
			rejects++
		}
	}
	t.Logf("%d programs (%d with W06xx), %d caches left by dead statements", len(cs), rejects, sets)
	if sets < 20000 || rejects < 30 {
		t.Fatalf("weak coverage: %d caches, %d with W06xx", sets, rejects)
	}
}
