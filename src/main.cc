// dfbench: benchmarks Redis-protocol engines and memcached fairly and reproducibly.
#include "cli/app.h"

int main(int argc, char** argv) {
  return dfbench::cli::Main(argc, argv);
}
