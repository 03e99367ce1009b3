package syntax

import (
	"strings"

	"weft.dev/weft/diag"
)

// The C++ parts that CUDA code commonly uses and that do not change C's
// grammar much: qualified names (ns::name), namespace aliases and using
// directives, and the cooperative_groups namespace (seed 004 leaves C++ out;
// issue 6 asks for the CUDA-sample subset).
//
// Namespaces are flattened: a name declared in `namespace ns { ... }` is a
// file-scope name, and `ns::name` refers to it. Two namespaces that declare
// the same name therefore collide (a redefinition, C0311), which is reported
// rather than silently resolved. `std::name` means `name`, so std::min and
// std::max resolve to the built-in overloads; std types (std::vector, ...)
// are not modeled and are reported as unknown names.
//
// cooperative_groups names become the reserved identifiers "__cg_NAME",
// which the sem package builds in; an unqualified name after
// `using namespace cooperative_groups;` resolves the same way.

// cgPrefix marks the built-in cooperative_groups names.
const cgPrefix = "__cg_"

// cgModeled are the cooperative_groups names sem implements.
var cgModeled map[string]bool

// initCgModeled builds cgModeled (tables.go).
func initCgModeled() {
	cgModeled = map[string]bool{
		"thread_block": true, "thread_group": true, "thread_block_tile": true,
		"this_thread_block": true, "tiled_partition": true, "sync": true,
		"reduce": true, "plus": true, "less": true, "greater": true,
		"bit_and": true, "bit_or": true, "bit_xor": true,
		"grid_group": true, "this_grid": true,
		"coalesced_group": true, "coalesced_threads": true, "labeled_partition": true, "binary_partition": true,
		"inclusive_scan": true, "exclusive_scan": true, "block_tile_memory": true,
		"memcpy_async": true, "wait": true, "wait_prior": true, // sem/cgasync.go
	}
}

// cubModeled are the names of namespace cub that cub.go defines.
var cubModeled map[string]bool

// initCubModeled builds cubModeled (tables.go).
func initCubModeled() {
	cubModeled = map[string]bool{"BlockReduce": true, "BlockScan": true, "WarpReduce": true, "Sum": true, "Max": true, "Min": true,
		"BlockReduceAlgorithm": true, "BlockScanAlgorithm": true, "BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY": true, "BLOCK_REDUCE_RAKING": true,
		"BLOCK_REDUCE_WARP_REDUCTIONS": true, "BLOCK_SCAN_RAKING": true, "BLOCK_SCAN_RAKING_MEMOIZE": true, "BLOCK_SCAN_WARP_SCANS": true}
}

// cgKnown are cooperative_groups names that exist in CUDA but are not
// modeled; naming one is C0309 rather than an unknown-name error.
var cgKnown map[string]bool

// initCgKnown builds cgKnown (tables.go).
func initCgKnown() {
	cgKnown = map[string]bool{
		"multi_grid_group": true, "this_multi_grid": true, "cluster_group": true, "this_cluster": true,
		"invoke_one": true, "invoke_one_broadcast": true,
		"details": true, "experimental": true,
	}
}

// CGTypeNames are the cooperative_groups types, as the parser sees them.
var CGTypeNames = []string{cgPrefix + "thread_block", cgPrefix + "thread_group", cgPrefix + "thread_block_tile",
	cgPrefix + "grid_group", cgPrefix + "coalesced_group", cgPrefix + "multi_grid_group", cgPrefix + "cluster_group",
	cgPrefix + "block_tile_memory", cgPrefix + "plus", cgPrefix + "less", cgPrefix + "greater", cgPrefix + "bit_and", cgPrefix + "bit_or", cgPrefix + "bit_xor"}

