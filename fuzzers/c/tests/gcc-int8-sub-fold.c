/* gcc 12.2 (Debian 12.2.0-14) at -O2 and -O3 miscompiles this int8_t
   subtraction fold, which its loop vectorizer takes: it prints -128
   instead of 55 (-73 - -128 = 55, wrapped to 8 bits by to_int8, which
   converts only in-range values). gcc -O0 and -O1, gcc -O3
   -fno-tree-loop-vectorize, clang and tcc print 55; gcc's and clang's
   sanitizers (clang's implicit-signed-integer-truncation too) report
   nothing. Reduced (creduce, then by hand) from xsmith-c 0.2.0 --seed
   400549, found by a campaign on gcc -O3. */
#include <stdint.h>
#include <stdio.h>
static volatile int zero = 0;
static int8_t to_int8(uint64_t x) {
  uint8_t u = (uint8_t)x;
  return u > (uint8_t)INT8_MAX ? (int8_t)(-(int8_t)((uint8_t)-1 - u) - 1) : (int8_t)u;
}
int main(void) {
  int8_t x = zero ? 0 : -73;
  uint8_t a[16] = {128};
  for (int j = 0; j < 16; j++) x = to_int8((uint64_t)x - (uint64_t)to_int8(a[j]));
  printf("%d\n", x);
  return 0;
}
