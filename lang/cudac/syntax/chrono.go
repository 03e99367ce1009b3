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
var chronoTemplates = map[string]bool{"std::chrono::duration": true, "std::ratio": true}

// ChronoFuncTemplates are the function templates (duration_cast<D>(d)).
var ChronoFuncTemplates = map[string]bool{"std::chrono::duration_cast": true}

// ratioNames are <ratio>'s SI typedefs, kept qualified (std::milli).
var ratioNames = map[string]bool{"milli": true, "micro": true, "nano": true, "ratio": true}

func init() { BuiltinTypeNames = append(BuiltinTypeNames, ChronoTypeNames...) }
