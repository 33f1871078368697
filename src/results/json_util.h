// Reading and writing the JSON of result and state files: lenient, path-aware readers and a
// stable, human-friendly key order for the files we write.
#pragma once

#include <concepts>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/enum_names.h"
#include "core/error.h"

namespace dfbench::results {

// The values a file holds as one JSON string, number or boolean.
template <class T>
concept PlainValue = std::same_as<T, std::string> || std::same_as<T, double> ||
    std::same_as<T, int> || std::same_as<T, uint64_t> || std::same_as<T, bool>;

// A value a file holds as one word: written as `value.Name()`, read back by `T::Parse(word)`
// (core::Role). `T::kForms` lists the words, for the error of any other.
template <class T>
concept NamedValue = requires(const T& value, std::string_view word) {
  { value.Name() } -> std::convertible_to<std::string>;
  { T::Parse(word) } -> std::same_as<std::optional<T>>;
  T::kForms;
};

// Reads the fields of one JSON object. Missing or null fields keep the caller's defaults; a
// value of the wrong type records an error that names its path, e.g.
// "engines[1].trials[0].throughput: expected a number". The first error wins and later reads
// do nothing. Integers are accepted where numbers are expected, and whole numbers where
// integers are. Nothing throws.
class JsonReader {
 public:
  // `j` is the object found at `path` ("" for the document root); null reads as an empty
  // object. `j` and `error` must outlive the reader.
  JsonReader(const nlohmann::json& j, std::string path, std::string* error);

  bool ok() const { return ok_; }

  // Any value `Value` reads: std::string, double, int, uint64_t, bool, nlohmann::json (any value,
  // kept as is), a struct with a field list or its own `Read`, and std::vector, std::optional
  // or std::map (by string) of those.
  template <class T>
  void Field(const char* key, T* out) {
    if (const nlohmann::json* v = Find(key)) Track(Value(*v, ChildPath(key), out, error_));
  }

  // A field the writer leaves out when it holds its type's default ("", 0, false, null, nullopt).
  template <class T>
  void Optional(const char* key, T* out) {
    Field(key, out);
  }

  // A value the writer computes from the others: nothing to read back.
  template <class T>
  void Derived(const char* /*key*/, const T& /*value*/) {}

  // An enum spelled as one of the words of `names` (into an E or a std::optional<E>); any other
  // word is an error naming them, and "" reads as absent.
  template <class Out, class E, size_t N>
  void Enum(const char* key, Out* out, const core::EnumNames<E, N>& names) {
    const nlohmann::json* v = Find(key);
    if (!v) return;
    const std::string path = ChildPath(key);
    std::string word;
    if (!Value(*v, path, &word, error_)) return Track(false);
    if (word.empty()) return;
    if (auto value = names.Parse(word)) {
      *out = *value;
    } else {
      Track(Mismatch(path, ("one of " + names.List()).c_str(), error_));
    }
  }

  // Reads the value found at `path` into `*out`; false with `*error` set when it does not fit.
  template <class T>
  using ReadFn = bool (*)(const nlohmann::json& v, const std::string& path, T* out,
                          std::string* error);

