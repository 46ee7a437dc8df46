/* Unit tests for fixed.c, run on the (built-in) C64: retro-debug test examples/c64-tests */
#define RETRO_TEST_MAIN
#include "retro_test.h"
#include "fixed.h"

TEST(fix_mul_integers) {
  EXPECT_EQ(FIX(6), fix_mul(FIX(2), FIX(3)));
  EXPECT_EQ(FIX(-6), fix_mul(FIX(-2), FIX(3)));
}

TEST(fix_mul_halves) {
  EXPECT_EQ(FIX(1) / 4, fix_mul(FIX(1) / 2, FIX(1) / 2));
}

TEST(isqrt_squares) {
  unsigned char i;
  for (i = 0; i < 16; ++i) {
    ASSERT_EQ(i, isqrt((unsigned int)i * i));
  }
}

TEST(isqrt_between) {
  EXPECT_EQ(3, isqrt(15));
  EXPECT_TRUE(isqrt(255) == 15);
}

TEST_BUDGET(sum_to_is_fast, 20000) {
  EXPECT_EQ(5050, sum_to(100));
}
