// dfbench: benchmarks Redis-protocol engines and memcached fairly and reproducibly.
#include "cli/app.h"
#include "core/standard_output.h"

int main(int argc, char** argv) {
  return dfbench::core::FlushStdout(dfbench::cli::Main(argc, argv));
}
