// Shared by the commands of the native experiment runner (gatelab_experiment): progress
// lines, fatal errors, the --key value arguments, a thread pool over independent jobs, and
// reading and writing files.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace gatelab::runner {

void say(const std::string& line);
[[noreturn]] void fail(const std::string& message);

struct Args {
  std::string command;
  std::map<std::string, std::string> options;              // the last value of each flag
  std::vector<std::pair<std::string, std::string>> given;  // every flag in order, repeats kept
  bool has(const std::string& k) const { return options.count(k) != 0; }
  double number(const std::string& k, double fallback) const;
  int integer(const std::string& k, int fallback) const;
  std::string text(const std::string& k, const std::string& fallback) const;
};
Args parse(int argc, char** argv);

// Runs jobs 0 … count−1 on `threads` threads; job(i) must be thread-safe.
void run_jobs(int count, int threads, const std::function<void(int)>& job);
std::string fmt(const char* format, double a, double b = 0, double c = 0);
// The JSON to --out FILE, or to stdout.
// Creates the directories above `path` (none for an empty path or a bare file name), failing
// with a message that names them; a job calls it before it runs, so a long run never ends
// unable to write its result.
void make_parent_directories(const std::string& path);
void write_output(const Args& args, const std::string& json);
std::string read_file(const std::string& path);
bool file_exists(const std::string& path);
// Writes to path.tmp, then renames: a reader never sees half a file.
void write_file_atomically(const std::string& path, const std::string& text);

}  // namespace gatelab::runner
