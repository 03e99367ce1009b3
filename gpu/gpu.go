package gpu

import (
	"fmt"
	"strconv"
	"strings"
)

// Fixed sizes of the hierarchy (CUDA programming guide; seed 000 Fig. 11).
const (
	WarpSize          = 32
	QuadpairSize      = 8 // threads of a quadpair: two quads, 4 apart (sm_70 mma)
	WarpgroupSize     = 128
	WarpsPerWarpgroup = WarpgroupSize / WarpSize
	MaxThreadsPerCTA  = 1024
	MaxClusterSize    = 16 // with the non-portable cluster size attribute; 8 portable
	// SmemPerCTAMax is the largest dynamic shared memory a CTA may opt into
	// on sm_90 (227 KiB).
	SmemPerCTAMax = 227 * 1024
)

// Dim3 is a CUDA launch extent.
type Dim3 struct{ X, Y, Z int }

// D1 returns Dim3{x, 1, 1}.
func D1(x int) Dim3 { return Dim3{x, 1, 1} }

// Size is the number of points in d.
func (d Dim3) Size() int { return d.X * d.Y * d.Z }

// Linear returns the row-major linear index of p inside d (x fastest), as
// CUDA numbers threads of a block.
func (d Dim3) Linear(p Dim3) int { return (p.Z*d.Y+p.Y)*d.X + p.X }

// Unlinear is the inverse of Linear.
func (d Dim3) Unlinear(i int) Dim3 {
	return Dim3{X: i % d.X, Y: (i / d.X) % d.Y, Z: i / (d.X * d.Y)}
}

func (d Dim3) String() string { return fmt.Sprintf("(%d,%d,%d)", d.X, d.Y, d.Z) }

// ParseDim3 reads "X", "X,Y" or "X,Y,Z" (missing components are 1).
func ParseDim3(s string) (Dim3, error) {
	parts := strings.Split(s, ",")
	if len(parts) > 3 || s == "" {
		return Dim3{}, fmt.Errorf("bad extent %q: want X[,Y[,Z]]", s)
	}
	v := [3]int{1, 1, 1}
	for i, p := range parts {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n < 1 {
			return Dim3{}, fmt.Errorf("bad extent %q: components must be positive integers", s)
		}
		v[i] = n
	}
	return Dim3{v[0], v[1], v[2]}, nil
}

// Level is a level of the thread hierarchy.
type Level int

const (
	Thread Level = iota
	Quadpair
	Warp
	Warpgroup
	CTA
	Cluster
	Grid
)

var levelNames = [...]string{"thread", "quadpair", "warp", "warpgroup", "cta", "cluster", "grid"}

func (l Level) String() string {
	if int(l) < len(levelNames) {
		return levelNames[l]
	}
	return "level(" + strconv.Itoa(int(l)) + ")"
}

// Space is a memory space.
type Space int

const (
	Host Space = iota
	Global
	Shared
	Register
	Constant
	Local
)

var spaceNames = [...]string{"host", "global", "shared", "register", "constant", "local"}

func (s Space) String() string {
	if int(s) < len(spaceNames) {
		return spaceNames[s]
	}
	return "space(" + strconv.Itoa(int(s)) + ")"
}

// Launch is the shape of one kernel launch: grid of clusters of CTAs of
// threads. Cluster is {1,1,1} when clusters are not used.
type Launch struct {
	Grid, Cluster, Block Dim3
}

// Threads is the number of threads in the launch.
func (l Launch) Threads() int { return l.Grid.Size() * l.Block.Size() }

// NaturalIndex is a thread's natural thread index (seed 000 Definition 4.1):
// the CTA's rank in its cluster and the thread's linear index in its CTA,
// flattened as cta_in_cluster*blockDim + thread. Collective units are
// defined as boxes over this single number within one cluster.
func (l Launch) NaturalIndex(ctaInCluster, threadInCTA int) int {
	return ctaInCluster*l.Block.Size() + threadInCTA
}

// ThreadsPerCluster is the size of the natural-thread-index domain.
func (l Launch) ThreadsPerCluster() int { return l.Cluster.Size() * l.Block.Size() }
