/* The test program of insn_count_test.sh, cross-compiled for aarch64: a
 * deterministic loop of argv[1] iterations (volatile, so the compiler keeps
 * every one), so its instruction count grows linearly with the argument. */
#include <stdlib.h>

int main(int argc, char** argv) {
  long n = argc > 1 ? atol(argv[1]) : 0;
  volatile unsigned long acc = 1;
  for (long i = 0; i < n; ++i) acc = acc * 6364136223846793005UL + 1442695040888963407UL;
  return 0;
}
