package sem

import (
	"fmt"
	"strings"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/cudac/syntax"
)

// Class templates (C++ [temp.class], [temp.spec], [temp.class.spec];
// issue 15 item 1). A use Name<A, ...> is instantiated once per argument
// tuple (keyed on type identity and values, as function templates are):
// an explicit specialization whose arguments are exactly these is chosen
// first, then the first partial specialization whose pattern matches
// (binding its own parameters), then the primary template. The instance
// is a struct named "Name<A,...>" at file scope; its member functions are
// compiled with the template parameters bound (and the class's name and
// member typedefs too), exactly like a struct's. Template arguments of
// function templates are deduced through instances and arrays, so that
// template <typename T, int N> f(const Vec<T, N> &) or f(T (&)[N])
// deduces N (a non-type parameter) from the argument's type.

// tmplInfo records what instance a struct type is.
type tmplInfo struct {
	name string
	args []*Type // nil entries: value arguments
	vals []int64
	// types are the instance's member typedefs (S<A>::type; rvalue.go,
	// memberType)
	types map[string]*Type
}

// classInstance resolves Name<args>.
func (c *compiler) classInstance(te *syntax.TypeExpr) *Type {
	cts := c.classTmpls[te.Name]
	var args []*Type
	var vals []int64
	var key strings.Builder
	fmt.Fprintf(&key, "%s<", te.Name)
	disp := []string{}
	for i := range te.TArgs {
		if i > 0 {
			key.WriteString(",")
		}
		if te.TArgs[i] != nil {
			t := c.resolve(te.TArgs[i])
			args = append(args, t)
			vals = append(vals, 0)
			key.WriteString(typeKey(t))
			disp = append(disp, t.String())
			continue
		}
		v, ok := c.constExpr(te.TArgExprs[i])
		if !ok {
			c.errorf(syntax.PosOf(te.TArgExprs[i]), "C0313", "template argument %d of %s is not a constant", i+1, te.Name)
		}
		args = append(args, nil)
		vals = append(vals, v)
		fmt.Fprintf(&key, "%d", v)
		disp = append(disp, fmt.Sprint(v))
	}
	// default arguments of the primary template for the parameters not
	// given, evaluated with the earlier ones bound
	for _, ct := range cts {
		if ct.Struct != nil && ct.Struct.TArgs != nil || len(args) >= len(ct.TParams) || len(ct.DefaultTypes)+len(ct.DefaultExprs) == 0 {
			// (a primary template only declared, template <...> struct
			// S;, has its defaults too: the specializations use them)
			continue
		}
		tm, tv := map[string]*Type{}, map[string]int64{}
		for i := range args {
			if args[i] != nil {
				tm[ct.TParams[i]] = args[i]
			} else {
				tv[ct.TParams[i]] = vals[i]
			}
		}
		saveT, saveV := c.tmap, c.tvals
		c.tmap, c.tvals = tm, tv
		for i := len(args); i < len(ct.TParams); i++ {
			switch {
			case i < len(ct.DefaultTypes) && ct.DefaultTypes[i] != nil:
				t := c.resolve(ct.DefaultTypes[i])
				tm[ct.TParams[i]] = t
				args, vals = append(args, t), append(vals, 0)
				if i > 0 {
					key.WriteString(",") // X<> is the instance X<int> names
				}
				key.WriteString(typeKey(t))
				disp = append(disp, t.String())
			case i < len(ct.DefaultExprs) && ct.DefaultExprs[i] != nil:
				v, _ := c.constExpr(ct.DefaultExprs[i])
				tv[ct.TParams[i]] = v
				args, vals = append(args, nil), append(vals, v)
				if i > 0 {
					key.WriteString(",")
				}
				fmt.Fprintf(&key, "%d", v)
				disp = append(disp, fmt.Sprint(v))
			}
			if len(args) == i {
				break // no default: reported below
			}
		}
		c.tmap, c.tvals = saveT, saveV
		break
	}
	key.WriteString(">")
	if t := c.classInsts[key.String()]; t != nil {
		return t
	}
	// choose: explicit, then partial, then primary
	var primary, chosen *syntax.ClassTemplate
	var tmap map[string]*Type
	var tvals map[string]int64
	for _, ct := range cts {
		if ct.Struct == nil {
			continue
		}
		if ct.Struct.TArgs == nil {
			primary = ct
			continue
		}
		if len(ct.TParams) == 0 && chosen == nil || len(ct.TParams) == 0 && len(chosen.TParams) > 0 {
			if m, v, ok := c.matchArgs(ct, args, vals); ok {
				chosen, tmap, tvals = ct, m, v
			}
		}
	}
	if chosen == nil {
		for _, ct := range cts {
			if ct.Struct == nil || ct.Struct.TArgs == nil || len(ct.TParams) == 0 {
				continue
			}
			if m, v, ok := c.matchArgs(ct, args, vals); ok {
				chosen, tmap, tvals = ct, m, v
				break
			}
		}
	}
	if chosen == nil {
		if primary == nil {
			c.errorf(te.Pos, "C0302", "class template %s is declared but not defined", te.Name)
			return tInt
		}
		if len(args) != len(primary.TParams) {
			c.errorf(te.Pos, "C0313", "%s takes %d template arguments, %d given", te.Name, len(primary.TParams), len(args))
			return tInt
		}
		chosen, tmap, tvals = primary, map[string]*Type{}, map[string]int64{}
		for i, name := range primary.TParams {
			if primary.TValue[i] != (args[i] == nil) {
				c.errorf(te.Pos, "C0313", "template argument %d of %s must be a %s", i+1, te.Name, map[bool]string{true: "value", false: "type"}[primary.TValue[i]])
				return tInt
			}
			if args[i] != nil {
				tmap[name] = args[i]
			} else {
				tvals[name] = vals[i]
			}
		}
	}
	tag := te.Name + "<" + strings.Join(disp, ",") + ">"
	return c.instantiateClass(chosen, key.String(), tag, tmap, tvals, &tmplInfo{name: te.Name, args: args, vals: vals}, te.Pos)
}

