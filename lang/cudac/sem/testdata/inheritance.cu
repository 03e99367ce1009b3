// ---- multiple inheritance: three bases, virtual functions through either polymorphic base, pointer adjustment on upcasts (implicit, references, static_cast back, null stays null), members of a base that is not first, a thrown class caught by its second base, delete through a second base (output pinned against g++)
#include <cstdio>
#include <stdexcept>
struct Named {
  const char *name;
  Named(const char *n) : name(n) {}
  const char *getName() const { return name; }
};
struct Shape {
  double scale;
  Shape() : scale(1.0) {}
  virtual ~Shape() {}
  virtual double area() const = 0;
  virtual const char *kind() const { return "shape"; }
  double scaled() const { return area() * scale; }
};
struct Printable {
  int copies;
  Printable() : copies(1) {}
  virtual void print() const = 0;
  virtual int weight() const { return copies; }
};
struct Rect : public Named, public Shape, public Printable {
  double w, h;
  Rect(const char *n, double w_, double h_) : Named(n), w(w_), h(h_) { copies = 2; }
  double area() const override { return w * h; }
  const char *kind() const override { return "rect"; }
  void print() const override { printf("Rect %s %gx%g copies=%d\n", getName(), w, h, copies); }
};
struct Square : Rect {
  Square(const char *n, double s) : Rect(n, s, s) {}
  const char *kind() const override { return "square"; }
  int weight() const override { return 10 * copies; }
};
void show(const Printable &p) { p.print(); printf("weight %d\n", p.weight()); }
double total(Shape **v, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += v[i]->scaled();
  return s;
}
struct Base1 { int a; Base1() : a(1) {} };
struct Base2 { int b; Base2() : b(2) {} int getB() const { return b; } };
struct Both : Base1, Base2 { int c; Both() : c(3) {} };
struct ErrA { int code; };
struct ErrInfo { const char *msg; };
struct MyErr : ErrA, ErrInfo { MyErr(int c, const char *m) { code = c; msg = m; } };
int main() {
  Rect r("r1", 2, 3);
  Square s("s1", 4);
  Shape *shapes[2] = {&r, &s};
  printf("total %g\n", total(shapes, 2));
  Printable *pp = &s;
  pp->print();
  show(r);
  show(s);
  printf("%s %s\n", shapes[0]->kind(), shapes[1]->kind());
  Shape *sp = &s;
  Rect *back = static_cast<Rect *>(sp);
  printf("back %s %d\n", back->getName(), back == &s);
  Printable *np = (Rect *)0;
  printf("null stays null %d\n", np == 0);
  Both both;
  Base2 *b2 = &both;
  Base2 &b2r = both;
  printf("%d %d %d %d %d\n", both.a, both.b, both.c, b2->b, b2r.getB());
  printf("getB %d offset-ok %d\n", both.getB(), (char *)b2 != (char *)&both);
  try {
    throw MyErr(7, "bad");
  } catch (ErrInfo &e) {
    printf("caught info %s\n", e.msg);
  }
  try {
    throw MyErr(8, "worse");
  } catch (ErrA &e) {
    printf("caught code %d\n", e.code);
  }
  Shape *dyn = new Square("s2", 1.5);
  printf("%s %g\n", dyn->kind(), dyn->area());
  delete dyn;
  return 0;
}
// OUT: total 22
// OUT: Rect s1 4x4 copies=2
// OUT: Rect r1 2x3 copies=2
// OUT: weight 2
// OUT: Rect s1 4x4 copies=2
// OUT: weight 20
// OUT: rect square
// OUT: back s1 1
// OUT: null stays null 1
// OUT: 1 2 3 2 2
// OUT: getB 2 offset-ok 1
// OUT: caught info bad
// OUT: caught code 8
// OUT: square 2.25
// ---- multiple inheritance: construction in declaration order, destruction in reverse, a virtual destructor reached through the second base (output pinned against g++)
#include <cstdio>
struct A { int a; A() : a(1) { printf("A()\n"); } ~A() { printf("~A %d\n", a); } };
struct B { int b; B() : b(2) { printf("B()\n"); } virtual ~B() { printf("~B %d\n", b); } virtual int id() const { return b; } };
struct C : A, B { int c; C() : c(3) { printf("C()\n"); } ~C() { printf("~C %d\n", c); } int id() const override { return a * 100 + b * 10 + c; } };
int viaB(const B &x) { return x.id(); }
int main() {
  {
    C obj;
    printf("id %d via B %d\n", obj.id(), viaB(obj));
  }
  B *p = new C();
  printf("dyn id %d\n", p->id());
  delete p;
  return 0;
}
// OUT: A()
// OUT: B()
// OUT: C()
// OUT: id 123 via B 123
// OUT: ~C 3
// OUT: ~B 2
// OUT: ~A 1
// OUT: A()
// OUT: B()
// OUT: C()
// OUT: dyn id 123
// OUT: ~C 3
// OUT: ~B 2
// OUT: ~A 1
// ---- virtual inheritance, the diamond: one shared A constructed by the most derived class with its initializer (B's and C's ignored), its members reached through B, C and D, pointers converted up through virtual bases are one address, a null pointer stays null, destruction in reverse with A last (output pinned against g++ 12.2)
#include <stdio.h>
struct A {
  int a;
  A() : a(1) { printf("A()\n"); }
  A(int x) : a(x) { printf("A(%d)\n", x); }
  ~A() { printf("~A %d\n", a); }
  int getA() const { return a; }
};
struct B : virtual public A {
  int b;
  B() : A(100), b(2) { printf("B() a=%d\n", a); }
  ~B() { printf("~B\n"); }
};
struct C : public virtual A {
  int c;
  C() : A(200), c(3) { printf("C() a=%d\n", a); }
  ~C() { printf("~C\n"); }
  void bump() { a += 10; }
};
struct D : B, C {
  int d;
  D(int x) : A(x), d(4) { printf("D() a=%d\n", a); }
  ~D() { printf("~D\n"); }
};
int readA(A *p) { return p->a; }
int viaB(B &b) { return b.a + b.b; }
int main() {
  {
    B lone;
    printf("lone: %d %d\n", lone.a, readA(&lone));
  }
  D d(7);
  d.bump();
  B *pb = &d;
  C *pc = &d;
  A *pa1 = pb, *pa2 = pc, *pa3 = &d;
  printf("same A: %d %d\n", pa1 == pa2, pa2 == pa3);
  printf("a via B %d, via C %d, via D %d, getA %d\n", pb->a, pc->a, d.a, pc->getA());
  pb->a = 55;
  printf("after write via B: C sees %d, readA %d, viaB %d\n", pc->a, readA(pa2), viaB(d));
  printf("%d %d %d\n", d.b, d.c, d.d);
  B *nb = 0;
  A *na = nb;
  printf("null stays null: %d\n", na == 0);
  return 0;
}
// MODE: run
// OUT: A(100)
// OUT: B() a=100
// OUT: lone: 100 100
// OUT: ~B
// OUT: ~A 100
// OUT: A(7)
// OUT: B() a=7
// OUT: C() a=7
// OUT: D() a=7
// OUT: same A: 1 1
// OUT: a via B 17, via C 17, via D 17, getA 17
// OUT: after write via B: C sees 55, readA 55, viaB 57
// OUT: 2 3 4
// OUT: null stays null: 1
// OUT: ~D
// OUT: ~C
// OUT: ~B
// OUT: ~A 55
// ---- virtual inheritance with virtual functions: an abstract virtual base whose pure function one path overrides (dominance), calls through each base, new and delete through the virtual base, dynamic_cast across (output pinned against g++ 12.2)
#include <stdio.h>
struct Shape {
  int id;
  Shape(int i) : id(i) {}
  virtual ~Shape() { printf("~Shape %d\n", id); }
  virtual const char *name() const { return "shape"; }
  virtual int area() const = 0;
};
struct Named : virtual Shape {
  Named() : Shape(-1) {}
  const char *name() const { return "named"; }
};
struct Sized : virtual Shape {
  int w;
  Sized(int w_) : Shape(-2), w(w_) {}
  int area() const { return w * w; }
};
struct Square : Named, Sized {
  Square(int id, int w) : Shape(id), Sized(w) {}
  ~Square() { printf("~Square\n"); }
};
void show(const Shape &s) { printf("%s %d %d\n", s.name(), s.id, s.area()); }
int main() {
  Square sq(5, 3);
  show(sq);
  Named *n = &sq;
  Sized *z = &sq;
  printf("%s %d | %s %d\n", n->name(), n->area(), z->name(), z->area());
  Shape *s = new Square(9, 4);
  show(*s);
  Sized *dz = dynamic_cast<Sized *>(s);
  printf("dyn %d\n", dz ? dz->w : -1);
  delete s;
  return 0;
}
// MODE: run
// OUT: named 5 9
// OUT: named 9 | named 9
// OUT: named 9 16
// OUT: dyn 4
// OUT: ~Square
// OUT: ~Shape 9
// OUT: ~Square
// OUT: ~Shape 5
// ---- converting from a virtual base down is ill-formed
struct V { int v; };
struct L : virtual V { int l; };
struct R : virtual V { int r; };
struct J : L, R {};
int main() {
  J j;
  V *pv = &j;
  L *pl = static_cast<L *>(pv); // ERROR C0302 col=11 "cannot convert from struct V to struct L: struct V is a virtual base of struct L"
  return pl != 0;
}
// ---- bases that are class template instances (Box<double>, CRTP Counter<Widget> with static_cast<Derived *>(this) from a third base), a base's constructor named with its template arguments (output pinned against g++)
#include <cstdio>
template <typename T> struct Box {
  T v;
  Box(T x) : v(x) {}
  T get() const { return v; }
};
struct Tag { int id; Tag() : id(7) {} int tag() const { return id; } };
template <typename Derived> struct Counter {
  int n = 0;
  void bump() { n++; static_cast<Derived *>(this)->onBump(); }
};
struct Widget : public Tag, public Box<double>, Counter<Widget> {
  Widget() : Box<double>(2.5) {}
  void onBump() { printf("bumped %d\n", n); }
};
int main() {
  Widget w;
  w.bump();
  w.bump();
  Box<double> *b = &w;
  printf("%d %g %g\n", w.tag(), w.get(), b->get());
  return 0;
}
// OUT: bumped 1
// OUT: bumped 2
// OUT: 7 2.5 2.5
// ---- dynamic_cast: down to a derived class, across to another base (through the complete object), back to a base, of null, to void * (the complete object), to a reference (a failure throws std::bad_cast) (output pinned against g++)
#include <cstdio>
#include <exception>
struct Animal { virtual ~Animal() {} virtual const char *name() const { return "animal"; } };
struct Pet { int owner = 42; virtual ~Pet() {} };
struct Dog : Animal, Pet { const char *name() const override { return "dog"; } void bark() const { printf("woof (owner %d)\n", owner); } };
struct Cat : Animal { const char *name() const override { return "cat"; } };
int main() {
  Animal *zoo[3] = {new Dog(), new Cat(), new Animal()};
  for (int i = 0; i < 3; i++) {
    Dog *d = dynamic_cast<Dog *>(zoo[i]);
    Pet *p = dynamic_cast<Pet *>(zoo[i]);
    printf("%s: dog %d pet %d\n", zoo[i]->name(), d != nullptr, p != nullptr);
    if (d) d->bark();
    if (p) printf("pet owner %d, back to animal %s\n", p->owner, dynamic_cast<Animal *>(p)->name());
  }
  Animal *none = nullptr;
  printf("null %d\n", dynamic_cast<Dog *>(none) == nullptr);
  Dog &dr = dynamic_cast<Dog &>(*zoo[0]);
  dr.bark();
  printf("void* is the whole object %d\n", dynamic_cast<void *>(static_cast<Pet *>(&dr)) == (void *)&dr);
  try {
    Cat &c = dynamic_cast<Cat &>(*zoo[0]);
    printf("not reached %s\n", c.name());
  } catch (std::exception &e) {
    printf("caught %s\n", e.what());
  }
  for (int i = 0; i < 3; i++) delete zoo[i];
  return 0;
}
// OUT: dog: dog 1 pet 1
// OUT: woof (owner 42)
// OUT: pet owner 42, back to animal dog
// OUT: cat: dog 0 pet 0
// OUT: animal: dog 0 pet 0
// OUT: null 1
// OUT: woof (owner 42)
// OUT: void* is the whole object 1
// OUT: caught std::bad_cast
// ---- dynamic_cast needs a polymorphic class
struct Plain { int x; };
struct More : Plain { int y; };
int main() {
  Plain p;
  More *m = dynamic_cast<More *>(&p); // ERROR C0302 col=13 "dynamic_cast of struct Plain, which is not a polymorphic class"
  return m != 0;
}
// ---- virtual inheritance in device code: each thread's diamond in its own local memory, the shared base written through one path and read through the other
#include <stdio.h>
struct A { int a; __device__ A(int x) : a(x) {} };
struct B : virtual A { int b; __device__ B() : A(0), b(1) {} };
struct C : virtual A { int c; __device__ C() : A(0), c(2) {} };
struct D : B, C { __device__ D(int x) : A(x) {} };
__global__ void k(int *out) {
  D d(threadIdx.x);
  B *pb = &d; C *pc = &d;
  pb->a += 100;
  out[threadIdx.x] = pc->a + pb->b + pc->c;
}
int main() {
  int *o; cudaMallocManaged(&o, 4 * sizeof(int));
  k<<<1, 4>>>(o);
  cudaDeviceSynchronize();
  printf("%d %d %d %d\n", o[0], o[1], o[2], o[3]);
  return 0;
}
// MODE: run
// OUT: 103 104 105 106
// ---- the implicit default constructor constructs the bases and the members whose classes have constructors, bases first, members in declaration order; a constructor constructs the members it does not name (output pinned against g++ 12.2)
#include <stdio.h>
struct M { int m; M() : m(5) { printf("M()\n"); } };
struct B { int b; B() : b(7) { printf("B()\n"); } };
struct D : B { int d; M mem; };
struct E : B { M first; int e; M second; E() : e(1) { printf("E() %d %d %d\n", b, first.m, second.m); } };
struct F { M arr[2]; int k = 3; };
struct G : D { G() { printf("G() %d %d\n", b, mem.m); } };
int main() {
  D x; printf("%d %d\n", x.b, x.mem.m);
  D *p = new D; printf("%d %d\n", p->b, p->mem.m); delete p;
  E e; printf("%d %d\n", e.first.m, e.e);
  F f; printf("%d %d %d\n", f.arr[0].m, f.arr[1].m, f.k);
  G g;
  return 0;
}
// MODE: run
// OUT: B()
// OUT: M()
// OUT: 7 5
// OUT: B()
// OUT: M()
// OUT: 7 5
// OUT: B()
// OUT: M()
// OUT: M()
// OUT: E() 7 5 5
// OUT: 5 1
// OUT: M()
// OUT: M()
// OUT: 5 5 3
// OUT: B()
// OUT: M()
// OUT: G() 7 5
// ---- copies of objects with virtual bases: from a subobject reference (its virtual base read through the slot), into a parameter, assignment keeping the destination's class, std::string members copied deeply (output pinned against g++ 12.2)
#include <cstdio>
#include <string>
struct Named { std::string name; int id; Named() : name("none"), id(0) {} virtual const char *kind() const { return "named"; } };
struct Left : virtual Named { int l; Left() : l(1) {} const char *kind() const { return "left"; } };
struct Right : virtual Named { int r; Right() : r(2) {} };
struct Both : Left, Right { int both; Both() : both(3) {} const char *kind() const { return "both"; } };
void show(Left x) { printf("%s %d %d %s\n", x.name.c_str(), x.id, x.l, x.kind()); }
int main() {
  Both b;
  b.name = "shared";
  b.id = 7;
  Left &lr = b;
  Left copy = lr;          // a Left, not a Both: its own Named, a copy of b's
  copy.name += "!";
  show(lr);
  show(copy);
  printf("%s %s\n", b.name.c_str(), copy.kind());
  Left other;
  other = lr;              // assignment keeps other's identity
  other.l = 5;
  printf("%s %d %d %s\n", other.name.c_str(), other.id, other.l, other.kind());
  Right &rr = b;
  Right r2 = rr;
  printf("%s %d %d\n", r2.name.c_str(), r2.id, r2.r);
  return 0;
}
// MODE: run
// OUT: shared 7 1 left
// OUT: shared! 7 1 left
// OUT: shared left
// OUT: shared 7 5 left
// OUT: shared 7 2
// ---- a polymorphic object copied as its base (a parameter by value, an initialization, an assignment, a return) is of the base's class: C++ slicing (output pinned against g++ 12.2)
#include <cstdio>
struct B { int x; B() : x(1) {} virtual const char *k() const { return "B"; } };
struct D : B { int y; D() : y(2) {} const char *k() const { return "D"; } };
void show(B b) { printf("%s %d\n", b.k(), b.x); }
B make(const B &r) { return r; }
int main() {
  D d;
  B &r = d;
  show(r);
  B c = r; printf("%s\n", c.k());
  B e; e = r; printf("%s\n", e.k());
  printf("%s\n", make(d).k());
  return 0;
}
// MODE: run
// OUT: B 1
// OUT: B
// OUT: B
// OUT: B
// ---- the implicit destructor: members destroyed after the destructor's body and before the bases, in reverse order, also for a class without a destructor of its own and through delete (output pinned against g++ 12.2)
#include <cstdio>
struct M { int id; M() : id(1) {} ~M() { printf("~M %d\n", id); } };
struct B { ~B() { printf("~B\n"); } };
struct D : B { M m; int x; };
struct E { M a, b; ~E() { printf("~E\n"); } };
int main() {
  { D d; d.m.id = 5; }
  { E e; e.a.id = 2; e.b.id = 3; }
  D *p = new D; delete p;
  return 0;
}
// MODE: run
// OUT: ~M 5
// OUT: ~B
// OUT: ~E
// OUT: ~M 3
// OUT: ~M 2
// OUT: ~M 1
// OUT: ~B
