// The order a file's keys are written in, taken from the field lists (json_fields.h): each
// object's keys in the order of its struct's field list, so a file reads in the order its structs
// declare, and a new field needs no second list.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "core/check.h"
#include "core/enum_names.h"
#include "results/json_fields.h"
#include "results/json_util.h"

namespace dfbench::results {

// The keys of a field list in order: for a file's key order, or its CSV columns.
class FieldKeys {
 public:
  enum class Which { kAll, kScalars };  // kScalars: not objects, nor lists of them

  explicit FieldKeys(Which which) : which_(which) {}

  template <class T>
  void Field(const char* key, const T* /*value*/) {
    if (which_ == Which::kAll || std::is_arithmetic_v<T> || std::is_same_v<T, std::string> ||
        NamedValue<T>) {
      keys_.emplace_back(key);
    }
  }
  template <class T>
  void Optional(const char* key, const T* value) {
    Field(key, value);
  }
  template <class Value, class E, size_t N>
  void Enum(const char* key, const Value* /*value*/, const core::EnumNames<E, N>& /*names*/) {
    keys_.emplace_back(key);
  }
  template <class T>
  void Derived(const char* key, const T& /*value*/) {
    Field(key, static_cast<const T*>(nullptr));
  }

  // The keys of T's field list.
  template <class T>
  static std::vector<std::string> Of(Which which = Which::kAll) {
    FieldKeys keys(which);
    const T value;
    Fields(keys, value);
    return std::move(keys.keys_);
  }

 private:
  Which which_;
  std::vector<std::string> keys_;
};

// A record whose object, and every object inside it, keeps the order Ordered gives objects
// without a field list (alphabetical, unless a field list of the document orders that key):
// records that were free-form JSON objects once keep their files' order. It says so with
// `static constexpr bool kAlphabeticalKeys = true;`.
template <class T>
concept AlphabeticalKeys = T::kAlphabeticalKeys;

// Walks a document's field lists down to its leaves and records, under the key each object is
// written at, the keys of its field list. Ordered() finds an object's order by its key alone, so
// within one document a key names one kind of object.
class KeyOrderWalker {
 public:
  template <class T>
  void Field(const char* key, const T* /*value*/) {
    using Object = typename ObjectOf<T>::type;
    if constexpr (HasFieldList<Object> && !AlphabeticalKeys<Object>) {
      std::vector<std::string> keys = FieldKeys::Of<Object>();
      const auto [it, added] = order_.try_emplace(key, keys);
      DFB_CHECK(added || it->second == keys);
      const Object value;
      Fields(*this, value);
    }
  }
  template <class T>
  void Optional(const char* key, const T* value) {
    Field(key, value);
  }
  template <class Value, class E, size_t N>
  void Enum(const char* /*key*/, const Value* /*value*/, const core::EnumNames<E, N>& /*names*/) {}
  template <class T>
  void Derived(const char* /*key*/, const T& /*value*/) {}

  KeyOrder Take() { return std::move(order_); }

 private:
  // The object a field holds: the field's own type, or what its list or optional holds.
  template <class T>
  struct ObjectOf {
    using type = T;
  };
  template <class T>
  struct ObjectOf<std::vector<T>> {
    using type = T;
  };
  template <class T>
  struct ObjectOf<std::optional<T>> {
    using type = T;
  };

  KeyOrder order_;
};

// The key order of document type T from its field lists; `exceptions` replace the order of the
// objects written without a field list, or in another order than their field list's.
template <HasFieldList T>
KeyOrder KeyOrderOf(const KeyOrder& exceptions = {}) {
  KeyOrderWalker walker;
  walker.Field("", static_cast<const T*>(nullptr));
  KeyOrder order = walker.Take();
  for (const auto& [key, keys] : exceptions) order[key] = keys;
  return order;
}

// `document` as its file: keys in KeyOrderOf's order, two-space indented, trailing newline.
template <HasFieldList T>
std::string RenderDocument(const T& document, const KeyOrder& exceptions = {}) {
  return DumpPretty(Ordered(ToJson(document), KeyOrderOf<T>(exceptions)));
}

}  // namespace dfbench::results
