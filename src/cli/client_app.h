// The client build's command line: only what a client host runs of dfbench (`loadgen`, and
// `version` as setup's check that the binary starts). scripts/build-arm64.sh builds it for
// another architecture without the layers above loadgen (no libcurl, pugixml or OpenSSL).
#pragma once

namespace dfbench::cli {

// Parses argv, runs `loadgen` or `version`, returns the process exit code (as Main does).
int ClientMain(int argc, char** argv);

}  // namespace dfbench::cli
