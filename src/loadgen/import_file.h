// memtier's --data-import file (README.import): a memcached dump as CSV, one item a line,
// "dumpflags, time, exptime, nbytes, nsuffix, it_flags, clsid, nkey, key, data" after a header
// line. Only the key, the data and exptime are used; nbytes counts the data and its CRLF.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace dfbench::loadgen {

struct ImportedItem {
  std::string key;
  std::string value;
  uint32_t expiry_s = 0;  // the file's exptime; 0: none
};

// The items of an import file's text, in file order. `name` is the file named in errors: kUsage
// with "NAME:LINE: what is wrong" for a bad header, a bad number, a column whose length is not
// the one its line gives, or a line that does not end after the data.
core::Result<std::vector<ImportedItem>> ParseImportFile(std::string_view text,
                                                        const std::string& name);

// Reads and parses the file at `path` (kUsage when it cannot be read, as for a bad one).
core::Result<std::vector<ImportedItem>> ReadImportFile(const std::string& path);

}  // namespace dfbench::loadgen
