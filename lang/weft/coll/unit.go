package coll

import (
	"fmt"
	"strconv"
	"strings"
)

// Machine is what a collective unit is resolved against: the launch shape
// of one CudaDeviceFunction (seed 000 §3.4).
type Machine struct {
	BlockDim   int // threads per CTA (x only: Definition 4.1)
	ClusterDim int // CTAs per cluster; 1 when clusters are not used
}

// Threads is the number of natural thread indices: clusterDim * blockDim.
func (m Machine) Threads() int { return m.ClusterDim * m.BlockDim }

// Sym is one coordinate of a unit's domain or box, symbolic in the launch
// shape: Num * blockDim^BlockDim * clusterDim^ClusterDim / Div. Any is the
// wildcard `_` of the agnostic units (Fig. 11).
type Sym struct {
	Num        int
	Div        int // 0 means 1
	BlockDim   bool
	ClusterDim bool
	Any        bool
}

// Const is the constant coordinate n.
func Const(n int) Sym { return Sym{Num: n} }

// BlockDimSym is blockDim * num / div.
func BlockDimSym(num, div int) Sym { return Sym{Num: num, Div: div, BlockDim: true} }

// ClusterDimSym is clusterDim * num / div.
func ClusterDimSym(num, div int) Sym { return Sym{Num: num, Div: div, ClusterDim: true} }

// ClusterThreadsSym is clusterDim * blockDim * num / div.
func ClusterThreadsSym(num, div int) Sym {
	return Sym{Num: num, Div: div, BlockDim: true, ClusterDim: true}
}

// AnySym is the wildcard `_`.
var AnySym = Sym{Any: true}

// Eval resolves s on m; the wildcard resolves to -1.
func (s Sym) Eval(m Machine) (int, error) {
	if s.Any {
		return -1, nil
	}
	v := s.Num
	if s.BlockDim {
		v *= m.BlockDim
	}
	if s.ClusterDim {
		v *= m.ClusterDim
	}
	d := s.Div
	if d == 0 {
		d = 1
	}
	if d < 0 || v%d != 0 {
		return 0, fmt.Errorf("%s is not a whole number for blockDim=%d, clusterDim=%d", s, m.BlockDim, m.ClusterDim)
	}
	if v/d <= 0 {
		return 0, fmt.Errorf("%s must be positive (blockDim=%d, clusterDim=%d)", s, m.BlockDim, m.ClusterDim)
	}
	return v / d, nil
}

func (s Sym) scaled(k int) Sym { s.Num *= k; return s }

func (s Sym) String() string {
	if s.Any {
		return "_"
	}
	var parts []string
	if s.Num != 1 || (!s.BlockDim && !s.ClusterDim) {
		parts = append(parts, strconv.Itoa(s.Num))
	}
	if s.ClusterDim {
		parts = append(parts, "clusterDim")
	}
	if s.BlockDim {
		parts = append(parts, "blockDim")
	}
	out := strings.Join(parts, " * ")
	if s.Div > 1 {
		out += " / " + strconv.Itoa(s.Div)
	}
	return out
}

// Unit is a collective unit τ_u (seed 000 Fig. 11): a domain and a box of
// equal length, both symbolic. The thread collectives the unit describes
// are the boxes tiling the domain, a reshape of the cluster's natural
// thread indices (most significant coordinate first).
type Unit struct {
	Name   string
	Domain []Sym
	Box    []Sym
	// ScaledDim is the box coordinate that `n * unit` multiplies, or -1
	// when the unit cannot be scaled (cuda_quadpair, cuda_cluster).
	ScaledDim int
	// Scale is the n of `n * unit` already applied (1 if none), kept for
	// printing.
	Scale int
}

func (u Unit) String() string {
	if u.Scale > 1 {
		return strconv.Itoa(u.Scale) + " * " + u.Name
	}
	return u.Name
}

// Shape prints the unit's domain and box as in Fig. 11.
func (u Unit) Shape() string {
	return "domain " + symTuple(u.Domain) + ", box " + symTuple(u.Box)
}

