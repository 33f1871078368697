// The dfbench command lines written as examples in help texts and in the documentation, read the
// way a reader would type them, so that tests can parse each with the real command line.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace dfbench::cli {

struct ExampleLine {
  std::string args;     // what follows "dfbench ", cut where the shell would take over
  std::string comment;  // the text after a trailing "#", trimmed; "" when there is none
};

// Every line of `text` that starts (after spaces and an optional "$ " prompt) with "dfbench ",
// with "\"-newline continuations joined. A line is cut at a pipe, a redirection, a ';' or a
// comment outside quotes; a comment's text is kept beside it.
std::vector<ExampleLine> ExampleCommandLines(std::string_view text);

}  // namespace dfbench::cli
