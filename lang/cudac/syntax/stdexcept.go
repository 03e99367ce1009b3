package syntax

// StdExceptions are the exception classes of <exception> and <stdexcept>
// (C++ [std.exceptions]) that stdexceptText defines: their std:: is
// flattened like the other std names, and they are ordinary classes of
// the program (lang/cudac/sem/exc.go throws and catches them).
var StdExceptions = map[string]bool{
	"exception": true, "logic_error": true, "invalid_argument": true, "domain_error": true,
	"length_error": true, "out_of_range": true, "runtime_error": true, "range_error": true,
	"overflow_error": true, "underflow_error": true, "bad_alloc": true, "bad_cast": true,
}

// stdexceptText is our own C++ for the standard exception hierarchy:
// std::exception with a virtual what() ("std::exception", as libstdc++
// answers), the logic_error and runtime_error families holding a copy of
// their message (constructed from a C string or a std::string), and
// bad_alloc. <exception>, <stdexcept>, <new> and <iostream> (whose
// standard implementations make these names visible) include it once.
const stdexceptText = `#ifndef __WEFT_STDEXCEPT
#define __WEFT_STDEXCEPT
class exception {
public:
	exception() {}
	virtual ~exception() {}
	virtual const char *what() const { return "std::exception"; }
};
class bad_alloc : public exception {
public:
	bad_alloc() {}
	const char *what() const { return "std::bad_alloc"; }
};
class bad_cast : public exception {
public:
	bad_cast() {}
	const char *what() const { return "std::bad_cast"; }
};
#define __WEFT_EXC_ROOT(NAME) \
class NAME : public exception { \
public: \
	std::string __what; \
	NAME(const std::string &__m) : __what(__m) {} \
	const char *what() const { return __what.c_str(); } \
};
#define __WEFT_EXC(NAME, BASE) \
class NAME : public BASE { \
public: \
	std::string __what; \
	NAME(const std::string &__m) : BASE(__m), __what(__m) {} \
	const char *what() const { return __what.c_str(); } \
};
__WEFT_EXC_ROOT(logic_error)
__WEFT_EXC(invalid_argument, logic_error)
__WEFT_EXC(domain_error, logic_error)
__WEFT_EXC(length_error, logic_error)
__WEFT_EXC(out_of_range, logic_error)
__WEFT_EXC_ROOT(runtime_error)
__WEFT_EXC(range_error, runtime_error)
__WEFT_EXC(overflow_error, runtime_error)
__WEFT_EXC(underflow_error, runtime_error)
#undef __WEFT_EXC
#undef __WEFT_EXC_ROOT
#endif
`

// IsBuiltinHeader reports whether a file name is that of a built-in
// header's text ("<stdexcept>": knownHeaders).
func IsBuiltinHeader(name string) bool {
	loadTables()
	if len(name) < 3 || name[0] != '<' || name[len(name)-1] != '>' {
		return false
	}
	_, ok := knownHeaders[name[1:len(name)-1]]
	return ok
}
