/*
 * retro_test.h - unit tests in C that run on the machine itself (Retro Debug).
 *
 * Works with cc65 and SDCC (C89). Write tests as
 *
 *     #define RETRO_TEST_MAIN          (in exactly one file: it defines main())
 *     #include "retro_test.h"
 *
 *     TEST(adds) { EXPECT_EQ(4, add(2, 2)); }
 *     TEST_BUDGET(fast_sum, 2000) { EXPECT_EQ(10, sum(4)); }   (fails above 2000 cycles)
 *
 * and run them with `retro-debug test <folder or program>`. Each TEST(name) is
 * a function test_name; the debugger finds them in the debug info, calls each
 * from main's loop and reads the results from retro_test_mailbox: no printing
 * is needed, so it works on any machine. EXPECT_* records a failure and goes
 * on; ASSERT_* also returns from the test.
 *
 * Values are compared as long (32 bits). The mailbox layout (32 bytes, little
 * endian, 16-bit pointers) is what the debugger reads; do not change it.
 */
#ifndef RETRO_TEST_H
#define RETRO_TEST_H

#define RETRO_TEST_VERSION 1

/* what the failing expectation compared */
#define RETRO_EQ 1
#define RETRO_NE 2
#define RETRO_LT 3
#define RETRO_LE 4
#define RETRO_GT 5
#define RETRO_GE 6
#define RETRO_TRUE 7
#define RETRO_FALSE 8
#define RETRO_FAIL 9

struct retro_test_mailbox_t {
  unsigned char magic[4];   /* "RTST" in ASCII once main started */
  unsigned char version;    /* RETRO_TEST_VERSION */
  unsigned char state;      /* 1 waiting for a test, 2 running one, 3 it returned */
  unsigned int failures;    /* failed expectations in this test */
  unsigned int checks;      /* expectations evaluated in this test */
  unsigned int line;        /* the first failure's __LINE__ */
  const char *file;         /* the first failure's __FILE__ */
  const char *text;         /* the first failure's expression, as written */
  long expected;
  long actual;
  unsigned char kind;       /* RETRO_EQ … */
  unsigned char reserved;
  void (*run)(void);        /* the test to run next: the debugger writes it */
  unsigned char end[4];     /* "TSTR": a test that writes past its buffers may hit it */
};

extern struct retro_test_mailbox_t retro_test_mailbox;

/* records one expectation; returns 0 when it failed */
unsigned char retro_expect(unsigned char kind, long expected, long actual, const char *file, unsigned int line,
                           const char *text);
/* the debugger stops here between tests (and, in a Debug run, at each failure) */
void retro_test_ready(void);
void retro_test_failed(void);

#define TEST(name) void test_##name(void)
/* a test that fails when it takes more than `cycles` machine cycles (read by the debugger before it runs) */
#define TEST_BUDGET(name, cycles) \
  const unsigned long retro_budget_##name = (cycles); \
  TEST(name)

#define RETRO_CHECK(kind, e, a, text) retro_expect((kind), (long)(e), (long)(a), __FILE__, __LINE__, (text))
#define EXPECT_EQ(expected, actual) RETRO_CHECK(RETRO_EQ, expected, actual, #actual " == " #expected)
#define EXPECT_NE(expected, actual) RETRO_CHECK(RETRO_NE, expected, actual, #actual " != " #expected)
#define EXPECT_LT(a, b) RETRO_CHECK(RETRO_LT, b, a, #a " < " #b)
#define EXPECT_LE(a, b) RETRO_CHECK(RETRO_LE, b, a, #a " <= " #b)
#define EXPECT_GT(a, b) RETRO_CHECK(RETRO_GT, b, a, #a " > " #b)
#define EXPECT_GE(a, b) RETRO_CHECK(RETRO_GE, b, a, #a " >= " #b)
#define EXPECT_TRUE(c) RETRO_CHECK(RETRO_TRUE, 1, (c) ? 1 : 0, #c)
#define EXPECT_FALSE(c) RETRO_CHECK(RETRO_FALSE, 0, (c) ? 1 : 0, "!(" #c ")")
#define FAIL(message) RETRO_CHECK(RETRO_FAIL, 0, 0, message)

#define ASSERT_EQ(expected, actual) do { if (!EXPECT_EQ(expected, actual)) return; } while (0)
#define ASSERT_NE(expected, actual) do { if (!EXPECT_NE(expected, actual)) return; } while (0)
#define ASSERT_TRUE(c) do { if (!EXPECT_TRUE(c)) return; } while (0)
#define ASSERT_FALSE(c) do { if (!EXPECT_FALSE(c)) return; } while (0)

#ifdef RETRO_TEST_MAIN
struct retro_test_mailbox_t retro_test_mailbox;
/* the one test a debug session runs (the editor's Debug profile writes it at main's entry); 0: the runner's loop */
void (*retro_test_only)(void);

void retro_test_ready(void) {
  retro_test_mailbox.state = 1;
}

void retro_test_failed(void) {
  retro_test_mailbox.reserved = 0;
}

unsigned char retro_expect(unsigned char kind, long expected, long actual, const char *file, unsigned int line,
                           const char *text) {
  unsigned char ok;
  switch (kind) {
    case RETRO_EQ: case RETRO_TRUE: case RETRO_FALSE: ok = actual == expected; break;
    case RETRO_NE: ok = actual != expected; break;
    case RETRO_LT: ok = actual < expected; break;
    case RETRO_LE: ok = actual <= expected; break;
    case RETRO_GT: ok = actual > expected; break;
    case RETRO_GE: ok = actual >= expected; break;
    default: ok = 0; break;
  }
  ++retro_test_mailbox.checks;
  if (ok) return 1;
  if (retro_test_mailbox.failures++ == 0) {
    retro_test_mailbox.kind = kind;
    retro_test_mailbox.expected = expected;
    retro_test_mailbox.actual = actual;
    retro_test_mailbox.file = file;
    retro_test_mailbox.line = line;
    retro_test_mailbox.text = text;
  }
  retro_test_failed();
  return 0;
}

int main(void) {
  /* ASCII codes, not character constants: cc65 turns 'R' into PETSCII */
  retro_test_mailbox.magic[0] = 0x52; retro_test_mailbox.magic[1] = 0x54;
  retro_test_mailbox.magic[2] = 0x53; retro_test_mailbox.magic[3] = 0x54;
  retro_test_mailbox.end[0] = 0x54; retro_test_mailbox.end[1] = 0x53;
  retro_test_mailbox.end[2] = 0x54; retro_test_mailbox.end[3] = 0x52;
  retro_test_mailbox.version = RETRO_TEST_VERSION;
  retro_test_mailbox.state = 1;
  if (retro_test_only) {
    retro_test_mailbox.state = 2;
    retro_test_only();
    retro_test_mailbox.state = 3;
    return 0;
  }
  for (;;) {
    retro_test_mailbox.run = 0;
    retro_test_ready();
    if (!retro_test_mailbox.run) return 0; /* no debugger: nothing to run */
    retro_test_mailbox.failures = 0;
    retro_test_mailbox.checks = 0;
    retro_test_mailbox.line = 0;
    retro_test_mailbox.state = 2;
    retro_test_mailbox.run();
    retro_test_mailbox.state = 3;
  }
}
#endif /* RETRO_TEST_MAIN */

#endif /* RETRO_TEST_H */
