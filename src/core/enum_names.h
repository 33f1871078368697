// Enums that files and messages spell as words: one table per enum, read both ways.
//
//   inline constexpr core::EnumNames<Color, 2> kColorNames{{{{Color::kRed, "red"},
//                                                           {Color::kBlue, "blue"}}}};
//   kColorNames.Name(Color::kRed) == "red";  kColorNames.Parse("blue") == Color::kBlue
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace dfbench::core {

template <class E, size_t N>
struct EnumNames {
  std::array<std::pair<E, std::string_view>, N> names;

  // The word for `value` ("" for a value missing from the table).
  constexpr std::string_view Name(E value) const {
    for (const auto& [v, name] : names) {
      if (v == value) return name;
    }
    return {};
  }
  // The value spelled `name`; nullopt for any other word.
  constexpr std::optional<E> Parse(std::string_view name) const {
    for (const auto& [v, n] : names) {
      if (n == name) return v;
    }
    return std::nullopt;
  }
  // "a, b or c", for messages.
  std::string List() const {
    std::string out;
    for (size_t i = 0; i < N; ++i) {
      if (i > 0) out += i + 1 == N ? " or " : ", ";
      out += names[i].second;
    }
    return out;
  }
};

}  // namespace dfbench::core
