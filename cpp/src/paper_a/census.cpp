// The census measurement (see census.hpp). J has one row per (input, output) pair, computed
// as the parameter gradient of that single output by the layer's backward; JᵀJ accumulates
// in double, and its Jacobi spectrum gives rank(J). Null eigenvalues of JᵀJ come out near
// 1e-15 of λmax (measured; the exact symmetries cancel in J·direction almost to the last
// bit), genuine ones above 1e-9 even for relu2, so a 1e-12 threshold sits in a gap of
// several decades; the reported gap shows how clear the split was.
#include "gatelab/paper_a/census.hpp"

#include <cmath>
#include <vector>

#include "gatelab/base/eigen.hpp"
#include "gatelab/base/list.hpp"
#include "gatelab/base/rng.hpp"
#include "gatelab/paper_a/labels.hpp"
#include "gatelab/paper_a/symmetry.hpp"

namespace gatelab {
namespace {

void flatten(const LayerParams& g, std::vector<double>& out) {
  std::size_t i = 0;
  for (float v : g.q) out[i++] = v;
  for (float v : g.k) out[i++] = v;
  for (float v : g.v) out[i++] = v;
}

// JᵀJ (P, P) over rows x (inputs, d_in).
std::vector<double> jacobian_gram(const Layer& layer, const std::vector<float>& x, int inputs) {
  const LayerConfig& c = layer.config();
  const std::size_t p = layer.parameter_count();
  std::vector<double> gram(p * p, 0.0), row(p);
  std::vector<float> grad_out(c.d_out, 0.0f);
  Layer probe(layer);  // its grads() take each row's gradient
  for (int i = 0; i < inputs; ++i) {
    for (int o = 0; o < c.d_out; ++o) {
      grad_out.assign(c.d_out, 0.0f);
      grad_out[o] = 1.0f;
      probe.backward_unchecked(x.data() + static_cast<std::size_t>(i) * c.d_in, 1, grad_out.data(), nullptr);
      flatten(probe.grads(), row);
      for (std::size_t a = 0; a < p; ++a) {
        if (row[a] == 0.0) continue;
        for (std::size_t b = 0; b < p; ++b) gram[a * p + b] += row[a] * row[b];
      }
    }
  }
  return gram;
}

double log10_of(double v) { return portable_log(v) / portable_log(10.0); }

}  // namespace

Status validate(const CensusOptions& o) {
  if (!std::isfinite(o.beta) || std::fabs(o.beta) > max_swish_beta)
    return out_of_range("beta",
                        "beta must be finite with |beta| <= " + std::to_string(static_cast<int>(max_swish_beta)));
  if (o.activations.size() > static_cast<std::size_t>(activation_count) || o.ranks.size() > 64)
    return invalid_value("", "too many entries");
  if (o.kinds.empty()) return out_of_range("kinds", "kinds must list at least one kind");
  if (o.ranks.empty()) return out_of_range("ranks", "ranks must list at least one rank");
  if (!(o.threshold > 0 && o.threshold < 1)) return out_of_range("threshold", "threshold must be a number in (0, 1)");
  if (o.inputs < 0 || o.inputs > max_census_inputs) {
    return out_of_range("inputs",
                        "inputs must be an integer from 0 (automatic) to " + std::to_string(max_census_inputs));
  }
  const std::size_t acts = o.activations.empty() ? activation_count : o.activations.size();
  if (o.kinds.size() * acts * o.ranks.size() > static_cast<std::size_t>(max_census_rows)) {
    return invalid_value("", "the census would have more than " + std::to_string(max_census_rows) + " rows");
  }
  for (LayerKind kind : o.kinds) {
    for (int rank : o.ranks) {
      LayerConfig c{kind, {Activation::relu, o.beta}, o.d_in, o.hidden, o.d_out, rank, o.seed};
      if (Status e = validate(c); !e.ok()) return e;
      const std::size_t count = static_cast<std::size_t>(o.hidden) *
                                ((kind == LayerKind::mlp ? 1 : 2 * rank) * static_cast<std::size_t>(o.d_in) + o.d_out);
      if (count > max_census_parameters) {
        return out_of_range("", "a " + std::string(layer_kind_name(kind)) + " layer of rank " + std::to_string(rank) +
                                    " has " + std::to_string(count) + " parameters; the census cap is " +
                                    std::to_string(max_census_parameters) + " (make the layer smaller)");
      }
    }
  }
  return {};
}

Status parse_census_lists(std::string_view kinds, std::string_view activations, std::string_view ranks,
                          CensusOptions& o) {
  o.ranks.clear();
  // An empty list keeps out's kinds (by default paper A's three; bigated, §A23, only when named).
  if (!split_list(kinds).empty()) o.kinds.clear();
  for (const std::string& k : split_list(kinds)) {
    const auto kind = parse_layer_kind(k);
    if (!kind) {
      std::string names;  // from the one table of kinds (labels.hpp)
      for (int i = 0; i < layer_kind_count; ++i) {
        const char* separator = i == 0 ? "" : i + 1 < layer_kind_count ? ", " : " or ";
        names += separator + std::string("'") + layer_kind_name(layer_kind_by_index(i)) + "'";
      }
      return invalid_value("kinds", "kinds: '" + k + "' is not " + names);
    }
    o.kinds.push_back(*kind);
  }
  for (const std::string& a : split_list(activations)) {
    const auto act = parse_activation(a);
    if (!act) return invalid_value("activations", "activations: '" + a + "' is not a catalogue name");
    o.activations.push_back(*act);
  }
  return parse_int_list(ranks, "ranks", o.ranks);
}

int census_inputs(std::size_t parameters, int d_out) {
  const std::size_t n = (8 * parameters + d_out - 1) / d_out + 16;
  return static_cast<int>(n < 4096 ? n : 4096);
}

CensusRow census_row(const LayerConfig& config, int inputs, double threshold) {
  const Layer layer(config);
  CensusRow row;
  row.config = config;
  row.parameters = layer.parameter_count();
  const int p = static_cast<int>(row.parameters);
  row.inputs = inputs > 0 ? inputs : census_inputs(row.parameters, config.d_out);
  Pcg32 rng(config.seed ^ 0xce05u, 77);
  std::vector<float> x(static_cast<std::size_t>(row.inputs) * config.d_in);
  for (float& v : x) v = rng.normal();

  const std::vector<double> gram = jacobian_gram(layer, x, row.inputs);
  const SymmetricEigen eig = symmetric_eigen(gram.data(), p, EigenOrder::descending);
  const double top = eig.values[0] > 0 ? eig.values[0] : 1.0;
  row.spectrum.resize(p);
  row.kept_min = 1.0;
  for (int i = 0; i < p; ++i) {
    const double rel = eig.values[i] / top;
    row.spectrum[i] = rel;
    if (rel > threshold) {
      ++row.jacobian_rank;
      row.kept_min = rel;
    } else if (row.dropped_max == 0.0) {
      row.dropped_max = rel > 0 ? rel : 1e-300;
    }
  }
  row.measured = p - row.jacobian_rank;
  row.gap_decades = row.dropped_max > 0 ? log10_of(row.kept_min / row.dropped_max) : INFINITY;
  row.predicted = predicted_symmetries(config);

  row.exchange_applicable = config.kind != LayerKind::mlp;
  if (row.exchange_applicable) {
    row.exchange_predicted =
        config.kind == LayerKind::symmetric || config.kind == LayerKind::bigated || is_linear(config.activation.kind);
    row.exchange_gap = exchange_gap(layer, x.data(), row.inputs);
    row.exchange_measured = row.exchange_gap < 1e-5;
  }
  return row;
}

std::vector<CensusRow> run_census(const CensusOptions& o) {
  std::vector<Activation> acts = o.activations;
  if (acts.empty()) {
    for (int i = 0; i < activation_count; ++i) acts.push_back(activation_by_index(i));
  }
  std::vector<CensusRow> rows;
  for (LayerKind kind : o.kinds) {
    for (Activation a : acts) {
      for (int rank : o.ranks) {
        rows.push_back(census_row({kind, {a, o.beta}, o.d_in, o.hidden, o.d_out, rank, o.seed}, o.inputs, o.threshold));
        if (kind == LayerKind::mlp) break;  // the rank does not apply
      }
    }
  }
  return rows;
}

}  // namespace gatelab
