// Patterns: how a container's N-D global index space is cut into blocks,
// which unit owns each block, and where an element sits in its owner's local
// memory.
//
// Every pattern type P offers (all local, O(N), allocation-free):
//
// | call                              | result                                        |
// |-----------------------------------|-----------------------------------------------|
// | size(), extent(d), extents()      | global element count and extents              |
// | capacity()                        | size(): every element is stored once          |
// | coords(g), global_index(coords)   | global linear index <-> coordinates (1)       |
// | global_at(coords)                 | the same as global_index(coords) (DASH name)  |
// | local(g), local_index(coords)     | local_index_t {unit, offset in unit's memory} |
// | unit_at(coords), unit_at(g)       | owning unit                                   |
// | at(coords), at(i, j, ...)         | offset in the owner's memory                  |
// | global(unit, l), global(l)        | coordinates / global index of a local offset  |
// | local_size(unit), local_size()    | elements a unit owns                          |
// | local_capacity()                  | elements every unit allocates (2)             |
// | blockspec(), block(coords|i)      | block grid; rectangle of one block            |
// | block_at(coords), max_blocksize() | linear index of the block holding coords      |
// | local_block(i), local_blockspec   | the calling unit's blocks                     |
// | team(), teamspec(), distspec()    | who takes part, how units are arranged        |
//
// (1) The global linear order is the pattern's memory order, as DASH's:
// row- or column-major (Arrangement) for BlockPattern and 1-D patterns, tile
// by tile for the N-D TilePattern, ShiftTilePattern and SeqTilePattern
// (tile_order(): tiles in the grid's Arrangement order, a tile's elements in
// that order over its own extents).
//
// (2) At least the largest local_size. BlockPattern and TilePattern give
// DASH's figure: the most blocks a unit holds per dimension, every block
// counted full (an underfilled last block too); the others the largest
// local_size itself.
//
// BlockPattern and TilePattern also have local coordinates (a unit's
// elements as an N-D array of local_extents(unit)), with DASH's names
// (ShiftTilePattern and SeqTilePattern too, see DealtTilePattern.h: a
// unit's tiles side by side as DASH's ShiftTilePattern places them, stacked
// for SeqTilePattern):
//
// | call                                       | result                           |
// |--------------------------------------------|----------------------------------|
// | local(coords)                              | local_coords_t {unit, coords}    |
// | local_coords(coords)                       | the owner's local coordinates    |
// | global(unit, lcoords), global(lcoords)     | global coordinates               |
// | global_index(unit, lcoords)                | global linear index              |
// | local_at(lcoords)                          | offset in the calling unit       |
//
// Constructors take (SizeSpec, DistributionSpec[, TeamSpec][, Team]) or
// DASH's variadic form: the N extents, then N Distributions or a
// DistributionSpec, a TeamSpec and a Team in any order (each optional), e.g.
// BlockPattern<3>(nx, ny, nz, BLOCKED, NONE, NONE); as in DASH the extents
// and Distributions may alternate: BlockPattern<2>(nx, BLOCKED, ny, NONE).
// Two patterns of one type compare equal (==, !=) when they describe the
// same distribution: extents, Distributions, unit grid and team.
//
// The irregular 1-D patterns (CSRPattern, LoadBalancePattern: one block per
// unit, of any size) answer the same calls; their global -> local lookups
// are O(log P) (a binary search over the units' offsets).
//
// Linear indices follow the pattern's MemArrange (ROW_MAJOR by default).
// The local memory of a unit holds exactly local_size(unit) elements.
#ifndef DASH__PATTERN_H_
#define DASH__PATTERN_H_

#include <dash/pattern/BlockPattern.h>
#include <dash/pattern/CSRPattern.h>
#include <dash/pattern/Distribution.h>
#include <dash/pattern/DistributionSpec.h>
#include <dash/pattern/MakePattern.h>
#include <dash/pattern/PatternProperties.h>
#include <dash/pattern/SeqTilePattern.h>
#include <dash/pattern/ShiftTilePattern.h>
#include <dash/pattern/SizeSpec.h>
#include <dash/pattern/TeamSpec.h>
#include <dash/pattern/TilePattern.h>

namespace dash {

// The pattern of dash::Array<T> unless one is named.
template <dim_t N, MemArrange Arr = ROW_MAJOR, class IndexType = default_index_t>
using Pattern = BlockPattern<N, Arr, IndexType>;

}  // namespace dash

#endif  // DASH__PATTERN_H_
