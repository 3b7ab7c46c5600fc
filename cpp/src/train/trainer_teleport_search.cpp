// Looking along the inverse-scaling orbit without moving (docs/MATH.md §A21, "Probing and the
// best factor on a grid"): Trainer::probe_orbit measures the layer at T(c)θ on a copy, and
// Trainer::best_factors picks each unit's factor from a bounded log grid. The gradient goal is
// separable (‖∇L(Tθ)‖² = Σ_j ‖g_qj‖²/c_j² + c_j²‖g_kj‖² + rest), so each unit takes its own
// minimiser on the grid from the gradient at θ alone; the step goal is not, and is searched one
// unit at a time, keeping a factor only when it strictly lowers the next step's loss.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "gatelab/paper_a/orbit.hpp"
#include "gatelab/train/trainer.hpp"

namespace gatelab {
namespace {

std::vector<float> grid_of(const TeleportSearch& s) {
  std::vector<float> c(static_cast<std::size_t>(s.points));
  const double half = (s.points - 1) / 2.0;
  for (int i = 0; i < s.points; ++i) {
    c[i] = i == (s.points - 1) / 2 ? 1.0f : static_cast<float>(std::pow(double(s.reach), (i - half) / half));
  }
  return c;
}

double squared(const float* v, std::size_t n) {
  double sum = 0.0;
  for (std::size_t i = 0; i < n; ++i) sum += double(v[i]) * double(v[i]);
  return sum;
}

// The parameters a unit's factor multiplies (up) and divides (down), as paper_a/orbit.cpp moves them.
struct UnitSlices {
  const float* up;
  const float* down;
  std::size_t up_size, down_size;
};

UnitSlices slices(const LayerParams& p, const LayerConfig& c, int j) {
  const std::size_t m = static_cast<std::size_t>(c.hidden);
  if (c.kind == LayerKind::mlp) {
    const std::size_t k = p.k.size() / m, v = p.v.size() / m;
    return {p.k.data() + j * k, p.v.data() + j * v, k, v};
  }
  const std::size_t q = p.q.size() / m, k = p.k.size() / m;
  return {p.q.data() + j * q, p.k.data() + j * k, q, k};
}

}  // namespace

Status validate(const TeleportSearch& s) {
  if (s.points < 3 || s.points > max_teleport_grid_points || s.points % 2 == 0) {
    return out_of_range("points", "points must be odd, 3 … " + std::to_string(max_teleport_grid_points) +
                                      " (c = 1 is the middle point), got " + std::to_string(s.points));
  }
  if (!(s.reach > 1.0f && s.reach <= max_teleport_reach)) {
    return out_of_range("reach", "reach must be > 1 and ≤ " + std::to_string(int(max_teleport_reach)) + ", got " +
                                     std::to_string(s.reach));
  }
  return {};
}

const char* teleport_goal_name(TeleportGoal goal) { return goal == TeleportGoal::gradient ? "gradient" : "step"; }

Status parse_teleport_goal(const std::string& name, TeleportGoal& goal) {
  for (TeleportGoal g : {TeleportGoal::gradient, TeleportGoal::step}) {
    if (name == teleport_goal_name(g)) {
      goal = g;
      return {};
    }
  }
  return invalid_value("goal", "goal must be 'gradient' or 'step', got '" + name + "'");
}

Status Trainer::probe_orbit(const float* factors, OrbitProbe& probe) const {
  Layer moved = layer_;
  if (Status e = gatelab::teleport(moved.params(), moved.config(), factors); !e.ok()) return e;
  OrbitProbe r;
  LayerParams g;
  full_training_gradient(moved, r.loss, r.grad_norm, &g);
  if (!std::isfinite(r.grad_norm)) {
    r.next_loss = NAN;
  } else {  // one plain gradient step, θ − η g, in float as the 'sgd' optimizer takes it
    const float eta = options_.optimizer.learning_rate;
    LayerParams& p = moved.params();
    p.q -= eta * g.q;
    p.k -= eta * g.k;
    p.v -= eta * g.v;
    r.next_loss = training_loss(moved);
  }
  probe = r;
  return {};
}

Status Trainer::best_factors(const TeleportSearch& search, float* factors) const {
  if (Status e = teleport_problem(layer_.config()); !e.ok()) return e;
  if (Status e = validate(search); !e.ok()) return e;
  const LayerConfig& config = layer_.config();
  const std::vector<float> grid = grid_of(search);
  std::vector<float> best(static_cast<std::size_t>(config.hidden), 1.0f);
  if (search.goal == TeleportGoal::gradient) {
    double loss = 0, norm = 0;
    LayerParams g;
    full_training_gradient(layer_, loss, norm, &g);
    if (std::isfinite(norm)) {
      for (int j = 0; j < config.hidden; ++j) {
        const UnitSlices s = slices(g, config, j);
        const double up = squared(s.up, s.up_size), down = squared(s.down, s.down_size);
        double lowest = up + down;  // c = 1
        for (float c : grid) {
          const double cc = double(c) * double(c), value = up / cc + cc * down;
          if (value < lowest) lowest = value, best[j] = c;
        }
      }
    }
  } else {
    OrbitProbe p;
    (void)probe_orbit(best.data(), p);  // all ones: accepted whenever teleport_problem is ok
    double lowest = std::isfinite(p.next_loss) ? p.next_loss : std::numeric_limits<double>::infinity();
    std::vector<float> trial = best;
    for (int j = 0; j < config.hidden; ++j) {
      for (float c : grid) {
        trial[j] = c;
        // A factor whose move overflows is refused by the probe and simply not taken.
        if (probe_orbit(trial.data(), p).ok() && p.next_loss < lowest) lowest = p.next_loss, best[j] = c;
      }
      trial[j] = best[j];
    }
  }
  std::copy(best.begin(), best.end(), factors);
  return {};
}

Status Trainer::best_factors(const std::string& goal, int points, float reach, float* factors) const {
  TeleportSearch search;
  search.points = points;
  search.reach = reach;
  if (Status e = parse_teleport_goal(goal, search.goal); !e.ok()) return e;
  return best_factors(search, factors);
}

}  // namespace gatelab
