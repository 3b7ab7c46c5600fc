// Helpers of the native experiment runner (see runner_support.hpp).
#include "runner_support.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>
#include <vector>

namespace gatelab::runner {
namespace {
std::mutex print_mutex;
}  // namespace

void say(const std::string& line) {
  std::lock_guard<std::mutex> lock(print_mutex);
  std::fprintf(stderr, "%s\n", line.c_str());
  std::fflush(stderr);
}

void fail(const std::string& message) {
  std::fprintf(stderr, "gatelab_experiment: %s\n", message.c_str());
  std::exit(2);
}

double Args::number(const std::string& k, double fallback) const {
  auto it = options.find(k);
  if (it == options.end()) return fallback;
  char* end = nullptr;
  const double v = std::strtod(it->second.c_str(), &end);
  if (end == it->second.c_str() || *end != '\0') fail("--" + k + " must be a number (got '" + it->second + "')");
  return v;
}

int Args::integer(const std::string& k, int fallback) const {
  const double v = number(k, fallback);
  if (v != static_cast<double>(static_cast<int>(v))) fail("--" + k + " must be an integer (got '" + text(k, "") + "')");
  return static_cast<int>(v);
}

std::string Args::text(const std::string& k, const std::string& fallback) const {
  auto it = options.find(k);
  return it == options.end() ? fallback : it->second;
}

Args parse(int argc, char** argv) {
  Args a;
  if (argc < 2) fail("usage: gatelab_experiment <experiment> [--quick] [--key value …]");
  a.command = argv[1];
  for (int i = 2; i < argc; ++i) {
    std::string k = argv[i];
    if (k.rfind("--", 0) != 0) fail("unexpected argument '" + k + "'");
    k = k.substr(2);
    if (k == "quick") {
      a.options[k] = "1";
    } else {
      if (i + 1 >= argc) fail("--" + k + " needs a value");
      a.options[k] = argv[++i];
    }
    a.given.emplace_back(k, a.options[k]);
  }
  return a;
}

void run_jobs(int count, int threads, const std::function<void(int)>& job) {
  std::atomic<int> next{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&] {
      for (int i = next++; i < count; i = next++) job(i);
    });
  }
  for (auto& t : pool) t.join();
}

std::string fmt(const char* format, double a, double b, double c) {
  char buf[160];
  std::snprintf(buf, sizeof buf, format, a, b, c);
  return buf;
}

void make_parent_directories(const std::string& path) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (parent.empty()) return;
  std::error_code error;
  std::filesystem::create_directories(parent, error);
  if (error) fail("cannot create " + parent.string() + ": " + error.message());
}

void write_output(const Args& args, const std::string& json) {
  const std::string out = args.text("out", "");
  if (out.empty()) {
    std::fwrite(json.data(), 1, json.size(), stdout);
    std::fputc('\n', stdout);
    return;
  }
  make_parent_directories(out);
  std::ofstream f(out, std::ios::binary);
  if (!f) fail("cannot write " + out);
  f << json << '\n';
}

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) fail("cannot read " + path);
  std::stringstream buffer;
  buffer << f.rdbuf();
  return buffer.str();
}

bool file_exists(const std::string& path) { return std::ifstream(path).good(); }

void write_file_atomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  make_parent_directories(path);
  {
    std::ofstream f(tmp, std::ios::binary);
    if (!(f << text)) fail("cannot write " + tmp);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) fail("cannot rename " + tmp + " to " + path);
}

}  // namespace gatelab::runner
