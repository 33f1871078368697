#include "core/error.h"

#include <cctype>

namespace dfbench::core {

std::string Error::Worded(const std::vector<std::string>& names) const {
  std::string out;
  out.reserve(wording.size());
  size_t i = 0;
  while (i < wording.size()) {
    if (wording.compare(i, 2, "{{") == 0) {
      out += '{';
      i += 2;
      continue;
    }
    // "{<digits>}" is option <digits>; anything else is text.
    size_t end = i + 1;
    while (wording[i] == '{' && end < wording.size() &&
           std::isdigit(static_cast<unsigned char>(wording[end])))
      ++end;
    if (end == i + 1 || end == wording.size() || wording[end] != '}') {
      out += wording[i++];
      continue;
    }
    const size_t option = std::stoul(wording.substr(i + 1, end - i - 1));
    if (option < names.size()) {
      out += names[option];
    } else if (option < options.size()) {
      out += options[option];
    } else {
      out.append(wording, i, end + 1 - i);
    }
    i = end + 1;
  }
  return out;
}

std::string LiteralWording(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    out += c;
    if (c == '{') out += '{';
  }
  return out;
}

tl::unexpected<Error> FailAbout(ErrorKind kind, std::vector<std::string> options,
                                std::string wording) {
  Error e{kind, "", std::move(options), std::move(wording)};
  e.message = e.Worded(e.options);
  return tl::unexpected<Error>(std::move(e));
}

Error WithContext(Error e, const std::string& context) {
  e.message = context + ": " + e.message;
  if (!e.options.empty()) e.wording = LiteralWording(context) + ": " + e.wording;
  return e;
}

}  // namespace dfbench::core
