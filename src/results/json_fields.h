// One field list per struct serves both directions: a struct's
//   void Fields(auto& v, FieldsOf<Stats> auto& x) { v.Field("median", &x.median); ... }
// is walked by a JsonWriter to write it and by a JsonReader to read it, so each key is spelled
// once. Visitors offer Field (always written), Optional (left out at its default), Enum and
// Derived (computed from the others: written, never read back).
// Any struct with a field list is written by `ToJson` and read by `FromJson` (below), and a
// file's key order comes from its field lists (key_order.h). A field list stands beside its
// struct in the struct's header, so that both serve wherever the struct is known.
// Visitors find a field list by argument-dependent lookup, so it lives in the struct's namespace
// (or dfbench::results), never in an unnamed one.
#pragma once

#include <concepts>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "core/enum_names.h"
#include "results/json_util.h"

namespace dfbench::results {

// Inside a field list written `Fields(auto& v, ... auto& x)`: fields of `x` whose keys are their
// member names, in order (DFBENCH_FIELDS) or left out at their defaults (DFBENCH_OPTIONAL_FIELDS).
#define DFBENCH_FIELD_(member) v.Field(#member, &x.member);
#define DFBENCH_OPTIONAL_FIELD_(member) v.Optional(#member, &x.member);
#define DFBENCH_FIELDS(...) NLOHMANN_JSON_EXPAND(NLOHMANN_JSON_PASTE(DFBENCH_FIELD_, __VA_ARGS__))
#define DFBENCH_OPTIONAL_FIELDS(...) \
  NLOHMANN_JSON_EXPAND(NLOHMANN_JSON_PASTE(DFBENCH_OPTIONAL_FIELD_, __VA_ARGS__))

// `U` is `T` or `const T`: the same field list takes the writer's const value and the reader's.
template <class U, class T>
concept FieldsOf = std::same_as<std::remove_const_t<U>, T>;

template <class T>
inline constexpr bool kIsOptional = false;
template <class T>
inline constexpr bool kIsOptional<std::optional<T>> = true;
template <class T>
inline constexpr bool kIsNameMap = false;
template <class T>
inline constexpr bool kIsNameMap<std::map<std::string, T>> = true;

// Builds the JSON object of one struct from its field list.
class JsonWriter {
 public:
  template <class T>
  void Field(const char* key, const T* value) {
    json_[key] = ToValue(*value);
  }

  template <class T>
  void Optional(const char* key, const T* value) {
    if constexpr (kIsOptional<T>) {
      if (!value->has_value()) return;
    } else {
      if (*value == T{}) return;
    }
    Field(key, value);
  }

  // A value computed from the others, for readers of the file; never read back.
  template <class T>
  void Derived(const char* key, const T& value) {
    json_[key] = ToValue(value);
  }

  // The enum's word; "" for an absent std::optional.
  template <class Value, class E, size_t N>
  void Enum(const char* key, const Value* value, const core::EnumNames<E, N>& names) {
    if constexpr (kIsOptional<Value>) {
      json_[key] = *value ? std::string(names.Name(**value)) : std::string();
    } else {
      json_[key] = std::string(names.Name(*value));
    }
  }

  // Numbers through JsonNumber, structs through their field list or their own `ToJson`, a
  // NamedValue as its word, nullopt as null, a std::map by string as an object. Lists of plain
  // values are written as they are (a 1.0 stays 1.0).
  template <class T>
  static nlohmann::json ToValue(const T& value) {
    if constexpr (std::is_same_v<T, double>) {
      return JsonNumber(value);
    } else if constexpr (requires(JsonWriter & w) { Fields(w, value); }) {
      JsonWriter w;
      Fields(w, value);
      return std::move(w.json_);
    } else if constexpr (requires { ToJson(value); }) {
      return ToJson(value);
    } else if constexpr (NamedValue<T>) {
      return nlohmann::json(value.Name());
    } else if constexpr (kIsOptional<T>) {
      return value ? ToValue(*value) : nlohmann::json(nullptr);
    } else if constexpr (kIsNameMap<T>) {
      nlohmann::json items = nlohmann::json::object();
      for (const auto& [key, item] : value) items[key] = ToValue(item);
      return items;
    } else if constexpr (requires { value.begin(); } && !std::is_same_v<T, std::string> &&
                         !std::is_same_v<T, nlohmann::json>) {
      if constexpr (std::is_arithmetic_v<typename T::value_type> ||
                    std::is_same_v<typename T::value_type, std::string>) {
        return nlohmann::json(value);
      } else {
        nlohmann::json items = nlohmann::json::array();
        for (const auto& item : value) items.push_back(ToValue(item));
        return items;
      }
    } else {
      return nlohmann::json(value);
    }
  }

 private:
  nlohmann::json json_ = nlohmann::json::object();
};

// A struct with a field list.
template <class T>
concept HasFieldList = requires(JsonWriter& w, const T& x) {
  Fields(w, x);
};

// The JSON object of any struct with a field list; a type written otherwise (a whole object
// rewritten, not field by field) has its own `ToJson` overload, which wins over this one.
template <HasFieldList T>
nlohmann::json ToJson(const T& value) {
  return JsonWriter::ToValue(value);
}

// Reads `*out` from `j` at `path` through its field list into a fresh value, so a failed read
// leaves `*out` untouched. A document root ("" path) must be an object; a null inside one
// reads as defaults.
template <class T>
bool FieldsFromJson(const nlohmann::json& j, const std::string& path, T* out, std::string* error) {
  if (path.empty() && !j.is_object()) return JsonReader::Mismatch(path, "an object", error);
  T value;
  if (!JsonReader::Value(j, path, &value, error)) return false;
  *out = std::move(value);
  return true;
}

// Reads a result document whose `scenario` must be its own (the struct's default, "memory"):
// the scenario first, so a file of another scenario says so before anything else, then all its
// fields.
template <HasFieldList Document>
bool ReadScenarioDocument(const nlohmann::json& j, Document* out, std::string* error) {
  if (!j.is_object()) return JsonReader::Mismatch("", "an object", error);
  const std::string expected = Document{}.scenario;
  std::string scenario = expected;
  JsonReader r(j, "", error);
  r.Field("scenario", &scenario);
  if (!r.ok()) return false;
  if (scenario != expected) {
    *error = "scenario: expected \"" + expected + "\", got \"" + scenario + "\"";
    return false;
  }
  return FieldsFromJson(j, "", out, error);
}

// Reads any struct with a field list from the root of `j` (lenient: missing fields keep their
// defaults, wrong types fail with the field's path); a document with a `scenario` must name its
// own. A type read otherwise has its own `FromJson` overload, which wins over this one.
template <HasFieldList T>
bool FromJson(const nlohmann::json& j, T* out, std::string* error) {
  if constexpr (requires { out->scenario; }) {
    return ReadScenarioDocument(j, out, error);
  } else {
    return FieldsFromJson(j, "", out, error);
  }
}

}  // namespace dfbench::results
