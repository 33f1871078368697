// RESP request encoding: commands are arrays of bulk strings.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace dfbench::protocol {

// Appends "*<n>\r\n" then "$<len>\r\n<arg>\r\n" for each argument.
void AppendCommand(std::string* out, const std::vector<std::string_view>& args);

// Splits a command line on whitespace; a double-quoted part may hold spaces and the escapes \"
// and \\ ("SET k \"a b\"" gives SET, k, a b). kUsage on an unterminated quote.
core::Result<std::vector<std::string>> SplitCommandLine(std::string_view line);

// A command line compiled once for the load path, e.g. "SET __key__ __data__" or
// "HSET prefix:__key__ f1 __data__". The placeholders __key__ and __data__ may appear anywhere
// inside an argument, any number of times; they are replaced by the key and the value.
class CommandTemplate {
 public:
  // kUsage for an empty line, an unterminated quote, or any other __word__ placeholder.
  static core::Result<CommandTemplate> Compile(std::string_view command_line);
  // Arguments already split: kExpand reads their placeholders as Compile does; kLiteral sends
  // every byte as given (a captured command). kUsage for no arguments.
  enum class Placeholders { kExpand, kLiteral };
  static core::Result<CommandTemplate> FromArgs(std::vector<std::string> args,
                                                Placeholders placeholders);

  // Appends the RESP encoding with the placeholders filled. Allocates only when *out has to
  // grow: reserve EncodedSize() to avoid that.
  void Encode(std::string* out, std::string_view key, std::string_view data) const;

  // The exact number of bytes Encode appends for a key and a value of these sizes.
  size_t EncodedSize(size_t key_size, size_t data_size) const;

  size_t arg_count() const { return args_.size(); }
  // The arguments as written, placeholders unexpanded; args()[0] is the command name.
  const std::vector<std::string>& args() const { return args_; }
  const std::string& name() const { return args_.front(); }
  bool uses_key() const { return uses_key_; }
  bool uses_data() const { return uses_data_; }

 private:
  friend class NumberedKeyEncoder;  // lays the same pieces out once per key digit count

  // Encode() walks these: fixed bytes, the "$<len>\r\n" of an argument holding placeholders,
  // or the key or the value itself.
  struct Piece {
    enum class Kind : uint8_t { kLiteral, kLength, kKey, kData } kind;
    uint16_t keys = 0;    // kLength: occurrences of __key__ in the argument
    uint16_t datas = 0;   // kLength: occurrences of __data__ in the argument
    uint32_t offset = 0;  // kLiteral: position in literals_
    uint32_t size = 0;    // kLiteral: byte count; kLength: fixed bytes in the argument
  };

  void AddLiteral(std::string_view bytes);

  std::vector<std::string> args_;
  std::string literals_;
  std::vector<Piece> pieces_;
  bool uses_key_ = false;
  bool uses_data_ = false;
};

}  // namespace dfbench::protocol
