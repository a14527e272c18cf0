// The registry of the layers' hooks (dash/internal/LayerHooks.h).
#include <dash/internal/LayerHooks.h>

namespace dash {
namespace internal {

namespace {

// Made on first use, so registrations from other files' static initialisers find it.
std::vector<LayerHooks>& hooks() {
  static std::vector<LayerHooks> all;
  return all;
}

}  // namespace

bool register_layer(const LayerHooks& layer) {
  hooks().push_back(layer);
  return true;
}

const std::vector<LayerHooks>& registered_layers() { return hooks(); }

}  // namespace internal
}  // namespace dash
