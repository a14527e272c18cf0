// dash::io::hdf5: containers as datasets of HDF5 files, written and read
// collectively through parallel HDF5 -- this library's save/load
// (hdf5/SaveLoad.h) and DASH's StoreHDF and streams (hdf5/StorageDriver.h,
// hdf5/IOStream.h). <dash/io/HDF5.h>, DASH's name, holds the same.
//
// Header-only: only programs that include it need parallel HDF5 (link
// dash::hdf5 from find_package(dash COMPONENTS hdf5), or pkg-config
// dash-hdf5).
#ifndef DASH__IO__HDF5_ALL_H_
#define DASH__IO__HDF5_ALL_H_

#include <dash/io/hdf5/IOStream.h>
#include <dash/io/hdf5/SaveLoad.h>
#include <dash/io/hdf5/StorageDriver.h>

#endif  // DASH__IO__HDF5_ALL_H_
