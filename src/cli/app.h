// The command-line front end: one table of subcommands, parsed with CLI11.
#pragma once

namespace dfbench::cli {

// Parses argv, runs the chosen subcommand, returns the process exit code.
int Main(int argc, char** argv);

}  // namespace dfbench::cli
