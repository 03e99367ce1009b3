package syncheck

import "weft.dev/weft/diag"

// Diagnostic codes of the sync checker (W06xx-W07xx).
const (
	codeRAW         = "W0601"
	codeWAR         = "W0602"
	codeWAW         = "W0603"
	codeInFlight    = "W0604"
	codeFree        = "W0605"
	codeBarrier     = "W0606"
	codeFault       = "W0607"
	codeEarlyAwait  = "W0608"
	codePhase       = "W0609"
	codeSizes       = "W0610"
	codeUnsupported = "W0611"
	codeVacuous     = "W0612"
	codeLimit       = "W0613"
	codeMore        = "W0620"
	codeRedundant   = "W0630"
	codeNeeded      = "W0631"
)

func init() {
	diag.Register("weft", []diag.Code{
		{Code: codeRAW, Summary: "sync check: read-after-write hazard (a read may not see a prior write)"},
		{Code: codeWAR, Summary: "sync check: write-after-read hazard (a write may overwrite data a prior read has not finished with)"},
		{Code: codeWAW, Summary: "sync check: write-after-write hazard (two writes are not ordered)"},
		{Code: codeInFlight, Summary: "sync check: an async (out-of-order) access is still in flight when its own thread uses the data again"},
		{Code: codeFree, Summary: "sync check: a variable is freed while accesses to it may be outstanding (SMEM free safety)"},
		{Code: codeBarrier, Summary: "sync check: arrive/await counts of a barrier differ at its deallocation"},
		{Code: codeFault, Summary: "sync check: the program faulted for the checked sizes (out-of-bounds access, malformed barrier use)"},
		{Code: codeEarlyAwait, Summary: "sync check: an Await pairs with an Arrive that comes after it in program order (await before its arrive; a deadlock on hardware)"},
		{Code: codePhase, Summary: "sync check: the hardware mbarriers a barrier lowers to would alias phases (an arrive into a ring slot's next phase before its awaiters observed the current one, an arrival count that differs from the init count, or an await of the wrong phase)"},
		{Code: codeSizes, Summary: "sync check: no concrete sizes given (NAME=VALUE arguments or `# check: NAME=VALUE` lines)"},
		{Code: codeUnsupported, Summary: "sync check: a construct the abstract machine conversion does not support"},
		{Code: codeVacuous, Summary: "sync check: the check sizes violate an assert of the proc or launch no task, so nothing would be checked"},
		{Code: codeLimit, Summary: "sync check: the run reached a resource limit (--max-tasks, --max-cells, --max-memory) and stopped; the flag named raises it"},
		{Code: codeMore, Summary: "sync check: further hazards not shown (see --max-hazards)"},
		{Code: codeRedundant, Summary: "sync check --redundant-sync: removing this synchronization creates no hazard at the checked sizes"},
		{Code: codeNeeded, Summary: "sync check --redundant-sync: summary of synchronization statements that are needed"},
	})
}
