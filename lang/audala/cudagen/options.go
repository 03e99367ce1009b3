package cudagen

// Strategy is the schedule strategy (spec §5.6).
type Strategy int

const (
	Graph Strategy = iota // CUDA graphs with conditional while nodes
	Host                  // host-driven launches
	Grid                  // one cooperative kernel with grid.sync()
)

var strategyNames = [...]string{"graph", "host", "grid"}

func (s Strategy) String() string { return strategyNames[s] }

// ParseStrategy parses a --schedule-strategy value.
func ParseStrategy(s string) (Strategy, bool) {
	for i, n := range strategyNames {
		if n == s {
			return Strategy(i), true
		}
	}
	return 0, false
}

// MemOrder is the memory order of racing accesses (spec §5.10).
type MemOrder int

const (
	Relaxed MemOrder = iota
	RA               // acquire loads, release stores
	SC               // sequentially consistent
)

var memOrderNames = [...]string{"relaxed", "ra", "sc"}

func (m MemOrder) String() string { return memOrderNames[m] }

// ParseMemOrder parses a --memorder value.
func ParseMemOrder(s string) (MemOrder, bool) {
	for i, n := range memOrderNames {
		if n == s {
			return MemOrder(i), true
		}
	}
	return 0, false
}

// Options configure the generated program.
type Options struct {
	Strategy Strategy
	MemOrder MemOrder
	// ONRP compiles non-racing parameter accesses as weak loads and stores
	// (spec §5.9); false makes every access atomic.
	ONRP bool
	// Rotating selects the rotating fixpoint strategy (thesis §5.3, Fig.
	// 17) for the grid strategy: one synchronisation per iteration instead
	// of three.
	Rotating bool
	// Capacity fixes the instance capacity (the null instance excluded) of
	// the named structs. Others that grow get 2*(initial instances)+1024
	// at run time; structs that never grow get exactly their initial ones.
	Capacity map[string]int
	// Time makes the program print `Total walltime GPU: %0.6f ms` on
	// stderr: CUDA events around the whole schedule, as AuDaLaC's --time
	// (spec §5.11); the copy of the initial instances is excluded.
	Time bool
	// PrintUnstable makes the program count, per parameter and per
	// constructor, the writes inside fixpoints that cleared stability, and
	// print them on stderr after the schedule in the format of `weft run
	// --printunstable` (docs/audala.md; AuDaLaC's --printunstable). It
	// costs one atomic add per such write.
	PrintUnstable bool
}
