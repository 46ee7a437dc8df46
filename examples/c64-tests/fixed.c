#include "fixed.h"

fixed fix_mul(fixed a, fixed b) {
  long product = (long)a * b;
  return (fixed)(product >> 8);
}

unsigned char isqrt(unsigned int n) {
  unsigned char root = 0;
  while ((unsigned int)(root + 1) * (root + 1) <= n) {
    ++root;
  }
  return root;
}

unsigned int sum_to(unsigned char n) {
  unsigned int total = 0;
  unsigned char i;
  for (i = 1; i <= n; ++i) {
    total += i;
  }
  return total;
}
