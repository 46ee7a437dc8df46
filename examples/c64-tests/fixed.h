/* 8.8 fixed point helpers: the code under test in this example */
#ifndef FIXED_H
#define FIXED_H
typedef int fixed;
#define FIX(i) ((fixed)((i) << 8))
fixed fix_mul(fixed a, fixed b);
unsigned char isqrt(unsigned int n);
unsigned int sum_to(unsigned char n);
#endif
