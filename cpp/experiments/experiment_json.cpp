// JsonWriter (experiment_json.hpp): compact JSON for the experiment results.
#include "experiment_json.hpp"

#include <cmath>
#include <cstdio>

namespace gatelab {

void JsonWriter::separate() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!first_.empty()) {
    if (!first_.back()) out_ += ',';
    first_.back() = false;
  }
}

JsonWriter& JsonWriter::begin_object() {
  separate();
  out_ += '{';
  first_.push_back(true);
  return *this;
}

JsonWriter& JsonWriter::end_object() {
  out_ += '}';
  first_.pop_back();
  return *this;
}

JsonWriter& JsonWriter::begin_array() {
  separate();
  out_ += '[';
  first_.push_back(true);
  return *this;
}

JsonWriter& JsonWriter::end_array() {
  out_ += ']';
  first_.pop_back();
  return *this;
}

JsonWriter& JsonWriter::key(std::string_view name) {
  separate();
  write_string(name);
  out_ += ':';
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::number(double v, int digits) {
  separate();
  if (!std::isfinite(v)) {
    out_ += "null";
    return *this;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  out_ += buf;
  return *this;
}

JsonWriter& JsonWriter::value(double v) { return number(v, 9); }

JsonWriter& JsonWriter::exact(double v) { return number(v, 17); }

JsonWriter& JsonWriter::exact(const std::vector<double>& v) {
  begin_array();
  for (double x : v) exact(x);
  return end_array();
}

JsonWriter& JsonWriter::value(int v) {
  separate();
  out_ += std::to_string(v);
  return *this;
}

JsonWriter& JsonWriter::value(std::size_t v) {
  separate();
  out_ += std::to_string(v);
  return *this;
}

JsonWriter& JsonWriter::value(bool v) {
  separate();
  out_ += v ? "true" : "false";
  return *this;
}

JsonWriter& JsonWriter::value(std::string_view v) {
  separate();
  write_string(v);
  return *this;
}

void JsonWriter::write_string(std::string_view v) {
  out_ += '"';
  for (char c : v) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out_ += '\\';
      out_ += c;
    } else if (u < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", u);
      out_ += buf;
    } else {
      out_ += c;
    }
  }
  out_ += '"';
}

JsonWriter& JsonWriter::value(const std::vector<double>& v) {
  begin_array();
  for (double x : v) value(x);
  return end_array();
}

JsonWriter& JsonWriter::value(const std::vector<int>& v) {
  begin_array();
  for (int x : v) value(x);
  return end_array();
}

}  // namespace gatelab
