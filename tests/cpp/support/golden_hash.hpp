// FNV-1a over the bit patterns of floats and doubles, for the golden hashes that the native
// and the wasm build of a test both check ("same bits everywhere"). Each value is mixed in
// as one whole word (32 bits for a float, 64 for a double), not byte by byte: the golden
// constants were taken that way, so changing the mixing would change every one of them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace golden {

struct Fnv1a {
  std::uint64_t hash = 1469598103934665603ULL;

  void add(float value) {
    std::uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    mix(bits);
  }
  void add(double value) {
    std::uint64_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    mix(bits);
  }
  template <class T>
  void add(const T* data, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) add(data[i]);
  }
  // Any contiguous container of floats or doubles: std::vector, xt::xtensor, …
  template <class Container>
  void add(const Container& values) {
    add(values.data(), values.size());
  }

 private:
  void mix(std::uint64_t word) { hash = (hash ^ word) * 1099511628211ULL; }
};

template <class Container>
std::uint64_t fnv1a(const Container& values) {
  Fnv1a fnv;
  fnv.add(values);
  return fnv.hash;
}

}  // namespace golden
