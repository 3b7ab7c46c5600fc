// Embind registrations only: the one file that knows about Emscripten.
#include <emscripten/bind.h>

#include <string>

namespace {
std::string version() { return GATELAB_VERSION; }
}  // namespace

EMSCRIPTEN_BINDINGS(gatelab) {
  emscripten::function("version", &version);
}
