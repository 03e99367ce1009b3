package amir

// randomGens is every random program generator of amir's tests, in one
// order (replay, groups, grid, block grids in both forms, thread symmetry,
// private symmetry, memo, kept checks, task loops, lazy classes, hoisted
// loops, counts, plans, host regions, replay classes): the differential
// tests of a fast path against its plain path run all of them.
func randomGens() []func(int64) *Program {
	return []func(int64) *Program{
		randomReplayProgram, randomGroupProgram, randomGridProgram,
		func(s int64) *Program { return randomBlockProgram(s, false) },
		func(s int64) *Program { return randomBlockProgram(s, true) },
		randomThreadSymProgram, randomPrivateThreadSymProgram, randomMemoProgram,
		randomKeepProgram, randomTaskProgram, randomClassesProgram, randomLoopProgram,
		randomCountsProgram, randomPlanProgram, hostRegionProgram, replayClassProgram,
	}
}
