# install.library_only: configures SOURCE_DIR with DASH_BUILD_TESTS, DASH_BUILD_EXAMPLES and
# DASH_BUILD_BENCH off (the library alone, as a user installs it), builds and installs it into
# WORK_DIR/prefix and checks what a user gets:
#   - the libraries, headers, CMake package, pkg-config files, dash-mpicxx, the licence and
#     the changelog; no examples;
#   - find_package(dash <VERSION>) accepts the build's version and refuses a later minor one;
#   - consumers built three ways, run on 2 units with LAUNCH ('|'-separated): CMake (C++ only,
#     version macros against dash::version(); with HAVE_HDF5 the hdf5 component), pkg-config
#     (CXX_COMPILER with `pkg-config --cflags --libs dash`) and dash-mpicxx (compile, then link).
# Prints how long the library's configure and build took.

include(${CMAKE_CURRENT_LIST_DIR}/run_checked.cmake)

set(build ${WORK_DIR}/library)
set(prefix ${WORK_DIR}/prefix)
set(consumers ${WORK_DIR}/consumers)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${consumers})

string(TIMESTAMP start "%s")
# Compiled at -O0 without debug information: this checks the configuration, the install and its
# consumers, not the code, which the build under test compiles as configured (the library's
# compile time is most of this test's).
string(TOUPPER "${BUILD_TYPE}" build_type_upper)
run_checked("configuring the library alone" ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${build}
            -G ${GENERATOR} -DCMAKE_C_COMPILER=${C_COMPILER} -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
            -DCMAKE_BUILD_TYPE=${BUILD_TYPE} -DCMAKE_C_FLAGS_${build_type_upper}=-O0
            -DCMAKE_CXX_FLAGS_${build_type_upper}=-O0 -DDASH_MPI=${DASH_MPI}
            -DDASH_SANITIZE=${DASH_SANITIZE} -DDASH_BUILD_TESTS=OFF
            -DDASH_BUILD_EXAMPLES=OFF -DDASH_BUILD_BENCH=OFF)
string(TIMESTAMP configured "%s")
run_checked("building the library alone" ${CMAKE_COMMAND} --build ${build})
string(TIMESTAMP built "%s")
math(EXPR configure_s "${configured} - ${start}")
math(EXPR build_s "${built} - ${configured}")
message("library alone: configure ${configure_s} s, build ${build_s} s")
run_checked("cmake --install" ${CMAKE_COMMAND} --install ${build} --prefix ${prefix})

include(GNUInstallDirs)  # the same relative directories the library's install used
foreach(file IN ITEMS ${CMAKE_INSTALL_LIBDIR}/libdash.a ${CMAKE_INSTALL_LIBDIR}/libdart.a
                      include/libdash.h include/dash/Version.h include/dart/dart.h
                      ${CMAKE_INSTALL_LIBDIR}/cmake/dash/dashConfig.cmake
                      ${CMAKE_INSTALL_LIBDIR}/cmake/dash/dashConfigVersion.cmake
                      ${CMAKE_INSTALL_LIBDIR}/pkgconfig/dash.pc bin/dash-mpicxx
                      share/doc/dash/LICENSE share/doc/dash/CHANGELOG.md
                      share/doc/dash/docs/building.md)
  if(NOT EXISTS ${prefix}/${file})
    message(FATAL_ERROR "the library-only install lacks ${file}")
  endif()
endforeach()
if(EXISTS ${prefix}/bin/dash)
  message(FATAL_ERROR "a build without examples installed ${prefix}/bin/dash")
endif()

# CMake consumers; the version asked for is the build's major.minor.
string(REGEX MATCH "^[0-9]+\\.[0-9]+" request "${VERSION}")
set(cmake_args -G ${GENERATOR} -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
               -DCMAKE_BUILD_TYPE=${BUILD_TYPE} -DCMAKE_PREFIX_PATH=${prefix})
set(with_hdf5 OFF)
if(HAVE_HDF5)
  set(with_hdf5 ON)
endif()
run_checked("configuring the CMake consumer" ${CMAKE_COMMAND}
            -S ${CMAKE_CURRENT_LIST_DIR}/consumer_library_only -B ${consumers}/cmake
            ${cmake_args} -DDASH_REQUEST=${request} -DWITH_HDF5=${with_hdf5})
run_checked("building the CMake consumer" ${CMAKE_COMMAND} --build ${consumers}/cmake)
# A later minor version than the build's is refused (before 1.0 minor versions may break).
string(REGEX MATCHALL "[0-9]+" parts "${VERSION}")
list(GET parts 0 major)
list(GET parts 1 minor)
math(EXPR later "${minor} + 1")
execute_process(COMMAND ${CMAKE_COMMAND} -S ${CMAKE_CURRENT_LIST_DIR}/consumer_library_only
                        -B ${consumers}/later ${cmake_args} -DDASH_REQUEST=${major}.${later}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT err MATCHES "compatible")
  message(FATAL_ERROR "find_package(dash ${major}.${later}) was not refused by dash ${VERSION}:\n${out}\n${err}")
endif()

# pkg-config consumer.
set(pc_path ${prefix}/${CMAKE_INSTALL_LIBDIR}/pkgconfig)
run_checked("pkg-config dash" ${CMAKE_COMMAND} -E env PKG_CONFIG_PATH=${pc_path}
            pkg-config --cflags --libs dash)
separate_arguments(pc_flags UNIX_COMMAND "${last_output}")
set(cxx_only_main ${CMAKE_CURRENT_LIST_DIR}/consumer_cxx_only/main.cc)
run_checked("building the pkg-config consumer" ${CXX_COMPILER} ${cxx_only_main}
            -o ${consumers}/consumer_pkg_config ${pc_flags})

# dash-mpicxx consumer: compile only, then link.
run_checked("dash-mpicxx -c" ${prefix}/bin/dash-mpicxx -O2 -c ${cxx_only_main}
            -o ${consumers}/main.o)
run_checked("dash-mpicxx (link)" ${prefix}/bin/dash-mpicxx ${consumers}/main.o
            -o ${consumers}/consumer_mpicxx)

string(REPLACE "|" ";" launch "${LAUNCH}")
set(runs "consumer_version|${consumers}/cmake/consumer_version"
         "consumer_cxx_only|${consumers}/consumer_pkg_config"
         "consumer_cxx_only|${consumers}/consumer_mpicxx")
if(HAVE_HDF5)
  list(APPEND runs "consumer_hdf5|${consumers}/cmake/consumer_hdf5|${consumers}/out.h5")
endif()
foreach(run IN LISTS runs)
  string(REPLACE "|" ";" run "${run}")
  list(POP_FRONT run name)
  run_on_two_units(${name} ${launch} ${run})
endforeach()
message("install.library_only passed")
