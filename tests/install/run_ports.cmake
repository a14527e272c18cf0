# Installs BUILD_DIR into WORK_DIR/prefix, builds tests/install/dash_ports (DASH-style programs,
# a C++-only project) against it at -O0 (the programs check the interface and the results, not
# the optimiser: 35 % less of this test's time, which is mostly the build), and runs every
# program at 2 and 4 units (LAUNCH2, LAUNCH4, '|'-separated), then at 3 units with the shared
# windows off (every transfer over MPI RMA) and with one unit per emulated node (the 1-unit
# and plain 3-unit runs checked nothing those and the DASH suites do not). Each run must exit 0
# and print "<name>: unit <u> ok" for every unit. With HAVE_HDF5 (the library has parallel HDF5)
# the port hdf5_store, DASH's HDF5 interface, runs as well.

include(${CMAKE_CURRENT_LIST_DIR}/run_checked.cmake)

set(prefix ${WORK_DIR}/prefix)
set(build ${WORK_DIR}/build)
file(REMOVE_RECURSE ${WORK_DIR})
run_checked("cmake --install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
string(TOUPPER "${BUILD_TYPE}" build_type_upper)
run_checked("configuring the ports" ${CMAKE_COMMAND} -S ${PORTS_SOURCE_DIR} -B ${build}
            -G ${GENERATOR} -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_BUILD_TYPE=${BUILD_TYPE}
            "-DCMAKE_CXX_FLAGS_${build_type_upper}=-O0 -g1" -DCMAKE_PREFIX_PATH=${prefix})
run_checked("building the ports" ${CMAKE_COMMAND} --build ${build})

set(ports matrix_subscripts heat_halo_rows tile_copy shared_counter atomic_histogram
          pattern_queries halo_stencil async_refs sort_minmax views_blocks team_locality
          sendrecv_ring benchmark_utilities csr_array dynamic_map coarray_images)
if(HAVE_HDF5)  # the library has its hdf5 component: DASH's HDF5 interface must work too
  list(APPEND ports hdf5_store)
endif()
set(runs "2" "4" "3|DART_SHARED_WINDOWS=0" "3|DART_VIRTUAL_NODE_SIZE=1")
foreach(run IN LISTS runs)
  string(REPLACE "|" ";" parts "${run}")
  list(GET parts 0 units)
  list(LENGTH parts nparts)
  set(env_prefix "")
  if(nparts GREATER 1)
    list(GET parts 1 setting)
    set(env_prefix ${CMAKE_COMMAND} -E env ${setting})
  endif()
  string(REPLACE "|" ";" launch "${LAUNCH${units}}")
  foreach(port IN LISTS ports)
    run_checked("${port} on ${run}" ${env_prefix} ${launch} ${build}/${port})
    math(EXPR last "${units} - 1")
    foreach(unit RANGE ${last})
      if(NOT last_output MATCHES "${port}: unit ${unit} ok")
        message(FATAL_ERROR "${port} on ${run}: no 'ok' from unit ${unit}:\n${last_output}")
      endif()
    endforeach()
  endforeach()
  message("ports passed on ${run}")
endforeach()
message("install.dash_ports passed")
