package syntax

import (
	"fmt"

	"weft.dev/weft/diag"
)

// Structured bindings (C++17 [dcl.struct.bind]): `auto [a, b] = e;`,
// `auto &[k, v] = e;` and `for (const auto &[k, v] : m)`. The parser
// desugars them: a hidden variable declared as written holds e (or each
// element), and each name is a reference to its i-th member, written
// hidden.__bindI, which sem resolves to the struct's i-th field (a
// std::map element's first and second, a struct's members in order).

// isBinding reports whether a structured binding's [ follows (after an
// optional & or &&).
func (p *parser) isBinding() bool {
	return p.is("[") || (p.is("&") || p.is("&&")) && p.peek(1).Text == "["
}

// bindingDecl parses [&] [a, b, ...] after the specifiers base: the
// hidden variable's name and type, and the names with their positions.
func (p *parser) bindingDecl(base *TypeExpr) (string, diag.Pos, *TypeExpr, []Token) {
	typ := base
	if p.is("&") || p.is("&&") {
		t := p.next()
		typ = &TypeExpr{Kind: TRef, Elem: base, Pos: t.Pos}
	}
	lb := p.expect("[")
	var names []Token
	for p.tok().Kind == Ident {
		names = append(names, p.next())
		if !p.got(",") {
			break
		}
	}
	p.expect("]")
	if len(names) == 0 {
		p.errorf(lb.Pos, "C0202", "a structured binding needs at least one name")
	}
	if base.Kind != TNamed || base.Name != "auto" {
		p.errorf(base.Pos, "C0203", "a structured binding is declared with auto")
	}
	p.nbind++
	return fmt.Sprintf("__sb%d", p.nbind), lb.Pos, typ, names
}

// bindingRefs declares each name as auto& to its member of hidden.
func (p *parser) bindingRefs(hidden string, names []Token) []*Decl {
	var out []*Decl
	for i, n := range names {
		p.declareName(n.Text, false)
		out = append(out, &Decl{Pos: n.Pos, Name: n.Text,
			Type: &TypeExpr{Kind: TRef, Elem: &TypeExpr{Kind: TNamed, Name: "auto", Pos: n.Pos}, Pos: n.Pos},
			Init: &Member{Pos: n.Pos, X: &Name{Pos: n.Pos, Name: hidden}, Name: fmt.Sprintf("__bind%d", i)}})
	}
	return out
}
