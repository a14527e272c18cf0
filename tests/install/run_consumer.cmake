# Installs BUILD_DIR into WORK_DIR/prefix, configures and builds the consumer project (C and
# C++) and the C++-only one against it, checks the consumers link EXPECT_MPI, and runs each and
# the installed example hello on 2 units with LAUNCH ('|'-separated) when EXAMPLES_BUILT.

include(${CMAKE_CURRENT_LIST_DIR}/run_checked.cmake)

set(prefix ${WORK_DIR}/prefix)
set(build ${WORK_DIR}/build)
file(REMOVE_RECURSE ${WORK_DIR})
run_checked("cmake --install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
run_checked("configuring the consumer" ${CMAKE_COMMAND} -S ${CONSUMER_SOURCE_DIR} -B ${build}
            -G ${GENERATOR} -DCMAKE_C_COMPILER=${C_COMPILER} -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
            -DCMAKE_BUILD_TYPE=${BUILD_TYPE} -DCMAKE_PREFIX_PATH=${prefix})
run_checked("building the consumer" ${CMAKE_COMMAND} --build ${build})
# The C++-only project (no C language enabled) next to it, into the same build directory's
# sibling; its binary is copied next to the others.
set(build_cxx_only ${WORK_DIR}/build-cxx-only)
run_checked("configuring the C++-only consumer" ${CMAKE_COMMAND}
            -S ${CONSUMER_SOURCE_DIR}/../consumer_cxx_only -B ${build_cxx_only} -G ${GENERATOR}
            -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_BUILD_TYPE=${BUILD_TYPE}
            -DCMAKE_PREFIX_PATH=${prefix})
run_checked("building the C++-only consumer" ${CMAKE_COMMAND} --build ${build_cxx_only})
file(COPY ${build_cxx_only}/consumer_cxx_only DESTINATION ${build})

string(REPLACE "|" ";" launch "${LAUNCH}")
if(EXPECT_MPI STREQUAL "mpich")
  set(mpi_library "libmpich")
elseif(EXPECT_MPI STREQUAL "openmpi")
  set(mpi_library "libmpi\\.so")
else()
  set(mpi_library "")  # unknown MPI: nothing to check
endif()
foreach(consumer IN ITEMS consumer_c consumer_cxx consumer_cxx_only)
  run_checked("ldd ${consumer}" ldd ${build}/${consumer})
  if(mpi_library AND NOT last_output MATCHES "${mpi_library}")
    message(FATAL_ERROR "${consumer} does not link ${EXPECT_MPI}:\n${last_output}")
  endif()
  run_on_two_units(${consumer} ${launch} ${build}/${consumer})
endforeach()
# The examples are installed with the build (bin/dash/), and run from there; a build without
# them (DASH_BUILD_EXAMPLES=OFF) installs none.
if(EXAMPLES_BUILT)
  run_checked("running the installed hello" ${launch} ${prefix}/bin/dash/hello)
  if(NOT last_output MATCHES "hello from unit 1 of 2")
    message(FATAL_ERROR "the installed bin/dash/hello did not run on 2 units:\n${last_output}")
  endif()
elseif(EXISTS ${prefix}/bin/dash/hello)
  message(FATAL_ERROR "DASH_BUILD_EXAMPLES=OFF, but ${prefix}/bin/dash/hello was installed")
endif()
message("install.consumer passed")
