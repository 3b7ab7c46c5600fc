// Comma-separated lists (base/list.hpp). Integers are parsed by hand, digit by digit with an
// overflow check, so "1x", "", "+" and "99999999999" are errors and not what atoi makes of them.
#include "gatelab/base/list.hpp"

#include <climits>
#include <cmath>
#include <cstdlib>

namespace gatelab {

std::vector<std::string> split_list(std::string_view text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = text.find(',', start);
    const std::size_t end = comma == std::string_view::npos ? text.size() : comma;
    if (end > start) out.emplace_back(text.substr(start, end - start));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

bool parse_int(std::string_view text, int& out) {
  std::size_t at = 0;
  const bool negative = !text.empty() && text[0] == '-';
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) at = 1;
  if (at == text.size()) return false;
  long long value = 0;
  for (; at < text.size(); ++at) {
    const char c = text[at];
    if (c < '0' || c > '9') return false;
    value = value * 10 + (c - '0');
    if (value > static_cast<long long>(INT_MAX) + (negative ? 1 : 0)) return false;
  }
  out = static_cast<int>(negative ? -value : value);
  return true;
}

// The syntax is checked by hand, so that strtof (correctly rounded in glibc and in musl, the
// wasm libc) only ever sees a plain decimal number in the "C" locale the library runs in.
bool parse_float(std::string_view text, float& out) {
  std::size_t at = text.empty() || (text[0] != '-' && text[0] != '+') ? 0 : 1;
  const auto digits = [&] {
    const std::size_t from = at;
    while (at < text.size() && text[at] >= '0' && text[at] <= '9') ++at;
    return at - from;
  };
  std::size_t mantissa = digits();
  if (at < text.size() && text[at] == '.') {
    ++at;
    mantissa += digits();
  }
  if (mantissa == 0) return false;
  if (at < text.size() && (text[at] == 'e' || text[at] == 'E')) {
    ++at;
    if (at < text.size() && (text[at] == '-' || text[at] == '+')) ++at;
    if (digits() == 0) return false;
  }
  if (at != text.size()) return false;
  const std::string copy(text);
  const float value = std::strtof(copy.c_str(), nullptr);
  if (!std::isfinite(value)) return false;
  out = value;
  return true;
}

Status parse_int_list(std::string_view text, std::string_view field, std::vector<int>& out) {
  for (const std::string& item : split_list(text)) {
    int value = 0;
    if (!parse_int(item, value)) return invalid_value(field, std::string(field) + ": '" + item + "' is not an integer");
    out.push_back(value);
  }
  return {};
}

}  // namespace gatelab