// matchArgs matches the pattern of specialization ct against args.
func (c *compiler) matchArgs(ct *syntax.ClassTemplate, args []*Type, vals []int64) (map[string]*Type, map[string]int64, bool) {
	st := ct.Struct
	if len(st.TArgs) != len(args) {
		return nil, nil, false
	}
	tmap, tvals := map[string]*Type{}, map[string]int64{}
	params := map[string]bool{}
	for i, n := range ct.TParams {
		params[n] = ct.TValue[i]
	}
	for i := range args {
		if st.TArgs[i] != nil {
			if args[i] == nil || !c.matchType(st.TArgs[i], args[i], params, tmap, tvals) {
				return nil, nil, false
			}
			continue
		}
		if args[i] != nil {
			return nil, nil, false
		}
		if n, ok := st.TArgExprs[i].(*syntax.Name); ok {
			if isVal, isParam := params[n.Name]; isParam && isVal {
				if old, bound := tvals[n.Name]; bound && old != vals[i] {
					return nil, nil, false
				}
				tvals[n.Name] = vals[i]
				continue
			}
		}
		v, ok := c.constExpr(st.TArgExprs[i])
		if !ok || v != vals[i] {
			return nil, nil, false
		}
	}
	for n, isVal := range params {
		if _, ok := tmap[n]; !ok && !isVal {
			return nil, nil, false
		}
		if _, ok := tvals[n]; !ok && isVal {
			return nil, nil, false
		}
	}
	return tmap, tvals, true
}

