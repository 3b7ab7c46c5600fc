// The gp-descent command of the native runner (experiment_gp_descent.hpp):
//   gatelab_experiment gp-descent --suite grid|diagonal [--quick] [--seeds N] [--steps N]
//                                 [--threads K] [--jobs-dir DIR] [--out FILE] [--cheap-first 1]
// runs every job of the suite on K threads and writes {"header": settings and baselines,
// "jobs": [one object per job, in the suite's order]}. With --jobs-dir each job's JSON is also
// kept in DIR/<name>-s<seed>.json, and a job whose file is there is read instead of run, so an
// interrupted run resumes. Deep recursion costs most, so the deepest jobs start first.
#include <algorithm>
#include <atomic>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include "experiment_gp_descent.hpp"
#include "runner_support.hpp"

namespace gatelab::runner {

int gp_descent_command(const Args& args, int threads) {
  const std::string suite = args.text("suite", "");
  const bool quick = args.has("quick");
  GpDescentSettings settings = gp_descent_settings(quick);
  if (args.has("steps")) settings.base.train_steps = args.integer("steps", settings.base.train_steps);
  if (settings.base.train_steps < 1) fail("--steps must be at least 1");
  std::string error;
  const int seeds = args.integer("seeds", quick ? 2 : 4);
  const std::vector<GpDescentJob> jobs = gp_descent_jobs(suite, quick, seeds, &error);
  if (!error.empty()) fail(error);
  const std::string dir = args.text("jobs-dir", "");
  std::vector<int> order(jobs.size());
  std::iota(order.begin(), order.end(), 0);
  auto cost = [&](int i) { return jobs[i].spec.steps + std::max(jobs[i].spec.mlp_steps, jobs[i].spec.steps); };
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return cost(a) > cost(b); });
  // A second runner on the same --jobs-dir with --cheap-first works from the other end, so two
  // machines (or processes) share one run; files are written atomically and identical.
  if (args.has("cheap-first")) std::reverse(order.begin(), order.end());
  std::vector<std::string> results(jobs.size());
  std::atomic<int> finished{0};
  run_jobs(static_cast<int>(jobs.size()), threads, [&](int k) {
    const int i = order[k];
    const GpDescentJob& job = jobs[i];
    const std::string file = dir.empty() ? "" : dir + "/" + job.name + "-s" + std::to_string(job.seed) + ".json";
    const bool kept = !file.empty() && file_exists(file);
    if (kept) {
      results[i] = read_file(file);
    } else {
      results[i] = gp_descent_run(settings, job);
      if (!file.empty()) write_file_atomically(file, results[i] + "\n");
    }
    while (!results[i].empty() && results[i].back() == '\n') results[i].pop_back();
    say(fmt("[%.0f/%.0f] ", ++finished, double(jobs.size())) + job.name + fmt(" seed %.0f", job.seed) +
        (kept ? " (kept from an earlier run)" : ""));
  });
  std::set<int> dxs;
  for (const auto& j : jobs) dxs.insert(j.dx);
  std::string out =
      "{\"header\": " + gp_descent_header_json(suite, settings, {dxs.begin(), dxs.end()}) + ",\n\"jobs\": [";
  for (std::size_t i = 0; i < results.size(); ++i) out += (i ? ",\n" : "\n") + results[i];
  out += "\n]}";
  write_output(args, out);
  return 0;
}

}  // namespace gatelab::runner
