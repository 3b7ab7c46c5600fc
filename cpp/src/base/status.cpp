// Status: the codes' JS spellings and the nesting of a config's problem inside another's.
#include "gatelab/base/status.hpp"

#include <algorithm>

namespace gatelab {

const char* error_code_name(ErrorCode code) {
  switch (code) {
    case ErrorCode::ok: return "ok";
    case ErrorCode::invalid_type: return "invalid-type";
    case ErrorCode::invalid_value: return "invalid-value";
    case ErrorCode::out_of_range: return "out-of-range";
    case ErrorCode::unsupported: return "unsupported";
    case ErrorCode::not_finite: return "not-finite";
    case ErrorCode::invalid_state: return "invalid-state";
    case ErrorCode::disposed: return "disposed";
  }
  return "invalid-value";
}

Status Status::within(std::string_view scope) const {
  if (ok()) return *this;
  const std::string s(scope);
  return {code, field.empty() ? s : s + "." + field, s + ": " + message};
}

Status unknown_choice(std::string_view field, const std::vector<std::string_view>& choices, std::string_view got) {
  std::string list;
  std::size_t i = 0;
  for (std::string_view c : choices) {
    list += (i == 0 ? "'" : i + 1 == choices.size() ? " or '" : ", '") + std::string(c) + "'";
    ++i;
  }
  return invalid_value(field, std::string(field) + " must be " + list + " (got '" + std::string(got) + "')");
}

std::string camel_case(std::string_view snake) {
  std::string out;
  bool upper = false;
  for (char c : snake) {
    if (c == '_' && !out.empty() && out.back() != '.') {
      upper = true;
      continue;
    }
    out += upper && c >= 'a' && c <= 'z' ? char(c - 'a' + 'A') : c;
    upper = false;
  }
  return out;
}

namespace {

bool name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// Every whole-word `from` in text as `to` (not inside a longer name: "d" is not renamed in "dx").
void replace_words(std::string& text, std::string_view from, std::string_view to) {
  if (from.empty()) return;
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at)) {
    const std::size_t end = at + from.size();
    if ((at > 0 && name_char(text[at - 1])) || (end < text.size() && name_char(text[end]))) {
      at = end;
      continue;
    }
    text.replace(at, from.size(), to);
    at += to.size();
  }
}

// Every snake_case word of text outside '…' quotes in camelCase. A quote opens at a ' that does
// not follow a letter (so "layer's" opens none) and closes at the next '.
std::string camel_case_words(std::string_view text) {
  std::string out;
  bool quoted = false;
  for (std::size_t i = 0; i < text.size();) {
    const bool word_start = name_char(text[i]) && (i == 0 || !name_char(text[i - 1]));
    if (text[i] == '\'' && (quoted || i == 0 || !name_char(text[i - 1]))) quoted = !quoted;
    if (quoted || !word_start) {
      out += text[i++];
      continue;
    }
    std::size_t end = i;
    while (end < text.size() && name_char(text[end])) ++end;
    const std::string_view word = text.substr(i, end - i);
    const bool snake = word.find('_') != std::string_view::npos && word[0] >= 'a' && word[0] <= 'z';
    out += snake ? camel_case(word) : std::string(word);
    i = end;
  }
  return out;
}

}  // namespace

const NameMap& api_names() {
  static const NameMap table = {
      {"activation.beta", "beta"},  // lab.cem's swish β is `beta` beside the activation's name
      {"per_head", "per-head"},     // the per-head diagonal, in every message that names it
  };
  return table;
}

Status renamed(const Status& s, const NameMap& names) {
  Status out = s;
  for (const auto& [from, to] : names) replace_words(out.message, from, to);
  out.message = camel_case_words(out.message);
  out.field = camel_case(s.field);
  for (const auto& [from, to] : names) {
    if (s.field == from) out.field = to;
  }
  return out;
}

std::ostream& operator<<(std::ostream& os, const Status& s) {
  if (s.ok()) return os << "ok";
  return os << error_code_name(s.code) << " [" << s.field << "] " << s.message;
}

}  // namespace gatelab