// resolveScopes rewrites qualified names into single identifiers and drops
// namespace aliases and using directives, which it records. It runs on the
// preprocessed tokens before parsing.
func resolveScopes(toks []Token, diags *diag.List, usingStd *bool) []Token {
	tags := structTags(toks)
	instTypes := instanceTypedefs(toks) // attrs.go
	alias := map[string]string{"cooperative_groups": "cooperative_groups", "std": "std"}
	cgUsing := map[string]bool{} // unqualified cooperative_groups names in scope
	stdUsing := false            // using namespace std;
	chronoUsing := false         // using namespace std::chrono; (chrono.go)
	out := make([]Token, 0, len(toks))
	isID := func(i int) bool { return i < len(toks) && toks[i].Kind == Ident }
	isP := func(i int, s string) bool { return i < len(toks) && toks[i].Kind == Punct && toks[i].Text == s }
	// qualified reads ID (:: ID)* at i and returns the parts and the index after them.
	qualified := func(i int) ([]Token, int) {
		parts := []Token{toks[i]}
		i++
		for isP(i, "::") && isID(i+1) {
			parts = append(parts, toks[i+1])
			i += 2
		}
		return parts, i
	}
	nsOf := func(name string) string {
		if a, ok := alias[name]; ok {
			return a
		}
		return name
	}
	for i := 0; i < len(toks); {
		t := toks[i]
		switch {
		case t.Kind == Ident && t.Text == "namespace" && isID(i+1) && isP(i+2, "="):
			// namespace cg = cooperative_groups;
			if isID(i + 3) {
				parts, j := qualified(i + 3)
				target := nsOf(parts[0].Text)
				if len(parts) > 1 {
					target = parts[len(parts)-1].Text
				}
				alias[toks[i+1].Text] = target
				if isP(j, ";") {
					j++
				}
				i = j
				continue
			}
		case t.Kind == Ident && t.Text == "namespace" && isID(i+1) && isP(i+2, "{"):
			alias[toks[i+1].Text] = toks[i+1].Text
		case t.Kind == Ident && t.Text == "using" && isID(i+1) && toks[i+1].Text == "namespace" && isID(i+2):
			// using namespace X; (its names are already flat, except
			// cooperative_groups, whose names become visible unqualified)
			parts, j := qualified(i + 2)
			if nsOf(parts[0].Text) == "std" {
				stdUsing = true
				*usingStd = true
			}
			if ns := nsOf(parts[0].Text); ns == "chrono" || ns == "std" && len(parts) == 2 && parts[1].Text == "chrono" {
				chronoUsing = true
			}
			if nsOf(parts[0].Text) == "cooperative_groups" {
				for n := range cgModeled {
					cgUsing[n] = true
				}
				for n := range cgKnown {
					cgUsing[n] = true
				}
			}
			if isP(j, ";") {
				j++
			}
			i = j
			continue
		case t.Kind == Ident && t.Text == "using" && isID(i+1) && isP(i+2, "::"):
			// using ns::name;
			parts, j := qualified(i + 1)
			if nsOf(parts[0].Text) == "cooperative_groups" {
				cgUsing[parts[len(parts)-1].Text] = true
			}
			if isP(j, ";") {
				j++
			}
			i = j
			continue
		case t.Kind == Ident && chronoUsing && chronoBare[t.Text] && (isP(i+1, "<") || isP(i+1, "::") && isID(i+2) || chronoClocks["std::chrono::"+t.Text]) && (len(out) == 0 || (out[len(out)-1].Text != "." && out[len(out)-1].Text != "->")):
			// after using namespace std::chrono; its names where they
			// are used as templates or scopes, and the clocks (a bare
			// `seconds` may be the program's own variable)
			parts, j := qualified(i)
			var b strings.Builder
			b.WriteString("std::chrono")
			for _, r := range parts {
				b.WriteString("::" + r.Text)
			}
			nt := t
			nt.Text = b.String()
			out = append(out, nt)
			i = j
			continue
		case t.Kind == Punct && t.Text == "::" && len(out) > 0 && out[len(out)-1].Text == ">" && isID(i+1):
			// trait<T>::value, numeric_limits<T>::max: kept for the parser
		case t.Kind == Punct && t.Text == "::" && isID(i+1) && (len(out) == 0 || out[len(out)-1].Kind != Ident || keywords[out[len(out)-1].Text]):
			// ::name, the global scope
			i++
			continue
		case t.Kind == Ident && isP(i+1, "::") && isID(i+2) && instTypes[t.Text] && !tags[t.Text]:
			// BR::TempStorage with BR a typedef of a class template
			// instance: the parser reads the member type (parser.go)
			out = append(out, t)
			i++
			continue
		case t.Kind == Ident && isP(i+1, "::") && isID(i+2):
			parts, j := qualified(i)
			last := parts[len(parts)-1]
			nt := Token{Kind: Ident, Text: last.Text, Pos: t.Pos, Space: t.Space}
			// Tag::member names a static member or an out-of-class
			// member definition; Outer::Inner a nested struct, which is
			// flattened like a namespace member.
			if len(parts) >= 2 && tags[parts[len(parts)-2].Text] && (!tags[last.Text] || last.Text == parts[len(parts)-2].Text) {
				// (Tag::Tag: a constructor defined out of its class)
				nt.Text = parts[len(parts)-2].Text + "::" + last.Text
			}
			if nsOf(parts[0].Text) == "cuda" && last.Text == "atomic_ref" {
				nt.Text = "cuda::atomic_ref"
			}
			if nsOf(parts[0].Text) == "std" && len(parts) == 2 && last.Text == "initializer_list" {
				nt.Text = "std::initializer_list" // initlist.go
			}
			if nsOf(parts[0].Text) == "std" && len(parts) == 2 && last.Text == "array" {
				nt.Text = "std::array" // stdarray.go: a program's own array keeps its name
			}
			if nsOf(parts[0].Text) == "cuda" && last.Text == "barrier" {
				nt.Text = "cuda::barrier" // cudabarrier.go: a program's own barrier keeps its name
			}
			if nsOf(parts[0].Text) == "cub" && !cubModeled[parts[1].Text] {
				// the part of CUB cub.go does not model: named, rather than
				// flattened into a name that parses as something else
				// (cub::DeviceReduce::Sum would be cub::Sum, a type)
				diags.Errorf(t.Pos, "C0309", "cub::%s is not modeled (Weft models cub::BlockReduce, BlockScan, WarpReduce, Sum, Max and Min)", parts[1].Text)
			}
			if nsOf(parts[0].Text) == "cuda" && len(parts) == 2 && (last.Text == "maximum" || last.Text == "minimum") {
				nt.Text = "cuda::" + last.Text // cub.go: a program's own maximum keeps its name
			}
			if nsOf(parts[0].Text) == "cuda" && last.Text == "pipeline" {
				nt.Text = "cuda::pipeline" // cudapipeline.go: a program's own pipeline keeps its name
			}
			if nsOf(parts[0].Text) == "std" && len(parts) == 2 && StdModeled[last.Text] {
				nt.Text = "std::" + last.Text
			}
			if nsOf(parts[0].Text) == "std" && len(parts) == 2 && (CmpObjects[last.Text] || StdContainers[last.Text] || UnmodeledStdTemplates[last.Text]) {
				nt.Text = "std::" + last.Text // a comparison object (parser.go, cmpObject)
			}
			if stdUsing && len(parts) == 2 && (parts[0].Text == "ios" || parts[0].Text == "ios_base") {
				nt.Text = "std::" + parts[0].Text + "::" + last.Text // ios::app after using namespace std
			}
			if ns := nsOf(parts[0].Text); ns == "chrono" || ns == "std" && len(parts) >= 3 && parts[1].Text == "chrono" {
				// std::chrono::steady_clock::now, ch::milliseconds (chrono.go)
				rest := parts[1:]
				if ns == "std" {
					rest = parts[2:]
				}
				var b strings.Builder
				b.WriteString("std::chrono")
				for _, r := range rest {
					b.WriteString("::" + r.Text)
				}
				nt.Text = b.String()
			}
			if nsOf(parts[0].Text) == "std" && len(parts) == 2 && IterFuncs[last.Text] {
				// std::distance keeps its qualifier, so that a program's own
				// distance (a lambda, say) is not the library's
				nt.Text = "std::" + last.Text
			}
			if nsOf(parts[0].Text) == "std" && len(parts) == 2 && ratioNames[last.Text] {
				nt.Text = "std::" + last.Text
			}
			if nsOf(parts[0].Text) == "std" && len(parts) == 3 && streamClasses[parts[1].Text] {
				nt.Text = "std::ios::" + last.Text // std::fstream::in is std::ios_base::in
			}
			if nsOf(parts[0].Text) == "std" && len(parts) == 3 && StdModeled[parts[1].Text] {
				nt.Text = "std::" + parts[1].Text + "::" + last.Text // std::string::npos
			}
			if nsOf(parts[0].Text) == "cooperative_groups" {
				nt.Text = cgName(last, diags)
			}
			out = append(out, nt)
			i = j
			continue
		case t.Kind == Ident && stdUsing && StdModeled[t.Text] && (len(out) == 0 || (out[len(out)-1].Text != "." && out[len(out)-1].Text != "->")):
			// after using namespace std; the modeled std names
			nt := t
			nt.Text = "std::" + t.Text
			out = append(out, nt)
			i++
			continue
		case t.Kind == Ident && cgUsing[t.Text] && (len(out) == 0 || (out[len(out)-1].Text != "." && out[len(out)-1].Text != "->")):
			nt := t
			nt.Text = cgName(t, diags)
			out = append(out, nt)
			i++
			continue
		}
		out = append(out, t)
		i++
	}
	return out
}

