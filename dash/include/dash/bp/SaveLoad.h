// dash::bp::save and dash::bp::load, by the name DIY-style programs include:
// the functions belong to the I/O layer and live in dash/io/SaveBlocks.h
// (how they work, what they cost, the file they write).
#ifndef DASH__BP__SAVE_LOAD_H_
#define DASH__BP__SAVE_LOAD_H_

#include <dash/io/SaveBlocks.h>

#endif  // DASH__BP__SAVE_LOAD_H_
