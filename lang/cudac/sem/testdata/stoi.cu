// ---- std::stoi and its siblings, their exceptions caught by type (outputs from g++ 12.2)
#include <cstdio>
#include <iostream>
#include <stdexcept>
#include <string>
int main(int argc, char **argv) {
  std::string n = "  42 apples";
  size_t used = 0;
  int a = std::stoi(n, &used);
  long h = std::stol("ff", nullptr, 16);
  unsigned long u = std::stoul("-1");
  double d = std::stod("2.5e3x");
  float f = std::stof(std::string("0.1"));
  long long big = std::stoll("9000000000");
  std::cout << a << " " << used << " " << h << " " << u << " " << d << " " << f << " " << big << std::endl;
  try {
    std::stoi("apples");
  } catch (const std::invalid_argument &e) {
    std::cout << "invalid_argument: " << e.what() << std::endl;
  }
  try {
    std::stoi("9000000000");
  } catch (const std::out_of_range &e) {
    std::cout << "out_of_range: " << e.what() << std::endl;
  }
  try {
    std::stof("1e99");
  } catch (const std::exception &e) {
    std::cout << "exception: " << e.what() << std::endl;
  }
  return 0;
}
// OUT: 42 4 255 18446744073709551615 2500 0.1 9000000000
// OUT: invalid_argument: stoi
// OUT: out_of_range: stoi
// OUT: exception: stof
// ---- without the exception classes declared, a failed conversion ends the run as an uncaught throw
#include <cstdio>
#include <string>
int main() {
  printf("%d\n", std::stoi("12"));
  return std::stoi("x"); // ERROR C0604 col=10 "std::stoi throws std::invalid_argument .what\(\): \"stoi\".. which nothing can catch by its type here"
}
// MODE: run
// OUT: 12