// matchType matches type pattern pat against t, binding the parameters
// (params: name -> is a value) it contains. A pattern without parameters
// must be the same type.
func (c *compiler) matchType(pat *syntax.TypeExpr, t *Type, params map[string]bool, tmap map[string]*Type, tvals map[string]int64) bool {
	if t == nil {
		return false
	}
	switch pat.Kind {
	case syntax.TNamed:
		if isVal, ok := params[pat.Name]; ok && !isVal && len(pat.TArgs) == 0 {
			if pat.Const && t.Kind == Ptr {
				return false
			}
			if old := tmap[pat.Name]; old != nil {
				return typeKey(old) == typeKey(t)
			}
			tmap[pat.Name] = t
			return true
		}
		if len(pat.TArgs) > 0 && c.classTmpls[pat.Name] != nil {
			ti := t.tmpl
			if ti == nil || ti.name != pat.Name || len(ti.args) != len(pat.TArgs) {
				return false
			}
			for i := range pat.TArgs {
				if pat.TArgs[i] != nil {
					if !c.matchType(pat.TArgs[i], ti.args[i], params, tmap, tvals) {
						return false
					}
					continue
				}
				if !c.matchValue(pat.TArgExprs[i], ti.vals[i], params, tvals) {
					return false
				}
			}
			return true
		}
	case syntax.TPointer:
		return t.Kind == Ptr && !t.Ref && c.matchType(pat.Elem, t.Elem, params, tmap, tvals)
	case syntax.TRef:
		if t.Kind == Ptr && t.Ref {
			t = t.Elem
		}
		return c.matchType(pat.Elem, t, params, tmap, tvals)
	case syntax.TArray:
		if t.Kind != Array || !c.matchType(pat.Elem, t.Elem, params, tmap, tvals) {
			return false
		}
		return pat.Len == nil || c.matchValue(pat.Len, int64(t.Len), params, tvals)
	}
	if !mentions(pat, params) {
		return typeKey(c.resolve(pat)) == typeKey(t)
	}
	return false
}

// matchValue matches a non-type template argument pattern against v.
func (c *compiler) matchValue(e syntax.Expr, v int64, params map[string]bool, tvals map[string]int64) bool {
	if n, ok := e.(*syntax.Name); ok {
		if isVal, isParam := params[n.Name]; isParam && isVal {
			if old, bound := tvals[n.Name]; bound {
				return old == v
			}
			tvals[n.Name] = v
			return true
		}
		if old, bound := tvals[n.Name]; bound {
			// a parameter of the enclosing class template instance
			// (a member template's Vec<U, N>: N is the class's)
			return old == v
		}
	}
	w, ok := c.constExpr(e)
	return ok && w == v
}

// mentions reports whether type pattern te names one of params.
func mentions(te *syntax.TypeExpr, params map[string]bool) bool {
	for ; te != nil; te = te.Elem {
		if _, ok := params[te.Name]; ok && te.Kind == syntax.TNamed {
			return true
		}
		for _, a := range te.TArgs {
			if a != nil && mentions(a, params) {
				return true
			}
		}
		for _, e := range te.TArgExprs {
			if n, ok := e.(*syntax.Name); ok {
				if _, isP := params[n.Name]; isP {
					return true
				}
			}
		}
		if te.Kind == syntax.TArray {
			if n, ok := te.Len.(*syntax.Name); ok {
				if _, isP := params[n.Name]; isP {
					return true
				}
			}
		}
	}
	return false
}

