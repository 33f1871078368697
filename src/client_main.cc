// dfbench's client build: the load generator a client host of another architecture runs.
#include "cli/client_app.h"
#include "core/standard_output.h"

int main(int argc, char** argv) {
  return dfbench::core::FlushStdout(dfbench::cli::ClientMain(argc, argv));
}
