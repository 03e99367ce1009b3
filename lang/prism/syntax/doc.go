// Package syntax parses Prism source (.prism files) into a syntax tree.
//
// Prism is the Python-embedded language of seed 001 ("Modular GPU Programming
// with Typed Perspectives", §3): functions decorated with @prism("global") or
// @prism("device") and @requires(level[n], ..., smem=K), typed parameters and
// declarations annotated with a perspective (`x : int @ thread[1] = e`), and
// the perspective constructs `with group(...)`, `match split(...)`, `with
// partition(...) as y`, `with claim(...) as y`, `with async(...) as y`.
//
// Contract:
//   - Parse never panics. Every syntax error is reported with a position and a
//     stable code (P0001...) through the returned diag.List; parsing recovers
//     at the next line and continues.
//   - Both syntaxes the paper prints are accepted: the main text's
//     partition(x, p=P, f=lambda) / claim(x, p=P) and the appendix's
//     partition(x, dimension=P, offset=e) / claim(x, scope=P, offset=e);
//     `match split(thread):` and the appendix shorthand `match warp:`; types
//     ptr(T), ptr[T], const(T), `const T`, constexpr(T), shared(T[n], align=k),
//     shared[T]. The tree records the spelling; the checker interprets it.
//   - Tokens come from the shared pyscan scanner; comments are kept in
//     File.Comments so the printer (Fprint) can round-trip them.
//   - Perspectives are syntax here (level name and count expression); warp[k]
//     and empty brackets are resolved by the checker.
package syntax