// instantiateClass creates the instance tag of ct with its parameters
// bound, at file scope, and declares its member functions.
func (c *compiler) instantiateClass(ct *syntax.ClassTemplate, key, tag string, tmap map[string]*Type, tvals map[string]int64, info *tmplInfo, pos diag.Pos) *Type {
	if c.classDepth > 64 {
		c.errorf(pos, "C0313", "class template instantiation nested more than 64 deep (%s)", tag)
		return tInt
	}
	c.classDepth++
	defer func() { c.classDepth-- }()
	t := &Type{Kind: Struct, Name: "struct " + tag, Union: ct.Struct.Union, tmpl: info}
	c.classInsts[key] = t
	c.tags[0][tag] = t
	tm := map[string]*Type{ct.Name: t}
	for k, v := range tmap {
		tm[k] = v
	}
	saveT, saveV, saveTags, saveScopes := c.tmap, c.tvals, c.tags, c.scopes
	c.tmap, c.tvals = tm, tvals
	c.tags, c.scopes = c.tags[:1], c.scopes[:1]
	defer func() { c.tmap, c.tvals, c.tags, c.scopes = saveT, saveV, saveTags, saveScopes }()
	// member typedefs are names of the instance: bound like parameters
	for _, d := range ct.Decls {
		if d.Q.Typedef && d.Name != "" {
			tm[d.Name] = c.resolve(d.Type)
			if info.types == nil {
				info.types = map[string]*Type{}
			}
			info.types[d.Name] = tm[d.Name]
		}
	}
	te := *ct.Struct
	te.Name, te.TArgs, te.TArgExprs = tag, nil, nil
	c.structType(&te)
	rename := func(name string) string {
		if strings.HasPrefix(name, ct.Name+"::") {
			rest := name[len(ct.Name)+2:]
			switch {
			case strings.HasPrefix(rest, ct.Name+"#"):
				rest = tag + rest[len(ct.Name):]
			case rest == "~"+ct.Name:
				rest = "~" + tag
			}
			return tag + "::" + rest
		}
		return name
	}
	for _, d := range ct.Decls {
		if d.Q.Typedef {
			continue
		}
		nd := *d
		nd.Name = rename(d.Name)
		if d.Init != nil && !isInitList(d.Init) && d.Type.Kind == syntax.TNamed {
			// an initializer naming the parameters is evaluated now, as
			// the instance's constant (static const int n = N;)
			if v, ok := c.constExpr(d.Init); ok {
				nd.Init = &syntax.IntLitExpr{Pos: syntax.PosOf(d.Init), Value: uint64(v), Type: "long long"}
			}
		}
		c.topDecl(&nd)
	}
	for _, mt := range ct.MemberTmpls {
		// a member function template (C++ [temp.mem]): a function
		// template of this instance, its calls instantiated with the
		// class's parameters bound as well as their own (instantiate)
		nd := *mt
		nd.Name, nd.Recv = rename(mt.Name), tag
		c.templates[nd.Name] = &nd
		c.noteTemplate(&nd)
		if c.outerTmpl == nil {
			c.outerTmpl = map[*syntax.FuncDecl]outerBinding{}
		}
		c.outerTmpl[&nd] = outerBinding{tm, tvals}
		if strings.Contains(nd.Name, "operator") {
			c.hasOps = true
		}
	}
	for _, fd := range ct.Funcs {
		if fd.Recv == "" {
			c.friendOf(fd, tm, tvals)
			continue
		}
		nd := *fd
		nd.Name, nd.Recv, nd.TParams, nd.TValue = rename(fd.Name), tag, nil, nil
		if old := c.funcs[nd.Name]; old != nil && (sameSignature(old.decl, &nd) || nd.Dtor) {
			c.errorf(fd.Pos, "C0311", "redefinition of function %s", nd.Name)
			continue
		}
		ftm, ftv := tm, tvals
		if len(fd.TParams) > 0 {
			// defined out of the class: its own names for the parameters
			ftm, ftv = map[string]*Type{}, map[string]int64{}
			for k, v := range tm {
				ftm[k] = v
			}
			for k, v := range tvals {
				ftv[k] = v
			}
			for i, n := range fd.TParams {
				if i < len(ct.TParams) {
					if t, ok := tm[ct.TParams[i]]; ok {
						ftm[n] = t
					}
					if v, ok := tvals[ct.TParams[i]]; ok {
						ftv[n] = v
					}
				}
			}
		}
		saveT2, saveV2 := c.tmap, c.tvals
		c.tmap, c.tvals = ftm, ftv
		fn := &Function{Name: nd.Name, decl: &nd, tmap: ftm, tvals: ftv, defined: true}
		c.inheritLibAt(fn, &nd)
		c.setSpaces(fn, nd.Q)
		if pd := c.protos[nd.Name]; pd != nil {
			// the qualifiers of the declaration in the class
			if pd.Q.Device || pd.Q.Global {
				c.setSpaces(fn, pd.Q)
			}
			nd.Q.Static = nd.Q.Static || pd.Q.Static
		}
		fn.Type = c.resolveFunc(&nd) // autoret.go
		c.tmap, c.tvals = saveT2, saveV2
		fn.PosIdx = c.pos(nd.Pos)
		if t.poly {
			c.register(fn) // a vtable's functions are all needed
		} else {
			// compiled at its first use (funcIndex), as C++ instantiates
			// a member of a class template only where it is used
			// ([temp.inst]p3): pair<int, R>'s default constructor is no
			// error while nothing default-constructs it
			c.declareFunc(fn)
		}
	}
	// with its own destructor declared (or not), the instance gets the
	// implicit one its members need, as a file-scope class does
	// ([class.dtor]p7; Holder<R> holding an R destroyed its R nowhere)
	c.implicitInstanceDtor(t, ct.Struct)
	return t
}