func symTuple(s []Sym) string {
	parts := make([]string, len(s))
	for i, x := range s {
		parts[i] = x.String()
	}
	if len(parts) == 1 {
		return "(" + parts[0] + ",)"
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// Scaled returns k * u (seed 002: "32 * cuda_thread is the same as
// cuda_warp").
func (u Unit) Scaled(k int) (Unit, error) {
	if k < 1 {
		return Unit{}, fmt.Errorf("unit scale must be a positive integer, not %d", k)
	}
	if u.ScaledDim < 0 {
		return Unit{}, fmt.Errorf("collective unit %s cannot be scaled", u.Name)
	}
	v := u
	v.Box = append([]Sym(nil), u.Box...)
	v.Box[u.ScaledDim] = v.Box[u.ScaledDim].scaled(k)
	if v.Scale == 0 {
		v.Scale = 1
	}
	v.Scale *= k
	return v, nil
}

// Resolve evaluates the domain and box on m. Box coordinates that are the
// wildcard come back as -1. It checks that the box fits the domain and that
// the domain divides the cluster's thread count.
func (u Unit) Resolve(m Machine) (domain, box []int, err error) {
	return u.resolveInto(m, nil, nil)
}

// resolveInto is Resolve writing into dbuf and bbuf when they are long
// enough (the derivations pass arrays on their stack).
func (u Unit) resolveInto(m Machine, dbuf, bbuf []int) (domain, box []int, err error) {
	if len(u.Domain) != len(u.Box) || len(u.Domain) == 0 {
		return nil, nil, fmt.Errorf("collective unit %s: domain and box must have the same, nonzero length", u)
	}
	if len(dbuf) >= len(u.Domain) && len(bbuf) >= len(u.Box) {
		domain, box = dbuf[:len(u.Domain)], bbuf[:len(u.Box)]
	} else {
		domain = make([]int, len(u.Domain))
		box = make([]int, len(u.Box))
	}
	total := 1
	for i := range u.Domain {
		if u.Domain[i].Any {
			return nil, nil, fmt.Errorf("collective unit %s: domain cannot contain _", u)
		}
		if domain[i], err = u.Domain[i].Eval(m); err != nil {
			return nil, nil, fmt.Errorf("collective unit %s: domain: %v", u, err)
		}
		if box[i], err = u.Box[i].Eval(m); err != nil {
			return nil, nil, fmt.Errorf("collective unit %s: box: %v", u, err)
		}
		if box[i] > domain[i] {
			return nil, nil, fmt.Errorf("collective unit %s: box %d exceeds domain %d for blockDim=%d, clusterDim=%d",
				u, box[i], domain[i], m.BlockDim, m.ClusterDim)
		}
		total *= domain[i]
	}
	if total > m.Threads() || m.Threads()%total != 0 {
		return nil, nil, fmt.Errorf("collective unit %s: domain of %d threads does not divide the cluster's %d threads", u, total, m.Threads())
	}
	return domain, box, nil
}

// Threads is the number of threads in one collective of u (wildcards count
// as their whole domain coordinate).
func (u Unit) Threads(m Machine) (int, error) {
	if len(u.Domain) == 1 && len(u.Box) == 1 {
		if n, ok := threadsOne(u.Domain[0], u.Box[0], m); ok {
			return n, nil
		}
	}
	return u.threadsGeneral(m)
}

// threadsOne is Threads of a unit of one dimension, domain d and box b,
// where it succeeds; ok is false where threadsGeneral must run (for its
// error). It takes resolveInto's steps for one dimension: the domain
// evaluates (symValue: not the wildcard, a positive whole value), the
// box is the wildcard (Eval's -1, which counts as the domain) or
// evaluates to at most the domain, and the domain divides the machine's
// threads. The distributed memory analysis asks this of every variable
// and desugared instruction loop, the code generator of every native
// unit: resolveInto's general way and its error paths were ~250
// instructions a call, a tenth of the analysis on shfl_xor (issue 13,
// stop 43). TestThreadsOneMatchesGeneral compares the two.
func threadsOne(d, b Sym, m Machine) (int, bool) {
	dv, ok := symValue(d, m)
	if !ok {
		return 0, false
	}
	n := dv
	if !b.Any {
		bv, ok := symValue(b, m)
		if !ok || bv > dv {
			return 0, false
		}
		n = bv
	}
	if t := m.Threads(); dv > t || t%dv != 0 {
		return 0, false
	}
	return n, true
}

// threadsGeneral is Threads by resolveInto, for any unit.
func (u Unit) threadsGeneral(m Machine) (int, error) {
	// Resolved on the stack: the code generator asks this of every
	// cuda_threads loop (issue 13).
	var dbuf, bbuf [maxDims]int
	d, b, err := u.resolveInto(m, dbuf[:], bbuf[:])
	if err != nil {
		return 0, err
	}
	n := 1
	for i := range b {
		if b[i] < 0 {
			n *= d[i]
		} else {
			n *= b[i]
		}
	}
	return n, nil
}

// The standard collective units of seed 000 Fig. 11.
var (
	StandaloneThread  = Unit{Name: "standalone_thread", Domain: []Sym{Const(1)}, Box: []Sym{Const(1)}, ScaledDim: 0}
	CudaThread        = Unit{Name: "cuda_thread", Domain: []Sym{BlockDimSym(1, 1)}, Box: []Sym{Const(1)}, ScaledDim: 0}
	CudaQuadpair      = Unit{Name: "cuda_quadpair", Domain: []Sym{BlockDimSym(1, 16), Const(16)}, Box: []Sym{Const(2), Const(4)}, ScaledDim: -1}
	CudaWarp          = Unit{Name: "cuda_warp", Domain: []Sym{BlockDimSym(1, 1)}, Box: []Sym{Const(32)}, ScaledDim: 0}
	CudaWarpgroup     = Unit{Name: "cuda_warpgroup", Domain: []Sym{BlockDimSym(1, 1)}, Box: []Sym{Const(128)}, ScaledDim: 0}
	CudaWarpInCluster = Unit{Name: "cuda_warp_in_cluster", Domain: []Sym{ClusterDimSym(1, 1), BlockDimSym(1, 1)},
		Box: []Sym{Const(1), Const(32)}, ScaledDim: 0}
	CudaCtaInCluster = Unit{Name: "cuda_cta_in_cluster", Domain: []Sym{ClusterThreadsSym(1, 1)},
		Box: []Sym{BlockDimSym(1, 1)}, ScaledDim: 0}
	CudaCluster = Unit{Name: "cuda_cluster", Domain: []Sym{ClusterThreadsSym(1, 1)},
		Box: []Sym{ClusterThreadsSym(1, 1)}, ScaledDim: -1}
	CudaAgnosticSubCta = Unit{Name: "cuda_agnostic_sub_cta", Domain: []Sym{ClusterDimSym(1, 1), BlockDimSym(1, 1)},
		Box: []Sym{Const(1), AnySym}, ScaledDim: -1}
	CudaAgnosticIntactCta = Unit{Name: "cuda_agnostic_intact_cta", Domain: []Sym{ClusterDimSym(1, 1), BlockDimSym(1, 1)},
		Box: []Sym{AnySym, BlockDimSym(1, 1)}, ScaledDim: -1}
)

// ThreadsStrided is cuda_threads_strided(n2, n3): n2 adjacent threads out of
// every n3 (domain (blockDim/n3, n3), box (1, n2)); `n1 *` takes n1 such
// groups, n3 threads apart.
func ThreadsStrided(n2, n3 int) Unit {
	return Unit{Name: fmt.Sprintf("cuda_threads_strided(%d, %d)", n2, n3),
		Domain: []Sym{BlockDimSym(1, n3), Const(n3)}, Box: []Sym{Const(1), Const(n2)}, ScaledDim: 0}
}

// CtaInClusterStrided is cuda_cta_in_cluster_strided(n3): one CTA out of
// every n3 of the cluster (domain (clusterDim/n3, n3, blockDim), box
// (1, 1, blockDim)).
func CtaInClusterStrided(n3 int) Unit {
	return Unit{Name: fmt.Sprintf("cuda_cta_in_cluster_strided(%d)", n3),
		Domain: []Sym{ClusterDimSym(1, n3), Const(n3), BlockDimSym(1, 1)},
		Box:    []Sym{Const(1), Const(1), BlockDimSym(1, 1)}, ScaledDim: 0}
}

// WarpInClusterStrided is cuda_warp_in_cluster_strided(n3): one warp of
// every n3-th CTA (domain (clusterDim/n3, n3, blockDim), box (1, 1, 32)).
func WarpInClusterStrided(n3 int) Unit {
	return Unit{Name: fmt.Sprintf("cuda_warp_in_cluster_strided(%d)", n3),
		Domain: []Sym{ClusterDimSym(1, n3), Const(n3), BlockDimSym(1, 1)},
		Box:    []Sym{Const(1), Const(1), Const(32)}, ScaledDim: 0}
}

var stdUnits = map[string]Unit{}

func init() {
	for _, u := range []Unit{StandaloneThread, CudaThread, CudaQuadpair, CudaWarp, CudaWarpgroup,
		CudaWarpInCluster, CudaCtaInCluster, CudaCluster, CudaAgnosticSubCta, CudaAgnosticIntactCta} {
		stdUnits[u.Name] = u
	}
}

// LookupUnit returns the standard unit with the given name (the plain names
// of Fig. 11; the parameterized strided units are built with ThreadsStrided,
// CtaInClusterStrided and WarpInClusterStrided).
func LookupUnit(name string) (Unit, bool) {
	u, ok := stdUnits[name]
	return u, ok
}

// StridedUnit builds one of the parameterized units of Fig. 11 by name.
func StridedUnit(name string, args []int) (Unit, error) {
	switch name {
	case "cuda_threads_strided":
		if len(args) != 2 {
			return Unit{}, fmt.Errorf("cuda_threads_strided takes 2 arguments (n2, n3)")
		}
		if args[0] < 1 || args[1] < 1 || args[0] > args[1] {
			return Unit{}, fmt.Errorf("cuda_threads_strided(%d, %d): need 1 <= n2 <= n3", args[0], args[1])
		}
		return ThreadsStrided(args[0], args[1]), nil
	case "cuda_cta_in_cluster_strided", "cuda_warp_in_cluster_strided":
		if len(args) != 1 || args[0] < 1 {
			return Unit{}, fmt.Errorf("%s takes 1 positive argument (n3)", name)
		}
		if name == "cuda_cta_in_cluster_strided" {
			return CtaInClusterStrided(args[0]), nil
		}
		return WarpInClusterStrided(args[0]), nil
	}
	return Unit{}, fmt.Errorf("unknown collective unit %s", name)
}

// IsStridedUnitName reports whether name is a parameterized unit of Fig. 11.
func IsStridedUnitName(name string) bool {
	switch name {
	case "cuda_threads_strided", "cuda_cta_in_cluster_strided", "cuda_warp_in_cluster_strided":
		return true
	}
	return false
}
