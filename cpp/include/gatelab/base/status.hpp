// The one error value of the core: what a call refused, as a code a program can switch on, the
// offending field and a sentence for a reader. The core never throws (the wasm build has
// exceptions off), so every fallible call returns a Status; the bindings hand it to JS as
// {code, field, message} and web/lib/core/errors.js turns it into a GateLabError. Nothing is
// read back out of the message.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gatelab {

// What went wrong; the JS spelling of each is error_code_name (GateLabError.code).
enum class ErrorCode : std::uint8_t {
  ok,
  invalid_type,   // the wrong type: not an integer where one is needed, a missing value
  invalid_value,  // the right type but not accepted: an unknown name, a combination that does not fit
  out_of_range,   // a number outside its interval, a size above its cap, a null buffer
  unsupported,    // a valid request this kind, activation or configuration cannot do
  not_finite,     // NaN or ±∞ where a finite number is needed
  invalid_state,  // the object's state refuses the call (diverged, not prepared)
  disposed,       // the object is gone
};

// "ok", "invalid-type", "invalid-value", "out-of-range", "unsupported", "not-finite",
// "invalid-state", "disposed".
const char* error_code_name(ErrorCode code);

struct [[nodiscard]] Status {
  ErrorCode code = ErrorCode::ok;
  // The offending field in the core's snake_case, nested with '.' ("hidden.rank",
  // "activation.beta"); "" when the problem is not one field's (null buffers, state).
  std::string field;
  // A sentence that names the field as the core spells it; "" exactly when ok.
  std::string message;

  bool ok() const { return code == ErrorCode::ok; }
  // The same problem one level down: field "rank" of a config found in `scope` becomes
  // "scope.rank" and the message "scope: …" (a transformer's "mlp: hidden must …").
  Status within(std::string_view scope) const;
};

inline Status make_status(ErrorCode code, std::string field, std::string message) {
  return {code, std::move(field), std::move(message)};
}
inline Status invalid_type(std::string_view field, std::string message) {
  return make_status(ErrorCode::invalid_type, std::string(field), std::move(message));
}
inline Status invalid_value(std::string_view field, std::string message) {
  return make_status(ErrorCode::invalid_value, std::string(field), std::move(message));
}
inline Status out_of_range(std::string_view field, std::string message) {
  return make_status(ErrorCode::out_of_range, std::string(field), std::move(message));
}
inline Status unsupported(std::string_view field, std::string message) {
  return make_status(ErrorCode::unsupported, std::string(field), std::move(message));
}
inline Status not_finite(std::string_view field, std::string message) {
  return make_status(ErrorCode::not_finite, std::string(field), std::move(message));
}
inline Status invalid_state(std::string_view field, std::string message) {
  return make_status(ErrorCode::invalid_state, std::string(field), std::move(message));
}

// A name outside an option's choices: "<field> must be 'a', 'b' or 'c' (got 'x')".
Status unknown_choice(std::string_view field, const std::vector<std::string_view>& choices, std::string_view got);
// The value among `values` that name_of calls `name`, into out; else unknown_choice listing
// name_of of every value. How each area reads an option's name (paper_a/layer.hpp,
// cem/common.hpp, …), its names coming from the area's own name function.
template <class T, class NameOf>
Status parse_choice(std::string_view name, std::string_view field, std::initializer_list<T> values, NameOf name_of,
                    T& out) {
  for (T v : values) {
    if (name == name_of(v)) {
      out = v;
      return {};
    }
  }
  std::vector<std::string_view> names;  // only for the refusal's message
  for (T v : values) names.emplace_back(name_of(v));
  return unknown_choice(field, names, name);
}
// The optional form of a status parser: what parse(value) reads into a T, or nullopt when it
// refuses (each area's parse_*(name) without a field, built on its parse_*(name, out)).
template <class T, class Parse>
std::optional<T> optional_from(Parse parse) {
  T value{};
  return parse(value).ok() ? std::optional<T>(value) : std::nullopt;
}

// Whole names and what another naming calls them (the JS API's: api_names).
using NameMap = std::vector<std::pair<std::string, std::string>>;

// The one table between the core's names and the JS API's where the rule below (snake_case →
// camelCase, per dotted part) does not give them: fields JS names differently, and option values
// JS spells differently. The bindings' Status getters and the option catalogue apply it.
const NameMap& api_names();

// s in another naming: a field listed in names takes its new name, any other becomes camelCase
// per dotted part ("data.length_scale" → "data.lengthScale"); the message gets the listed names
// renamed as whole words, then every snake_case word outside quotes in camelCase (the fields it
// names: "rank must be at most d_in" → "… dIn"). So a core message quotes the values it names
// ('gelu_tanh'), which keep their spelling unless listed.
Status renamed(const Status& s, const NameMap& names);
std::string camel_case(std::string_view snake);

// Tests compare a status with the message they expect ("" = ok) and print it when they differ.
inline bool operator==(const Status& s, std::string_view message) { return s.message == message; }
inline bool operator!=(const Status& s, std::string_view message) { return !(s == message); }
inline bool operator==(const Status& a, const Status& b) {
  return a.code == b.code && a.field == b.field && a.message == b.message;
}
inline bool operator!=(const Status& a, const Status& b) { return !(a == b); }
std::ostream& operator<<(std::ostream& os, const Status& s);

}  // namespace gatelab
