//go:build !unix

package syncheck

func cpuSeconds() float64 { return 0 }
