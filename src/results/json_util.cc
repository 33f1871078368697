#include "results/json_util.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

namespace dfbench::results {
namespace {

// 2^53: every integer up to here is exactly representable as a double.
constexpr double kMaxExactDouble = 9007199254740992.0;

// The integral value of a JSON number when it has one that fits [lo, hi].
template <class T>
bool WholeNumber(const nlohmann::json& v, T* out) {
  if (v.is_number_unsigned()) {
    const auto u = v.get<uint64_t>();
    if (u > static_cast<uint64_t>(std::numeric_limits<T>::max())) return false;
    *out = static_cast<T>(u);
    return true;
  }
  if (v.is_number_integer()) {
    const auto i = v.get<int64_t>();
    if constexpr (std::is_signed_v<T>) {
      if (i < std::numeric_limits<T>::min() || i > std::numeric_limits<T>::max()) return false;
    } else {
      if (i < 0) return false;
    }
    *out = static_cast<T>(i);
    return true;
  }
  if (v.is_number_float()) {
    const double d = v.get<double>();
    if (!std::isfinite(d) || std::trunc(d) != d) return false;
    if (d < static_cast<double>(std::numeric_limits<T>::min()) ||
        d > std::min(kMaxExactDouble, static_cast<double>(std::numeric_limits<T>::max()))) {
      return false;
    }
    *out = static_cast<T>(d);
    return true;
  }
  return false;
}

// Whether `v` holds a T (integers: see WholeNumber).
template <class T>
bool Holds(const nlohmann::json& v) {
  if constexpr (std::is_same_v<T, std::string>) {
    return v.is_string();
  } else if constexpr (std::is_same_v<T, bool>) {
    return v.is_boolean();
  } else {
    return v.is_number();
  }
}

// What a file must hold where a T is read, for messages.
template <class T>
constexpr const char* kExpected = "a number";
template <>
constexpr const char* kExpected<std::string> = "a string";
template <>
constexpr const char* kExpected<bool> = "true or false";
template <>
constexpr const char* kExpected<int> = "an integer";
template <>
constexpr const char* kExpected<uint64_t> = "a non-negative integer";

}  // namespace

JsonReader::JsonReader(const nlohmann::json& j, std::string path, std::string* error)
    : path_(std::move(path)), error_(error) {
  if (j.is_object()) {
    object_ = &j;
  } else if (!j.is_null()) {
    ok_ = Mismatch(path_, "an object", error_);
  }
}

const nlohmann::json* JsonReader::Find(const char* key) const {
  if (!ok_ || object_ == nullptr) return nullptr;
  auto it = object_->find(key);
  if (it == object_->end() || it->is_null()) return nullptr;
  return &*it;
}

bool JsonReader::Mismatch(const std::string& path, const char* what, std::string* error) {
  *error = (path.empty() ? std::string() : path + ": ") + "expected " + what;
  return false;
}

template <PlainValue T>
bool JsonReader::Value(const nlohmann::json& v, const std::string& path, T* out,
                       std::string* error) {
  if (v.is_null()) return true;
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    if (WholeNumber(v, out)) return true;
  } else if (Holds<T>(v)) {
    *out = v.get<T>();
    return true;
  }
  return Mismatch(path, kExpected<T>, error);
}
template bool JsonReader::Value(const nlohmann::json&, const std::string&, std::string*,
                                std::string*);
template bool JsonReader::Value(const nlohmann::json&, const std::string&, double*, std::string*);
template bool JsonReader::Value(const nlohmann::json&, const std::string&, int*, std::string*);
template bool JsonReader::Value(const nlohmann::json&, const std::string&, uint64_t*, std::string*);
template bool JsonReader::Value(const nlohmann::json&, const std::string&, bool*, std::string*);

bool JsonReader::Value(const nlohmann::json& v, const std::string&, nlohmann::json* out,
                       std::string*) {
  *out = v;
  return true;
}

core::Result<nlohmann::json> ParseJson(std::string_view text) {
  // The parser reports errors by exception only; it stays inside this function.
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    std::string what = e.what();
    // Drop the "[json.exception.parse_error.101] " tag.
    if (!what.empty() && what[0] == '[') {
      if (auto end = what.find("] "); end != std::string::npos) what.erase(0, end + 2);
    }
    return core::Fail(core::ErrorKind::kUsage, "malformed JSON: " + what);
  }
}

nlohmann::json JsonNumber(double v) {
  if (std::isfinite(v) && std::trunc(v) == v && std::fabs(v) <= kMaxExactDouble) {
    return static_cast<int64_t>(v);
  }
  return v;
}

nlohmann::ordered_json Ordered(const nlohmann::json& j, const KeyOrder& order,
                               const std::string& parent_key) {
  if (j.is_array()) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const auto& e : j) out.push_back(Ordered(e, order, parent_key));
    return out;
  }
  if (!j.is_object()) return nlohmann::ordered_json(j);
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  auto listed = order.find(parent_key);
  if (listed != order.end()) {
    for (const auto& key : listed->second) {
      auto it = j.find(key);
      if (it != j.end()) out[key] = Ordered(*it, order, key);
    }
  }
  // nlohmann::json keeps its keys sorted, so the rest follow alphabetically.
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (!out.contains(it.key())) out[it.key()] = Ordered(it.value(), order, it.key());
  }
  return out;
}

std::string DumpPretty(const nlohmann::ordered_json& j) {
  return j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace dfbench::results