// deduceParam deduces template parameters of td from argument type at
// for a parameter written te that the simple T / T* rule does not cover.
func (c *compiler) deduceParam(td *syntax.FuncDecl, te *syntax.TypeExpr, at *Type, tmap map[string]*Type, tvals map[string]int64) {
	params := map[string]bool{}
	for i, n := range td.TParams {
		params[n] = i < len(td.TValue) && td.TValue[i]
	}
	if !mentions(te, params) {
		return
	}
	m, v := map[string]*Type{}, map[string]int64{}
	for k, x := range tmap {
		m[k] = x
	}
	for k, x := range tvals {
		v[k] = x
	}
	if c.matchType(te, at, params, m, v) {
		for k, x := range m {
			if tmap[k] == nil {
				tmap[k] = x
			}
		}
		for k, x := range v {
			if _, ok := tvals[k]; !ok {
				tvals[k] = x
			}
		}
	}
}

// scopedName is Name<A, ...>::member as the name of the instance's member.
func (c *compiler) scopedName(e *syntax.ScopedName) *syntax.Name {
	t := c.resolve(e.Type)
	if t.Kind != Struct {
		return &syntax.Name{Pos: e.Pos, Name: e.Name}
	}
	return &syntax.Name{Pos: e.Pos, Name: tagOf(t) + "::" + e.Name}
}

// attachMember moves a member of a class template defined outside it
// (template <typename T> R Box<T>::f(...) { }) onto the primary template,
// and reports whether it did.
func (c *compiler) attachMember(fd *syntax.FuncDecl) bool {
	if fd.Recv == "" {
		return false
	}
	for _, ct := range c.classTmpls[fd.Recv] {
		if ct.Struct != nil && ct.Struct.TArgs == nil {
			ct.Funcs = append(ct.Funcs, fd)
			return true
		}
	}
	if len(c.classTmpls[fd.Recv]) > 0 {
		c.errorf(fd.Pos, "C0302", "member %s of class template %s, which is not defined", fd.Name, fd.Recv)
		return true
	}
	return false
}

// friendOf declares a friend function defined in a class template for
// one instance: a free function with the instance's parameters bound,
// an overload of the friends of the other instances.
func (c *compiler) friendOf(fd *syntax.FuncDecl, tm map[string]*Type, tvals map[string]int64) {
	nd := *fd
	fn := c.boundFunc(fd.Name, &nd, tm, tvals)
	c.register(fn)
}

// register declares function fn (of an instance) under its name, as an
// overload when the name has a function already, and queues it.
func (c *compiler) register(fn *Function) {
	c.declareFunc(fn)
	c.queue = append(c.queue, fn)
}

// declareFunc is register without queueing fn: funcIndex queues it at
// its first use.
func (c *compiler) declareFunc(fn *Function) {
	name := fn.decl.Name
	key := name
	if old := c.funcs[name]; old != nil {
		if len(c.overloads[name]) == 0 {
			c.overloads[name] = []*Function{old}
		}
		key = fmt.Sprintf("%s#%d", name, len(c.overloads[name]))
		c.overloads[name] = append(c.overloads[name], fn)
	}
	if strings.Contains(name, "operator") {
		c.hasOps = true
	}
	c.funcs[key] = fn
	c.prog.Funcs = append(c.prog.Funcs, fn)
}

// boundFunc is function name declared by d with template parameters
// bound (tmap, tvals), its type resolved with them.
func (c *compiler) boundFunc(name string, d *syntax.FuncDecl, tmap map[string]*Type, tvals map[string]int64) *Function {
	fn := &Function{Name: name, decl: d, tmap: tmap, tvals: tvals, defined: true}
	c.inheritLibAt(fn, d) // lib_algorithm.go
	c.setSpaces(fn, d.Q)
	saveT, saveV := c.tmap, c.tvals
	c.tmap, c.tvals = tmap, tvals
	fn.Type = c.resolveFunc(d) // autoret.go
	c.tmap, c.tvals = saveT, saveV
	fn.PosIdx = c.pos(d.Pos)
	return fn
}

// outerBinding is the class template instance's binding of its parameters
// for one of its member function templates.
type outerBinding struct {
	tmap  map[string]*Type
	tvals map[string]int64
}
