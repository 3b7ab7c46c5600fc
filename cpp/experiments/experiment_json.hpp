// A tiny JSON writer for the experiment results (no dependency; numbers with 9 significant
// digits, or with 17 through exact() where a reader compares them bit for bit; non-finite
// numbers as null). Commas are handled by the writer: call key() then a
// value inside objects, values alone inside arrays.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace gatelab {

class JsonWriter {
 public:
  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  JsonWriter& key(std::string_view name);
  JsonWriter& value(double v);
  JsonWriter& value(int v);
  JsonWriter& value(std::size_t v);
  JsonWriter& value(bool v);
  JsonWriter& value(std::string_view v);
  JsonWriter& value(const char* v) { return value(std::string_view(v)); }
  JsonWriter& value(const std::vector<double>& v);
  JsonWriter& value(const std::vector<int>& v);
  // Doubles with 17 significant digits: they read back as the same bits.
  JsonWriter& exact(double v);
  JsonWriter& exact(const std::vector<double>& v);
  // key(name).value(v) in one call.
  template <class T>
  JsonWriter& field(std::string_view name, const T& v) {
    key(name);
    return value(v);
  }
  const std::string& str() const { return out_; }

 private:
  void separate();
  JsonWriter& number(double v, int digits);
  void write_string(std::string_view v);
  std::string out_;
  std::vector<bool> first_;  // per open container: nothing written yet
  bool after_key_ = false;
};

}  // namespace gatelab
