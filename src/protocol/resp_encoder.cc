#include "protocol/resp_encoder.h"

#include <cctype>
#include <charconv>

#include "protocol/decimal.h"

namespace dfbench::protocol {
namespace {

// Appends "<prefix><n>\r\n" without allocating (beyond the string's own growth).
void AppendHeader(std::string* out, char prefix, size_t n) {
  char buf[24];
  buf[0] = prefix;
  char* end = std::to_chars(buf + 1, buf + sizeof(buf) - 2, n).ptr;
  *end++ = '\r';
  *end++ = '\n';
  out->append(buf, static_cast<size_t>(end - buf));
}

bool IsWordChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0;
}

// One part of an argument: literal text, or a placeholder.
struct Segment {
  enum class Kind { kText, kKey, kData } kind;
  std::string_view text;
};

// Splits an argument into text and placeholders. A placeholder is "__" + letters/digits + "__".
core::Result<std::vector<Segment>> Segments(std::string_view arg) {
  std::vector<Segment> segments;
  size_t text_start = 0;
  size_t i = 0;
  while (i + 4 < arg.size()) {
    if (arg[i] != '_' || arg[i + 1] != '_') {
      ++i;
      continue;
    }
    size_t j = i + 2;
    while (j < arg.size() && IsWordChar(arg[j])) ++j;
    if (j == i + 2 || j + 1 >= arg.size() || arg[j] != '_' || arg[j + 1] != '_') {
      ++i;
      continue;
    }
    const std::string_view word = arg.substr(i, j + 2 - i);
    Segment::Kind kind;
    if (word == "__key__") {
      kind = Segment::Kind::kKey;
    } else if (word == "__data__") {
      kind = Segment::Kind::kData;
    } else {
      return core::Fail(core::ErrorKind::kUsage,
                        "unknown placeholder '" + std::string(word) +
                            "' in command template (use __key__ or __data__)");
    }
    if (i > text_start) {
      segments.push_back({Segment::Kind::kText, arg.substr(text_start, i - text_start)});
    }
    segments.push_back({kind, {}});
    i = j + 2;
    text_start = i;
  }
  if (text_start < arg.size()) {
    segments.push_back({Segment::Kind::kText, arg.substr(text_start)});
  }
  return segments;
}

}  // namespace

void AppendCommand(std::string* out, const std::vector<std::string_view>& args) {
  AppendHeader(out, '*', args.size());
  for (std::string_view arg : args) {
    AppendHeader(out, '$', arg.size());
    out->append(arg);
    out->append("\r\n", 2);
  }
}

core::Result<std::vector<std::string>> SplitCommandLine(std::string_view line) {
  std::vector<std::string> args;
  size_t i = 0;
  while (true) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    if (i == line.size()) break;
    std::string arg;
    while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) {
      if (line[i] != '"') {
        arg += line[i++];
        continue;
      }
      // A quoted part, which may hold spaces.
      ++i;
      while (i < line.size() && line[i] != '"') {
        if (line[i] == '\\' && i + 1 < line.size() && (line[i + 1] == '"' || line[i + 1] == '\\')) {
          ++i;
        }
        arg += line[i++];
      }
      if (i == line.size()) {
        return core::Fail(core::ErrorKind::kUsage,
                          "unterminated quote in command '" + std::string(line) + "'");
      }
      ++i;  // the closing quote
    }
    args.push_back(std::move(arg));
  }
  return args;
}

core::Result<CommandTemplate> CommandTemplate::Compile(std::string_view command_line) {
  auto args = SplitCommandLine(command_line);
  if (!args) return tl::unexpected(args.error());
  return FromArgs(std::move(*args), Placeholders::kExpand);
}

core::Result<CommandTemplate> CommandTemplate::FromArgs(std::vector<std::string> args,
                                                        Placeholders placeholders) {
  if (args.empty()) return core::Fail(core::ErrorKind::kUsage, "empty command template");
  CommandTemplate t;
  t.args_ = std::move(args);
  std::string fixed;  // literal bytes accumulated until the next dynamic piece
  AppendHeader(&fixed, '*', t.args_.size());
  for (const std::string& arg : t.args_) {
    auto segments = placeholders == Placeholders::kExpand
                        ? Segments(arg)
                        : std::vector<Segment>{{Segment::Kind::kText, arg}};
    if (!segments) return tl::unexpected(segments.error());
    Piece length{.kind = Piece::Kind::kLength};
    for (const Segment& s : *segments) {
      if (s.kind == Segment::Kind::kText) length.size += static_cast<uint32_t>(s.text.size());
      if (s.kind == Segment::Kind::kKey) ++length.keys;
      if (s.kind == Segment::Kind::kData) ++length.datas;
    }
    if (length.keys == 0 && length.datas == 0) {
      AppendHeader(&fixed, '$', arg.size());
      fixed.append(arg);
      fixed.append("\r\n");
      continue;
    }
    t.AddLiteral(fixed);
    fixed.clear();
    t.pieces_.push_back(length);
    for (const Segment& s : *segments) {
      if (s.kind == Segment::Kind::kText) {
        fixed.append(s.text);
        continue;
      }
      t.AddLiteral(fixed);
      fixed.clear();
      t.pieces_.push_back(
          {.kind = s.kind == Segment::Kind::kKey ? Piece::Kind::kKey : Piece::Kind::kData});
    }
    fixed.append("\r\n");
    t.uses_key_ = t.uses_key_ || length.keys > 0;
    t.uses_data_ = t.uses_data_ || length.datas > 0;
  }
  t.AddLiteral(fixed);
  return t;
}

void CommandTemplate::AddLiteral(std::string_view bytes) {
  if (bytes.empty()) return;
  pieces_.push_back({.kind = Piece::Kind::kLiteral,
                     .offset = static_cast<uint32_t>(literals_.size()),
                     .size = static_cast<uint32_t>(bytes.size())});
  literals_.append(bytes);
}

void CommandTemplate::Encode(std::string* out, std::string_view key, std::string_view data) const {
  for (const Piece& piece : pieces_) {
    switch (piece.kind) {
      case Piece::Kind::kLiteral:
        out->append(literals_.data() + piece.offset, piece.size);
        break;
      case Piece::Kind::kLength:
        AppendHeader(out, '$', piece.size + piece.keys * key.size() + piece.datas * data.size());
        break;
      case Piece::Kind::kKey:
        out->append(key);
        break;
      case Piece::Kind::kData:
        out->append(data);
        break;
    }
  }
}

size_t CommandTemplate::EncodedSize(size_t key_size, size_t data_size) const {
  size_t total = 0;
  for (const Piece& piece : pieces_) {
    switch (piece.kind) {
      case Piece::Kind::kLiteral:
        total += piece.size;
        break;
      case Piece::Kind::kLength:
        total += 3 + DecimalDigits(piece.size + piece.keys * key_size + piece.datas * data_size);
        break;
      case Piece::Kind::kKey:
        total += key_size;
        break;
      case Piece::Kind::kData:
        total += data_size;
        break;
    }
  }
  return total;
}

}  // namespace dfbench::protocol
