package gpu

import "testing"

func TestDim3(t *testing.T) {
	d := Dim3{4, 3, 2}
	for i := 0; i < d.Size(); i++ {
		if got := d.Linear(d.Unlinear(i)); got != i {
			t.Fatalf("Linear(Unlinear(%d)) = %d", i, got)
		}
	}
	if p, err := ParseDim3("64,2"); err != nil || p != (Dim3{64, 2, 1}) {
		t.Errorf("ParseDim3 = %v, %v", p, err)
	}
	for _, bad := range []string{"", "0", "1,2,3,4", "x"} {
		if _, err := ParseDim3(bad); err == nil {
			t.Errorf("ParseDim3(%q) accepted", bad)
		}
	}
}

func TestNaturalIndex(t *testing.T) {
	l := Launch{Grid: D1(8), Cluster: D1(2), Block: D1(384)}
	if got := l.NaturalIndex(1, 5); got != 389 {
		t.Errorf("NaturalIndex = %d", got)
	}
	if l.ThreadsPerCluster() != 768 || l.Threads() != 3072 {
		t.Errorf("sizes %d %d", l.ThreadsPerCluster(), l.Threads())
	}
}
