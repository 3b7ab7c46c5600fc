// Drawing chosen parameters of a model from the library's generator: figures that show a layer
// away from its initialisation (a CEM attention's diagonal, its preconditioner's factors U and
// V, which start at 0 or at P = I and would show nothing) ask for scale·N(0, 1) values here
// instead of drawing them with a generator of their own, so a seed gives the same picture
// natively, in node and in every browser.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "gatelab/base/param_view.hpp"
#include "gatelab/base/rng.hpp"
#include "gatelab/base/status.hpp"

namespace gatelab {

// The stream of draw_normal: apart from every initialisation (Pcg32(seed) uses stream 54), so
// drawn values never repeat a layer's own weights of the same seed.
inline constexpr std::uint64_t draw_normal_stream = 0xd4a3;
inline constexpr double max_draw_scale = 1000.0;

// Overwrites the named views with scale·N(0, 1) values from one Pcg32(seed, draw_normal_stream)
// stream, view after view in the order named, each in its rows × cols layout. ok; or, with
// nothing changed, out_of_range naming "scale" unless 0 ≤ scale ≤ max_draw_scale, invalid_value
// naming "names" for a name that is not one of the views.
template <class S>
Status draw_normal(const std::vector<ParamView<S>>& views, const std::vector<std::string>& names, std::uint64_t seed,
                   double scale) {
  if (!(scale >= 0.0 && scale <= max_draw_scale)) return out_of_range("scale", "scale must be in [0, 1000]");
  std::vector<const ParamView<S>*> chosen;
  for (const std::string& name : names) {
    const ParamView<S>* v = find_parameter(views, name);
    if (v == nullptr) return invalid_value("names", "no parameter named '" + name + "'");
    chosen.push_back(v);
  }
  Pcg32 rng(seed, draw_normal_stream);
  for (const ParamView<S>* v : chosen) {
    for (std::size_t e = 0; e < v->size; ++e)
      v->value[stored_index(*v, e)] = static_cast<S>(scale * rng.normal_double());
  }
  return {};
}

// draw_normal on a model (anything with parameters() and error(), e.g. a CEM layer) with the
// seed as a JS number arrives: the model's error while it is invalid, out_of_range naming "seed"
// unless validate_seed accepts it, else draw_normal's answer.
template <class M>
Status draw_params(M& model, const std::vector<std::string>& names, double seed, double scale) {
  if (!model.error().ok()) return model.error();
  if (Status e = validate_seed(seed); !e.ok()) return e;
  return draw_normal(model.parameters(), names, static_cast<std::uint64_t>(seed), scale);
}

}  // namespace gatelab
