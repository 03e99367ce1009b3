package amir

// HWNoRounds turns the clocks' repeated rounds off (true) or on (false);
// with trace, every answer of the clocks (clkAnswer) from now on is
// appended to *trace (the statement's source, 2 for an Await's check, 1
// for an answer true), and the rounds not folded and the ends of the
// virtual rounds are counted in *virt and *ends. For
// TestClkRoundsMatchFold.
func HWNoRounds(off bool, trace *[]int, virt, ends *int) {
	hwNoRounds = off
	if trace == nil {
		hwClockTrace, hwRoundStats = nil, nil
		return
	}
	hwClockTrace = func(src int, await, ans bool) {
		x := src * 4
		if await {
			x += 2
		}
		if ans {
			x++
		}
		*trace = append(*trace, x)
	}
	hwRoundStats = func(v bool) {
		if v {
			*virt++
		} else {
			*ends++
		}
	}
}

// HWRoundStates, with states non-nil, records from now on at each mark of
// a round (clkRound) a digest of the clocks as they stand there into
// states, by log position: in a virtual round's start, the rows and last
// births at base under g; else folded to the mark. The cell entries'
// values are taken under their own g. Marks inside a virtual round are
// not recorded.
func HWRoundStates(states map[uint64]uint64) {
	if states == nil {
		hwRoundState = nil
		return
	}
	hwRoundState = func(m *Machine) {
		c := m.hwClk
		if c == nil || c.run != m.runs || c.off || !c.armed {
			return
		}
		now := int32(len(m.log))
		rd := &c.rd
		var d int32
		if rd.virt {
			if rd.vs != now {
				return
			}
			d = now - rd.base
		} else if !m.clkFold() {
			return
		}
		h := uint64(14695981039346656037)
		mix := func(x int32) {
			h ^= uint64(uint32(x))
			h *= 1099511628211
		}
		n, st := len(c.cols), c.stride
		mix(int32(n))
		mix(int32(len(c.size)))
		for a := range c.size {
			for j := 0; j < hwClkRows; j++ {
				for k, x := range c.clk[(a*hwClkRows+j)*st:][:n] {
					if rd.virt {
						x = shiftAt(x, d, rd.fz, k)
					}
					mix(x)
				}
			}
		}
		for k, x := range c.last {
			if rd.virt {
				x = shiftAt(x, d, rd.fz, k)
			}
			mix(x)
		}
		for cell, i := range c.cellHead {
			if i == 0 {
				continue
			}
			mix(int32(cell))
			for ; i != 0; i = c.ents[i-1].prev {
				en := &c.ents[i-1]
				mix(en.count)
				va, vb, vu := c.entVals(en)
				for _, v := range [][]int32{va, vb, vu} {
					for k, x := range v {
						mix(shiftAt(x, en.sh, en.fz, k))
					}
				}
			}
		}
		mix(int32(c.passed))
		mix(int32(c.failed))
		states[m.runs<<32|uint64(now)] = h
	}
}
