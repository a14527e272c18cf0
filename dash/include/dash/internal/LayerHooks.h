// What the layers above the core (the block layer's spill storage, collective I/O) ask the
// core to run at dash::init, dash::finalize and the end of a team, so that the core calls them
// without knowing them. A layer registers its hooks once, from a static initialiser in its compiled
// code: alike on every unit (they run the same program), and a layer the program does not link
// registers nothing and has nothing to finish.
#ifndef DASH__INTERNAL__LAYER_HOOKS_H_
#define DASH__INTERNAL__LAYER_HOOKS_H_

#include <dart/dart_types.h>

#include <string>
#include <vector>

namespace dash {
namespace internal {

struct LayerHooks {
  const char* layer;  // its name, e.g. "dash::io"
  // dash::init, after the table's flags are checked and before MPI starts: the layer's own
  // start-up checks (e.g. a file a flag names). Throws exception::InvalidArgument. Local.
  void (*at_init)(const char* call) = nullptr;
  // dash::finalize, while the runtime is up, before the teams are freed; collective over all
  // units if it communicates.
  void (*at_finalize)() noexcept = nullptr;
  // The end of a team, before DART frees it; collective over the team if it communicates.
  void (*at_team_end)(dart_team_t team) noexcept = nullptr;
  // dash::finalize, before the runtime ends: an error that dash::finalize throws once the
  // runtime has ended (empty: none). Local.
  std::string (*failure_at_finalize)() = nullptr;
};

// Registers a layer's hooks; returns true, for a static initialiser. Local.
bool register_layer(const LayerHooks& hooks);

// The registered layers' hooks, in the order registered. Local.
const std::vector<LayerHooks>& registered_layers();

}  // namespace internal
}  // namespace dash

#endif  // DASH__INTERNAL__LAYER_HOOKS_H_
