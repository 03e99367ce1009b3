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
// ---- virtual inheritance is not modeled and says so
struct V { int v; };
struct L : virtual V { int l; }; // ERROR C0309 col=1 "virtual base class V \(virtual inheritance\) is not supported"
int main() { return 0; }
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
