// DASH's HDF5 streams: OutputStream, InputStream and their manipulators.
#ifndef DASH__IO__HDF5__IO_STREAM_H_
#define DASH__IO__HDF5__IO_STREAM_H_

#include <dash/io/hdf5/IOManip.h>
#include <dash/io/hdf5/InputStream.h>
#include <dash/io/hdf5/OutputStream.h>

#endif  // DASH__IO__HDF5__IO_STREAM_H_
