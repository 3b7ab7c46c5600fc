// What the binding files share. The bindings (and bench/module) are the only C++ that includes
// Emscripten headers: registrations (the Embind names web/lib/ wraps into the public API) and
// conversions between JS values and core types, nothing that computes. Conventions:
//  - arrays cross as heap pointers (Ptr) to float32 buffers that web/lib/core/heap.js copies;
//  - a problem comes back as the core's Status (exceptions are off in this build), alone or as
//    the `error` of an object, which JS sees as {code, field, message} in its own names
//    (api_names) and web/lib/core/errors.js throws; JS checks types first, these calls check
//    again what C++ relies on;
//  - an options object (val) is read by a to_config(options, config) that returns its Status;
//  - every module-level name starts with `_` (`_createLayer`): the raw module is web/lib's
//    private core, and the public API (lab.createLayer) owns the plain names.
#pragma once

#include <emscripten/bind.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "gatelab/base/rng.hpp"
#include "gatelab/base/status.hpp"

namespace gatelab::bind {

using emscripten::val;
using Ptr = std::uintptr_t;
inline float* f32(Ptr p) { return reinterpret_cast<float*>(p); }

// Registers named numbers on the module (caps and counts: JS sees each as a number).
inline void constants(std::initializer_list<std::pair<const char*, double>> list) {
  for (const auto& [name, value] : list) emscripten::constant(name, value);
}

// A field of a JS object as T.
template <class T>
T get(const val& o, const char* name) {
  return o[name].template as<T>();
}

// Reads each ("name", member) pair: the field `name` of o into member, as the member's type. By
// name, not by position, so a config's field order is free to change.
inline void read_fields(const val&) {}
template <class T, class... Rest>
void read_fields(const val& o, const char* name, T& member, Rest&&... rest) {
  member = o[name].template as<T>();
  read_fields(o, std::forward<Rest>(rest)...);
}

// A JS object from ("name", value) pairs, its fields in that order.
inline void set_fields(val&) {}
template <class V, class... Rest>
void set_fields(val& o, const char* name, const V& value, const Rest&... rest) {
  o.set(name, value);
  set_fields(o, rest...);
}
template <class... Pairs>
val object_of(const Pairs&... pairs) {
  val o = val::object();
  set_fields(o, pairs...);
  return o;
}
// {error, value}: a number, or why there is none; number_from(call) asks call(&value) for it.
inline val number_result(const Status& error, double value) { return object_of("error", error, "value", value); }
template <class Call>
val number_from(Call call) {
  double value = 0;
  const Status error = call(&value);
  return number_result(error, value);
}

// The seed field of an options object into seed (0 when it is not one), or why not.
inline Status seed_of(const val& o, std::uint64_t& seed) {
  const double value = get<double>(o, "seed");
  Status error = validate_seed(value);
  seed = error.ok() ? static_cast<std::uint64_t>(value) : 0;
  return error;
}

// The validate and create functions of an options object, through its to_config; create's
// precondition (checked by web/lib/ through validate first) is that the options are valid.
template <class Config, Status (*to_config)(const val&, Config&)>
Status validate_options(const val& o) {
  Config c;
  return to_config(o, c);
}
template <class Object, class Config, Status (*to_config)(const val&, Config&)>
Object* create(const val& o) {
  Config c;
  (void)to_config(o, c);  // valid: web/lib called validate first
  return new Object(c);
}

// error, after running call() when error is ok: a check and the call it guards, in one.
template <class Call>
Status run_if_ok(Status error, Call call) {
  if (error.ok()) call();
  return error;
}

// Copies any range of numbers (float or double) into the float32 buffer at out.
template <class Range>
void copy_out(const Range& values, Ptr out) {
  std::transform(std::begin(values), std::end(values), f32(out), [](auto v) { return static_cast<float>(v); });
}

// A copy of n doubles as a Float64Array (results computed in double that JS keeps in double).
inline val float64_array(const double* values, std::size_t n) {
  return val::global("Float64Array").new_(emscripten::typed_memory_view(n, values)).call<val>("slice");
}
inline val float64_array(const std::vector<double>& v) { return float64_array(v.data(), v.size()); }

// A transient result (a race, a census) that JS reads out and deletes at once: the error of
// its options, or the rows compute() made.
template <class Row>
struct Run {
  Status error;
  std::vector<Row> rows;
  template <class Compute>
  Run(Status options_error, Compute compute) : error(std::move(options_error)) {
    if (error.ok()) rows = compute();
  }
  int size() const { return static_cast<int>(rows.size()); }
};

}  // namespace gatelab::bind
