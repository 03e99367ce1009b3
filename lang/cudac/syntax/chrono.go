package syntax

// <chrono>'s names keep their std::chrono:: qualifier (cxx.go,
// resolveScopes; also through `namespace ch = std::chrono;` and after
// `using namespace std;`): the clocks' now() and time_point, the duration
// types, duration_cast, and <ratio>'s std::milli, std::micro, std::nano.
// lang/cudac/sem/lib_chrono.go models them.

// ChronoTypeNames are the type names the parser knows.
var ChronoTypeNames = []string{
	"std::chrono::duration", "std::chrono::nanoseconds", "std::chrono::microseconds",
	"std::chrono::milliseconds", "std::chrono::seconds", "std::chrono::minutes", "std::chrono::hours",
	"std::chrono::steady_clock::time_point", "std::chrono::high_resolution_clock::time_point",
	"std::chrono::system_clock::time_point", "std::chrono::steady_clock::duration",
	"std::chrono::high_resolution_clock::duration", "std::chrono::system_clock::duration",
	"std::milli", "std::micro", "std::nano", "std::ratio",
}

// chronoTemplates are the class templates among them (duration<R, P>,
// ratio<N, D>), parsed with their template arguments.
var chronoTemplates map[string]bool

// initChronoTemplates builds chronoTemplates (tables.go).
func initChronoTemplates() {
	chronoTemplates = map[string]bool{"std::chrono::duration": true, "std::ratio": true}
}

// ChronoFuncTemplates are the function templates (duration_cast<D>(d)).
var ChronoFuncTemplates = map[string]bool{"std::chrono::duration_cast": true}

// ratioNames are <ratio>'s SI typedefs, kept qualified (std::milli).
var ratioNames map[string]bool

// initRatioNames builds ratioNames (tables.go).
func initRatioNames() {
	ratioNames = map[string]bool{"milli": true, "micro": true, "nano": true, "ratio": true}
}

func init() { BuiltinTypeNames = append(BuiltinTypeNames, ChronoTypeNames...) }

// chronoBare are the names that `using namespace std::chrono;` makes
// visible unqualified (cxx.go).
var chronoBare = map[string]bool{"duration": true, "duration_cast": true, "time_point": true,
	"steady_clock": true, "high_resolution_clock": true, "system_clock": true, "nanoseconds": true,
	"microseconds": true, "milliseconds": true, "seconds": true, "minutes": true, "hours": true}

// chronoPeriods are the periods of the duration typedefs as <ratio>'s
// names ([time.syn]: microseconds is duration<rep, micro>).
var chronoPeriods = map[string]string{"std::chrono::nanoseconds::period": "std::nano",
	"std::chrono::microseconds::period": "std::micro", "std::chrono::milliseconds::period": "std::milli"}

// chronoClocks are the clocks whose time_point type is modeled.
var chronoClocks = map[string]bool{"std::chrono::steady_clock": true, "std::chrono::high_resolution_clock": true, "std::chrono::system_clock": true}

// chronoTimePoints rewrites std::chrono::time_point<Clock> (C++17
// [time.point]; the clock's own duration, the only form the model has)
// into Clock::time_point, the name the model knows. It runs after
// resolveScopes, which has qualified the names. A closing '>>' of an
// enclosing template keeps its second '>'.
func chronoTimePoints(toks []Token) []Token {
	// most programs name no chrono type: the tokens as they are (a 1 MB
	// source's token slice is not copied; SobolQRNG's table)
	first := -1
	for i := range toks {
		if toks[i].Kind == Ident && (toks[i].Text == "std::chrono::time_point" || chronoPeriods[toks[i].Text] != "") {
			first = i
			break
		}
	}
	if first < 0 {
		return toks
	}
	out := make([]Token, first, len(toks))
	copy(out, toks[:first])
	for i := first; i < len(toks); i++ {
		t := toks[i]
		if t.Kind == Ident && t.Text == "std::chrono::time_point" && i+3 < len(toks) && toks[i+1].Text == "<" &&
			toks[i+2].Kind == Ident && chronoClocks[toks[i+2].Text] && (toks[i+3].Text == ">" || toks[i+3].Text == ">>") {
			nt := t
			nt.Text = toks[i+2].Text + "::time_point"
			out = append(out, nt)
			if toks[i+3].Text == ">>" {
				gt := toks[i+3]
				gt.Text = ">"
				gt.Pos.Offset++
				out = append(out, gt)
			}
			i += 3
			continue
		}
		if p, ok := chronoPeriods[t.Text]; ok && t.Kind == Ident {
			t.Text = p
		}
		out = append(out, t)
	}
	return out
}
