#include "loadgen/import_file.h"

#include <charconv>

#include "core/files.h"

namespace dfbench::loadgen {
namespace {

constexpr std::string_view kHeader = "dumpflags, time, exptime";
constexpr int kNumbers = 8;  // dumpflags .. nkey
constexpr int kExptime = 2, kNbytes = 3, kNkey = 7;

// Walks the text of one file, counting lines for its errors.
class ImportParser {
 public:
  ImportParser(std::string_view text, const std::string& name) : text_(text), name_(name) {}

  core::Result<std::vector<ImportedItem>> Items() {
    const size_t eol = text_.find('\n');
    if (text_.substr(0, kHeader.size()) != kHeader || eol == std::string_view::npos) {
      return Bad("unexpected CSV header (want \"" + std::string(kHeader) + ", ...\")");
    }
    pos_ = eol + 1;
    ++line_;
    std::vector<ImportedItem> items;
    while (pos_ < text_.size()) {
      auto item = Item();
      if (!item) return tl::unexpected(item.error());
      items.push_back(std::move(*item));
    }
    return items;
  }

 private:
  core::Result<ImportedItem> Item() {
    uint64_t numbers[kNumbers];
    for (int i = 0; i < kNumbers; ++i) {
      SkipSpaces();
      const auto [end, ec] =
          std::from_chars(text_.data() + pos_, text_.data() + text_.size(), numbers[i]);
      if (ec != std::errc() || numbers[i] > UINT32_MAX) return Bad("bad item values");
      pos_ = static_cast<size_t>(end - text_.data());
      SkipSpaces();
      if (!Take(',')) return Bad("bad item values");
    }
    if (numbers[kNbytes] < 2) return Bad("nbytes is below 2 (the data's CRLF)");
    ImportedItem item{.expiry_s = static_cast<uint32_t>(numbers[kExptime])};
    SkipSpaces();
    if (auto st = Column(numbers[kNkey], "key", &item.key); !st) return tl::unexpected(st.error());
    if (!Take(',')) return Bad("no ',' after the key");
    SkipSpaces();
    if (auto st = Column(numbers[kNbytes] - 2, "data", &item.value); !st) {
      return tl::unexpected(st.error());
    }
    Take('\r');
    if (pos_ < text_.size() && !Take('\n')) return Bad("the line goes on after the data");
    ++line_;
    return item;
  }

  // One key or data column of `len` bytes: quoted ("" is a quote; anything else, CR and LF
  // too, as it is) or bare (up to a comma or the line's end).
  core::Status Column(uint64_t len, const char* what, std::string* out) {
    const size_t start_line = line_;
    if (Take('"')) {
      while (pos_ < text_.size()) {
        const char c = text_[pos_++];
        if (c == '\n') ++line_;
        if (c == '"' && !Take('"')) break;
        out->push_back(c);
      }
    } else {
      while (pos_ < text_.size() && text_[pos_] != ',' && text_[pos_] != '\r' &&
             text_[pos_] != '\n') {
        out->push_back(text_[pos_++]);
      }
    }
    if (out->size() == len) return {};
    line_ = start_line;
    return tl::unexpected(BadError(std::string(what) + " column is " + std::to_string(out->size()) +
                                   " bytes, the line says " + std::to_string(len)));
  }

  void SkipSpaces() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t')) ++pos_;
  }
  bool Take(char c) {
    if (pos_ >= text_.size() || text_[pos_] != c) return false;
    ++pos_;
    return true;
  }
  core::Error BadError(const std::string& what) const {
    return {core::ErrorKind::kUsage,
            "--data-import: " + name_ + ":" + std::to_string(line_) + ": " + what};
  }
  tl::unexpected<core::Error> Bad(const std::string& what) const {
    return tl::unexpected(BadError(what));
  }

  std::string_view text_;
  const std::string& name_;
  size_t pos_ = 0;
  size_t line_ = 1;
};

}  // namespace

core::Result<std::vector<ImportedItem>> ParseImportFile(std::string_view text,
                                                        const std::string& name) {
  return ImportParser(text, name).Items();
}

core::Result<std::vector<ImportedItem>> ReadImportFile(const std::string& path) {
  auto text = core::ReadFile(path);
  if (!text) {
    return tl::unexpected(
        core::Error{core::ErrorKind::kUsage, "--data-import: " + text.error().message});
  }
  return ParseImportFile(*text, path);
}

}  // namespace dfbench::loadgen
