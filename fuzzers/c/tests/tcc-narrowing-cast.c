/* tcc 0.9.27 (Debian bookworm) drops a narrowing cast to an unsigned type
   of a negative signed char when the result is widened again: it prints
   4294967293, where C (and gcc, clang) gives 65533. Found by
   `xsmith-c diff --count 1000` (seed 735: `*p = (uint32_t)((uint16_t)(v))`
   with `int8_t v = -3`), reduced by hand. */
#include <stdio.h>
int main(void) {
  signed char x = -3;
  unsigned y = (unsigned short)x;
  printf("%u\n", y);
  return 0;
}
