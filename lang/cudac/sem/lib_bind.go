package sem

import (
	"strconv"
	"strings"
)

// Structured bindings: the parser (syntax/bindings.go) writes each
// bound name as a reference to hidden.__bindI; the I-th member of a class
// is its I-th non-static data member in declaration order (C++17
// [dcl.struct.bind]p4), skipping the model's own hidden members (a
// virtual table pointer).

func bindIndex(name string) (int, bool) {
	if !strings.HasPrefix(name, "__bind") {
		return 0, false
	}
	i, err := strconv.Atoi(name[len("__bind"):])
	return i, err == nil && i >= 0
}

func (t *Type) boundField(i int) *FieldInfo {
	k := 0
	for _, f := range t.Fields {
		if f.Name == "" || strings.HasPrefix(f.Name, "__") {
			continue
		}
		if k == i {
			return f
		}
		k++
	}
	return nil
}