// cgName maps a cooperative_groups name to its built-in identifier.
func cgName(t Token, diags *diag.List) string {
	if !cgModeled[t.Text] {
		if cgKnown[t.Text] {
			diags.Errorf(t.Pos, "C0309", "cooperative_groups::%s is not modeled (modeled: thread_block, this_thread_block, thread_group, tiled_partition, thread_block_tile, sync, reduce, grid_group, this_grid, memcpy_async, wait)", t.Text)
		} else {
			diags.Errorf(t.Pos, "C0301", "no cooperative_groups::%s", t.Text)
		}
	}
	return cgPrefix + t.Text
}

// CmpObjects are <functional>'s comparison function objects that sem
// models as the comparator of std::sort (lang/cudac/sem/lib_algorithm.go),
// written std::greater<T>() or std::greater<>{}; only the qualified name is
// recognized, so a program's own less or greater keeps its meaning.
var CmpObjects = map[string]bool{"greater": true, "less": true}

// streamClasses are the stream classes whose members std::fstream::in,
// std::ifstream::binary, ... name std::ios_base's (sem/lib_fstream.go).
var streamClasses map[string]bool

// initStreamClasses builds streamClasses (tables.go).
func initStreamClasses() {
	streamClasses = map[string]bool{"fstream": true, "ifstream": true, "ofstream": true, "stringstream": true,
		"istringstream": true, "ostringstream": true, "istream": true, "ostream": true, "iostream": true}
}

// IterFuncs are <iterator>'s functions that sem models
// (lang/cudac/sem/lib_iterator.go); written std::NAME they keep the
// qualifier.
var IterFuncs = map[string]bool{"distance": true, "next": true, "prev": true, "advance": true, "begin": true, "end": true}

// StdModeled are the names of the C++ standard library that keep their
// std:: qualifier (sem models them: lang/cudac/sem/lib_std.go); other std
// names are flattened (std::min is min).
var StdModeled = map[string]bool{"string": true, "vector": true, "to_string": true,
	"cout": true, "cerr": true, "clog": true, "endl": true, "flush": true, "cin": true,
	"ios": true, "ios_base": true} // std::ios::app ... (sem/lib_fstream.go)
