// The language-model commands of the native runner (experiment_lm.hpp); EXP is mlp-lm, tiny-lm
// or lm-figure (the <gatelab-lm> figure's settings):
//   gatelab_experiment lm-variants --experiment EXP [--quick] [STUDY]
//       the settings and the variant table as JSON (what the planner reads)
//   gatelab_experiment lm-job --experiment EXP --text FILE --variant NAME --phase sweep|main|long
//                             --seed S --lr L [--quick] [STUDY] [--ntk-tokens N] [--out FILE]
//       one job: one self-contained command, the unit a cluster array runs; --ntk-tokens adds the
//       MLP blocks' NTK condition number at the start and at every curve point (docs/MATH.md §A24),
//       which changes no loss, so a main job re-run with it is the same run, measured
//   gatelab_experiment lm-time --experiment EXP --text FILE [--time-steps N] [--quick] [STUDY]
//       milliseconds per training step of every variant (what a run will cost), one thread
//   gatelab_experiment lm-jobs --experiment EXP --text FILE --jobs FILE [--quick] [STUDY] [--threads K]
//       every job listed in FILE (one "variant phase seed lr" per line) on K threads; a JSON
//       array of the job results in list order on stdout (a line "variant phase seed lr FILE"
//       writes that job's JSON to FILE, and reads it instead when FILE exists, so an interrupted
//       run resumes)
// STUDY changes the experiment (LmStudy, lm_parse_study): --d N --layers N --heads N --context N
// --batch N --steps N --seeds N --sweep-seeds K --eta X --variants a,b,c and --rates LIST or
// --rates NAME=LIST (repeatable). Every job's JSON records the settings and these flags.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "experiment_lm.hpp"
#include "runner_support.hpp"

namespace gatelab::runner {
namespace {

LmJob job_from(const Args& args) {
  LmJob job;
  job.variant = args.text("variant", "");
  job.phase = args.text("phase", "main");
  job.seed = args.integer("seed", 1);
  job.learning_rate = static_cast<float>(args.number("lr", 0));
  job.ntk_tokens = args.integer("ntk-tokens", 0);
  if (job.ntk_tokens < 0) fail("--ntk-tokens must be 0 (off) or positive");
  if (job.variant.empty()) fail("lm-job needs --variant NAME");
  if (!(job.learning_rate > 0)) fail("lm-job needs --lr > 0");
  return job;
}

// A job of the list and, optionally, the file its JSON goes to (a job whose file exists is read,
// not run again: an interrupted run resumes where it stopped).
struct ListedJob {
  LmJob job;
  std::string file;
};

std::vector<ListedJob> read_jobs(const std::string& path) {
  std::vector<ListedJob> jobs;
  std::istringstream lines(read_file(path));
  int number = 0;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    ListedJob listed;
    LmJob& job = listed.job;
    if (!(fields >> job.variant >> job.phase >> job.seed >> job.learning_rate)) {
      fail(path + ":" + std::to_string(number) + ": expected 'variant phase seed lr [file]'");
    }
    fields >> listed.file;
    jobs.push_back(listed);
  }
  return jobs;
}

// The flags each command takes besides the study's; anything else is refused.
void check_flags(const Args& args) {
  const std::vector<std::string> common = {"experiment", "quick", "out", "threads"};
  std::vector<std::string> own;
  if (args.command == "lm-job") own = {"text", "variant", "phase", "seed", "lr", "ntk-tokens"};
  if (args.command == "lm-jobs") own = {"text", "jobs"};
  if (args.command == "lm-time") own = {"text", "time-steps"};
  for (const auto& [name, value] : args.given) {
    const bool known = lm_is_study_flag(name) || std::find(common.begin(), common.end(), name) != common.end() ||
                       std::find(own.begin(), own.end(), name) != own.end();
    if (!known) fail("unknown option --" + name + " for " + args.command);
  }
}

}  // namespace

int lm_command(const Args& args, int threads) {
  if (args.command != "lm-variants" && args.command != "lm-job" && args.command != "lm-jobs" &&
      args.command != "lm-time") {
    fail("unknown command '" + args.command + "' (lm-variants, lm-job, lm-jobs, lm-time)");
  }
  check_flags(args);
  LmStudy study;
  if (std::string e = lm_parse_study(args.given, study); !e.empty()) fail(e);
  LmExperimentSettings settings;
  std::vector<LmVariant> variants;
  if (std::string e = lm_experiment(args.text("experiment", ""), args.has("quick"), study, settings, variants);
      !e.empty()) {
    fail(e);
  }
  if (args.command == "lm-variants") {
    write_output(args, lm_variants_json(settings, variants));
    return 0;
  }
  if (!args.has("text")) fail(args.command + " needs --text FILE");
  const std::string text = read_file(args.text("text", ""));
  if (args.command == "lm-job") {
    make_parent_directories(args.text("out", ""));
    std::string json;
    if (std::string e = lm_run_job(settings, variants, job_from(args), text, &json); !e.empty()) fail(e);
    write_output(args, json);
    return 0;
  }
  if (args.command == "lm-time") {
    auto corpus = std::make_shared<CharCorpus>();
    if (Status e = make_char_corpus(text, settings.dev_fraction, settings.validation_fraction, *corpus); !e.ok()) {
      fail(e.message);
    }
    const int steps = args.integer("time-steps", 100);
    if (steps < 1) fail("--time-steps must be at least 1");
    double total = 0, timed = 0;
    for (const LmVariant& v : variants) {
      if (!v.listed) continue;
      LmSession session(lm_job_config(settings, v, 1, v.learning_rates[0], settings.steps), corpus);
      if (!session.error().ok()) fail(v.name + ": " + session.error().message);
      if (Status e = session.train(5); !e.ok()) fail(v.name + ": " + e.message);  // warm caches and allocations
      const auto started = std::chrono::steady_clock::now();
      if (Status e = session.train(steps); !e.ok()) fail(v.name + ": " + e.message);
      const double ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count() / steps;
      total += ms;
      ++timed;
      say(fmt("%8.2f ms/step  ", ms) + v.name + fmt("  (%.0f parameters)", double(session.parameter_count())));
    }
    say(fmt("%8.2f ms/step on average over %.0f variants", total / timed, timed));
    return 0;
  }
  const std::vector<ListedJob> jobs = read_jobs(args.text("jobs", ""));
  std::vector<std::string> results(jobs.size());
  std::atomic<int> finished{0};
  run_jobs(static_cast<int>(jobs.size()), threads, [&](int i) {
    const LmJob& job = jobs[i].job;
    const std::string& file = jobs[i].file;
    const bool kept = !file.empty() && file_exists(file);
    if (kept) {
      results[i] = read_file(file);
      while (!results[i].empty() && results[i].back() == '\n') results[i].pop_back();
    } else if (std::string e = lm_run_job(settings, variants, job, text, &results[i]); !e.empty()) {
      fail(job.variant + " " + job.phase + " seed " + std::to_string(job.seed) + ": " + e);
    } else if (!file.empty()) {
      write_file_atomically(file, results[i] + "\n");
    }
    say(fmt("[%.0f/%.0f] ", ++finished, double(jobs.size())) + job.variant + " " + job.phase +
        fmt(" seed %.0f lr %g", job.seed, job.learning_rate) + (kept ? " (kept from an earlier run)" : ""));
  });
  std::string out = "[";
  for (std::size_t i = 0; i < results.size(); ++i) out += (i ? ",\n" : "\n") + results[i];
  out += "\n]";
  write_output(args, out);
  return 0;
}

}  // namespace gatelab::runner
