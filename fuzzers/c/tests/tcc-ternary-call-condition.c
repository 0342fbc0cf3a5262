/* tcc 0.9.27 (Debian bookworm: git 62c30a4a of 2020-08-14) gets a
   conditional wrong whose condition is itself a conditional with equal
   constant arms and a call for its condition: it takes neither arm and
   leaves whatever the register held, where C (and gcc, clang) gives 7.
   Fixed upstream by tinycc's "Fix more jumpopts (in ternary op)"
   (2cf3a6eb, 2023-03-09, found by yarpgen v1), whose message blames its
   "jump optimizations" (8227db3a, 2019). Found by `xsmith-c diff --impl
   gcc-O0 --impl tcc` (seed 20534 of a development version), reduced by
   `xsmith-c reduce` and then by hand. Prints whether the value is 7: 1 in C, 0 with the bug. */
#include <stdio.h>
static signed char f(void) { return 0; }
int main(void) {
  int v = (f() ? 0 : 0) ? 5 : 7;
  printf("%d\n", v == 7);
  return 0;
}
