package syntax

import "weft.dev/weft/diag"

// Attributes (C++11 [dcl.attr], GNU __attribute__, CUDA's parameter and
// launch annotations) do not change what a program computes on one GPU, so
// the parser drops them before parsing: [[...]], __attribute__((...)),
// __grid_constant__ (the kernel parameter is read-only in both cases) and
// _Alignas, which becomes C++'s alignas (kept: it changes layout).
// __launch_bounds__ and __align__ are macros of the predefined header.
// weak linkage (__attribute__((weak))) only matters when two translation
// units define the same function, and the linker (sem.Link) keeps one
// definition of those anyway.
func stripAttributes(toks []Token, diags *diag.List) []Token {
	out := make([]Token, 0, len(toks))
	isP := func(i int, s string) bool { return i < len(toks) && toks[i].Kind == Punct && toks[i].Text == s }
	// skipBalanced returns the index after the bracket group opening at i.
	skipBalanced := func(i int, open, close string) int {
		level := 0
		for j := i; j < len(toks); j++ {
			if toks[j].Kind == EOF {
				return j
			}
			if toks[j].Kind == Punct {
				switch toks[j].Text {
				case open:
					level++
				case close:
					level--
					if level == 0 {
						return j + 1
					}
				}
			}
		}
		return len(toks)
	}
	for i := 0; i < len(toks); {
		t := toks[i]
		switch {
		case isP(i, "[") && isP(i+1, "["):
			j := skipBalanced(i, "[", "]")
			if j > len(toks)-1 || toks[j-1].Text != "]" {
				diags.Errorf(t.Pos, "C0213", "unterminated attribute [[...]]")
			}
			i = j
			continue
		case t.Kind == Ident && (t.Text == "__attribute__" || t.Text == "__attribute" || t.Text == "__declspec") && isP(i+1, "("):
			i = skipBalanced(i+1, "(", ")")
			continue
		case t.Kind == Ident && t.Text == "__grid_constant__":
			i++
			continue
		case t.Kind == Ident && t.Text == "_Alignas":
			t.Text = "alignas"
		}
		out = append(out, t)
		i++
	}
	return out
}

// structTags collects the names declared with struct, class or union, so
// that resolveScopes can keep Tag::member qualified (static members,
// out-of-class member definitions) while flattening namespaces.
func structTags(toks []Token) map[string]bool {
	tags := map[string]bool{}
	for i := 0; i+1 < len(toks); i++ {
		t := toks[i]
		if t.Kind == Ident && (t.Text == "struct" || t.Text == "class" || t.Text == "union") &&
			(i == 0 || (toks[i-1].Text != "<" && toks[i-1].Text != "," && toks[i-1].Text != "enum")) {
			j := i + 1
			for j < len(toks) && toks[j].Kind == Ident && toks[j].Text == "alignas" {
				j += 2 // alignas ( N ): skip to the name
				for j < len(toks) && toks[j].Text != ")" {
					j++
				}
				j++
			}
			if j < len(toks) && toks[j].Kind == Ident && !keywords[toks[j].Text] && !(j+1 < len(toks) && toks[j+1].Text == "::") {
				// (struct ns::Name: the tag is Name, not the namespace)
				tags[toks[j].Text] = true
			}
		}
	}
	return tags
}

// instanceTypedefs are the names a typedef or alias declaration gives to a
// class template instance ("typedef cub::BlockReduce<int, 128> BR;",
// "using BR = S<int>;"): BR::TempStorage names a member type of the
// instance, which resolveScopes must not flatten to TempStorage.
func instanceTypedefs(toks []Token) map[string]bool {
	names := map[string]bool{}
	for i := 0; i < len(toks); i++ {
		switch {
		case toks[i].Kind == Ident && toks[i].Text == "typedef":
			// the name is the identifier before the ';' when a '<'
			// (a template argument list) came before it
			angle := false
			for j := i + 1; j < len(toks) && toks[j].Text != ";" && toks[j].Text != "{"; j++ {
				if toks[j].Text == "<" {
					angle = true
				}
				if angle && toks[j].Kind == Ident && j+1 < len(toks) && toks[j+1].Text == ";" {
					names[toks[j].Text] = true
				}
			}
		case toks[i].Kind == Ident && toks[i].Text == "using" && i+2 < len(toks) && toks[i+1].Kind == Ident && toks[i+2].Text == "=":
			for j := i + 3; j < len(toks) && toks[j].Text != ";"; j++ {
				if toks[j].Text == "<" {
					names[toks[i+1].Text] = true
					break
				}
			}
		}
	}
	return names
}
