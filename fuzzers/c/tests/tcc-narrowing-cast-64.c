/* The tcc 0.9.27 bug of tcc-narrowing-cast.c, widened to 64 bits: tcc
   prints fffffff0 (the int8_t sign-extended to 32 bits, then zero-extended),
   where C (and gcc, clang) gives fff0. Found by `xsmith-c diff --count 2000
   --seed 1000` (seed 2802: `return (uint64_t)(uint16_t)v1;` with a global
   `int8_t v1 == -16`), reduced by hand from 6,187 bytes (`xsmith-c reduce`
   got it to 6,078: see the README). */
#include <stdint.h>
#include <stdio.h>
static int8_t v1 = -16;
int main(void) {
  printf("%llx\n", (unsigned long long)(uint64_t)(uint16_t)v1);
  return 0;
}
