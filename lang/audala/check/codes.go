package check

import "weft.dev/weft/diag"

// The validation errors of thesis Table 2 (seed 003, Appendix B) keep their
// names; the other AuDaLa diagnostics use the prefix A: A01xx syntax, A02xx
// run time, A03xx .init files, A04xx build options.
var Codes = []diag.Code{
	{Code: "E001", Summary: "StructDefinedTwice: two structs share a name"},
	{Code: "E002", Summary: "StepDefinedTwice: two steps of the same struct share a name"},
	{Code: "E003", Summary: "ParameterDefinedTwice: two parameters of a struct share a name"},
	{Code: "E004", Summary: "VariableAlreadyDeclared: a variable is declared with a name already in use (no shadowing)"},
	{Code: "E005", Summary: "UndefinedType: an undefined type (struct) is referenced"},
	{Code: "E006", Summary: "UndefinedParameter: an undefined parameter is referenced"},
	{Code: "E007", Summary: "UndefinedStep: an undefined step is called"},
	{Code: "E008", Summary: "UndefinedVariable: an undefined variable is referenced"},
	{Code: "E009", Summary: "InvalidNumberOfArguments: a struct is constructed with the wrong number of parameters"},
	{Code: "E010", Summary: "TypeMismatch: a type does not match, or cannot be coerced into, the expected type"},
	{Code: "E011", Summary: "InvalidTypesForOperator: the operands are of invalid types for the operator"},
	{Code: "E012", Summary: "ReservedKeyword: a reserved keyword is used as an identifier"},
	{Code: "A0101", Summary: "syntax error"},
	{Code: "A0102", Summary: "invalid character"},
	{Code: "A0103", Summary: "unterminated /* comment"},
	{Code: "A0104", Summary: "integer literal does not fit in 32 bits"},
	{Code: "A0105", Summary: "strings are not supported"},
	{Code: "A0106", Summary: "inline C++ ($$) line where AuDaLaC does not accept one (only before the first struct, or as a statement)"},
	{Code: "A0107", Summary: "program nested too deeply"},
	{Code: "A0201", Summary: "integer overflow: a result does not fit its 32-bit type"},
	{Code: "A0202", Summary: "division or remainder by zero"},
	{Code: "A0203", Summary: "fixpoint iteration limit reached (--max-iterations)"},
	{Code: "A0204", Summary: "too many instances (labels are 32-bit, or --max-instances reached)"},
	{Code: "A0205", Summary: "(warning) weft run skips inline C++ ($$) lines, which it cannot execute"},
	{Code: "A0301", Summary: ".init file is malformed"},
	{Code: "A0302", Summary: ".init structs do not match the program"},
	{Code: "A0303", Summary: ".init value out of range for its parameter type"},
	{Code: "A0304", Summary: ".init reference to a non-existent instance"},
	{Code: "A0305", Summary: ".init instance count beyond --max-instances"},
	{Code: "A0401", Summary: "the schedule cannot be compiled with the chosen --schedule-strategy (S.print inside Fix needs host)"},
}

func init() { diag.Register("audala", Codes) }
