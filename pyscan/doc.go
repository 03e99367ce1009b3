// Package pyscan is the Python-style scanner the Weft and Prism parsers share:
// it turns source text into tokens with indentation made explicit as INDENT
// and DEDENT tokens, the way Python's tokenizer does.
//
// Contract:
//   - Logical lines end with NEWLINE. Inside (), [] and {} newlines and
//     indentation are ignored (implicit line joining); a backslash at the end
//     of a line joins it with the next.
//   - Blank lines and comment-only lines produce no tokens. Comments are not
//     tokens: each is recorded, with its position and whether it stood alone
//     on its line, in Scanner.Comments, so a printer can keep them.
//   - Indentation counts spaces, and a tab advances to the next multiple of 8;
//     a dedent to a column that matches no enclosing level is an error.
//   - Every error is reported through the error handler with a position and a
//     stable code (S0001...) and scanning continues; the scanner never panics.
//   - At end of input the scanner emits NEWLINE (if the last line had tokens),
//     one DEDENT per open level, then EOF forever.
package pyscan
