// In-context regression data from a Gaussian process (docs/MATH.md §B7, GateLab's scaled-down
// version of the paper's synthetic experiment). A sequence is n pairs (x_t, y_t), x_t ∈ R^dx
// drawn uniformly on [−1, 1]^dx (or standard normal), y = f(x) + ε with f ~ GP(0, k),
//   k(a, b) = s² exp(−‖a − b‖² / (2ℓ²)),   ε ~ N(0, σ²),
// sampled jointly through a Cholesky factor of K + σ²I in double with gatelab::Pcg32, so a
// seed names a sequence on every platform. The model must predict y_t from the causal
// context; the exact GP posterior of y_t given the pairs before t is the best any model can
// do (mean and predictive variance, computed by extending a Cholesky factor one row per
// position), and the running mean of the earlier y's is the simplest baseline.
//
// Token design ("shifted pair"): token t = [x_t, x_{t−1}, y_{t−1}, has_pair, 1] (width
// 2·dx + 3; x_{−1} = 0, y_{−1} = 0, has_pair = 0 at t = 0). Token t carries the query x_t and
// the complete previous pair, so a causal model at position t sees every pair j < t and
// never y_t: y_t first appears in token t + 1. The tests check this by perturbing y_t.
// Errors come back as a Status (ok = fine); nothing throws.
#pragma once

#include "gatelab/base/status.hpp"
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gatelab/base/rng.hpp"

namespace gatelab {

inline constexpr int gp_max_dx = 16;
inline constexpr int gp_max_length = 512;
inline constexpr int gp_max_sample_count = 4096;  // sequences drawn in one call
inline constexpr int gp_max_queries = 4096;       // query points of one posterior or prediction
// The closed ranges of the kernel's scales (ℓ and s², then σ > 0, which keeps K + σ²I well conditioned).
inline constexpr double gp_min_scale = 1e-3, gp_max_scale = 1e3;
inline constexpr double gp_min_noise_std = 1e-3, gp_max_noise_std = 10.0;

enum class GpInputs { uniform, normal };
const char* gp_inputs_name(GpInputs v);
std::optional<GpInputs> parse_gp_inputs(std::string_view name);
Status parse_gp_inputs(std::string_view name, GpInputs& out);  // the same as a status naming "inputs"

struct GpDataConfig {
  int dx = 1;                 // input dimension
  int length = 32;            // pairs per sequence n
  double length_scale = 0.4;  // ℓ
  double signal_var = 1.0;    // s²
  double noise_std = 0.1;     // σ
  GpInputs inputs = GpInputs::uniform;
};
// ok when valid, else a status naming the field.
Status validate(const GpDataConfig& config);

// The arguments of the calls that draw sequences or take queries: ok or a status naming
// the one out of range (1 ≤ count ≤ gp_max_sample_count; xq not null and 1 ≤ m ≤
// gp_max_queries; 0 ≤ context ≤ config.length).
Status gp_validate_count(int count);
Status gp_validate_queries(const void* xq, int m);
Status gp_validate_context(const GpDataConfig& config, int context);

// k(a, b) for a, b ∈ R^dx (libm-free exp, same bits natively and in wasm).
double gp_kernel(const GpDataConfig& config, const double* a, const double* b);

struct GpSequence {
  std::vector<double> x;  // (n, dx) row-major
  std::vector<double> y;  // (n)
};

// One sequence from the stream rng (inputs first, then the joint normal draw).
GpSequence gp_sample(const GpDataConfig& config, Pcg32& rng);
// count sequences from Pcg32(seed, stream): the held-out sets of the experiments.
std::vector<GpSequence> gp_sample_set(const GpDataConfig& config, int count, std::uint64_t seed,
                                      std::uint64_t stream = 77u);

// The posterior predictive of y_t given (x_j, y_j), j < t, for every t: mean (n) and
// variance (n, including the noise σ²). Position 0 gets the prior (0, s² + σ²).
struct GpPosterior {
  std::vector<double> mean;
  std::vector<double> var;
};
GpPosterior gp_posterior(const GpDataConfig& config, const GpSequence& seq);

// The posterior predictive at arbitrary queries xq (m, dx) given the first `context` pairs.
GpPosterior gp_posterior_at(const GpDataConfig& config, const GpSequence& seq, int context, const double* xq, int m);

// Running mean of y_0 … y_{t−1} (0 at t = 0).
std::vector<double> gp_context_mean(const GpSequence& seq);

// Token width 2·dx + 3 and the tokens of a sequence (n, width), float, as described above.
int gp_token_width(const GpDataConfig& config);
void gp_tokens(const GpDataConfig& config, const GpSequence& seq, float* out);

// Squared errors summed per position over a set, for RMSE by context length.
struct GpErrors {
  std::vector<double> sum_sq;  // (n) Σ over sequences of (prediction − y_t)²
  int sequences = 0;
  void add(const double* prediction, const std::vector<double>& y);
  std::vector<double> rmse_by_position() const;
  double rmse() const;
};

// The leak guard: a model's squared errors against the GP posterior mean's on the same
// sequences, paired per sequence. The posterior mean is Bayes-optimal for this data, so a
// model may beat it only by sampling noise; z = mean difference / its standard error.
struct GpLeakCheck {
  double model_mse = 0, posterior_mse = 0, diff_mean = 0, diff_se = 0, z = 0;
  bool suspicious(double z_limit = 4.0) const { return z < -z_limit; }
};
// model_pred and posterior_mean: per sequence, n values each.
GpLeakCheck gp_leak_check(const std::vector<std::vector<double>>& model_pred,
                          const std::vector<std::vector<double>>& posterior_mean, const std::vector<GpSequence>& seqs);

}  // namespace gatelab