  // Element readers, usable as `read` callbacks. Each returns false and sets `*error`
  // ("<path>: expected ...") on a type mismatch. A plain value: null keeps `*out`.
  template <PlainValue T>
  static bool Value(const nlohmann::json& v, const std::string& path, T* out, std::string* error);
  static bool Value(const nlohmann::json& v, const std::string& path, nlohmann::json* out,
                    std::string* error);
  template <class T>
  static bool Value(const nlohmann::json& v, const std::string& path, std::vector<T>* out,
                    std::string* error) {
    return ReadArray<T>(v, path, out, Value, error);
  }
  // An object whose keys are names (an engine's, a tool's), each value read as T.
  template <class T>
  static bool Value(const nlohmann::json& v, const std::string& path, std::map<std::string, T>* out,
                    std::string* error) {
    if (v.is_null()) return true;
    if (!v.is_object()) return Mismatch(path, "an object", error);
    std::map<std::string, T> items;
    for (const auto& [key, item] : v.items()) {
      if (!Value(item, path.empty() ? key : path + "." + key, &items[key], error)) return false;
    }
    *out = std::move(items);
    return true;
  }
  // One of the words T::Parse reads; "" reads as absent, any other word names the forms.
  template <NamedValue T>
  static bool Value(const nlohmann::json& v, const std::string& path, T* out, std::string* error) {
    std::string word;
    if (!Value(v, path, &word, error)) return false;
    if (word.empty()) return true;
    auto value = T::Parse(word);
    if (!value) return Mismatch(path, ("one of " + std::string(T::kForms)).c_str(), error);
    *out = *value;
    return true;
  }
  // null reads as nullopt.
  template <class T>
  static bool Value(const nlohmann::json& v, const std::string& path, std::optional<T>* out,
                    std::string* error) {
    if (v.is_null()) {
      out->reset();
      return true;
    }
    T value{};
    if (!Value(v, path, &value, error)) return false;
    *out = std::move(value);
    return true;
  }
  // A struct with a field list, `Fields(visitor, value)` (see json_fields.h), field by field.
  template <class T>
  requires requires(JsonReader& r, T& x) { Fields(r, x); }
  static bool Value(const nlohmann::json& v, const std::string& path, T* out, std::string* error) {
    JsonReader r(v, path, error);
    Fields(r, *out);
    return r.ok();
  }
  // A struct whose file form is no field list: its own `Read(v, path, out, error)`.
  template <class T>
  requires requires(const nlohmann::json& v, const std::string& path, T* out, std::string* error) {
    Read(v, path, out, error);
  }
  static bool Value(const nlohmann::json& v, const std::string& path, T* out, std::string* error) {
    return Read(v, path, out, error);
  }

  template <class T>
  static bool ReadArray(const nlohmann::json& v, const std::string& path, std::vector<T>* out,
                        std::type_identity_t<ReadFn<T>> read, std::string* error) {
    if (v.is_null()) return true;
    if (!v.is_array()) return Mismatch(path, "an array", error);
    std::vector<T> items(v.size());
    for (size_t i = 0; i < v.size(); ++i) {
      if (!read(v[i], path + "[" + std::to_string(i) + "]", &items[i], error)) return false;
    }
    *out = std::move(items);
    return true;
  }

  // Sets `*error` to "<path>: expected <what>" (or "expected <what>" at the root); false.
  static bool Mismatch(const std::string& path, const char* what, std::string* error);

 private:
  // The value of `key`, or null when it is absent, null, or an error came first.
  const nlohmann::json* Find(const char* key) const;
  std::string ChildPath(const char* key) const { return path_.empty() ? key : path_ + "." + key; }
  void Track(bool ok) { ok_ = ok_ && ok; }

  const nlohmann::json* object_ = nullptr;
  std::string path_;
  std::string* error_;
  bool ok_ = true;
};

// Parses a JSON document. kUsage with the parser's position on malformed text.
core::Result<nlohmann::json> ParseJson(std::string_view text);

// A number for a file we write: whole values become integers (2646502, not 2646502.0), as the
// reference implementation writes them; other values stay doubles.
nlohmann::json JsonNumber(double v);

// Key order of the objects of one document: for each parent key ("" for the root; array
// elements take their array's key), the keys in the order to write them. Keys not listed
// follow in alphabetical order.
using KeyOrder = std::map<std::string, std::vector<std::string>>;

// `j` with its object keys in `order`, recursively.
nlohmann::ordered_json Ordered(const nlohmann::json& j, const KeyOrder& order,
                               const std::string& parent_key = "");

// Two-space indented JSON with a trailing newline; invalid UTF-8 is replaced, never thrown on.
std::string DumpPretty(const nlohmann::ordered_json& j);

}  // namespace dfbench::results
