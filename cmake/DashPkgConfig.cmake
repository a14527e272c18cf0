# Included by the top-level CMakeLists.txt after the install rules: for users without CMake, the
# pkg-config files dash.pc (and dash-hdf5.pc where parallel HDF5 was found) and the compiler
# wrapper dash-mpicxx. All three find the installed files relative to their own place, so an
# install moved with `cmake --install --prefix` (or a copied tree) keeps working.

# The MPI's own pkg-config module (Debian: ompi-cxx for OpenMPI, mpich for MPICH).
if(DASH_MPI STREQUAL "openmpi")
  set(_dash_pc_mpi ompi-cxx)
else()
  set(_dash_pc_mpi mpich)
endif()

# From the pkg-config directory (<libdir>/pkgconfig) up to the prefix.
file(RELATIVE_PATH _dash_pc_up /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
string(REGEX REPLACE "/$" "" _dash_pc_up "${_dash_pc_up}")
# From the wrapper's directory (<bindir>) up to the prefix.
file(RELATIVE_PATH _dash_bin_up /prefix/${CMAKE_INSTALL_BINDIR} /prefix)
string(REGEX REPLACE "/$" "" _dash_bin_up "${_dash_bin_up}")

string(JOIN " " _dash_pc_sanitize "" ${DASH_SANITIZE_FLAGS})  # with a leading space, if any
set(_dash_pc_text "# dash ${PROJECT_VERSION}: PGAS containers for C++ on MPI-3 (${DASH_MPI})
prefix=\${pcfiledir}/${_dash_pc_up}
includedir=\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}
libdir=\${prefix}/${CMAKE_INSTALL_LIBDIR}

Name: dash
Description: PGAS distributed containers for C++ on MPI-3, built against ${DASH_MPI}
Version: ${PROJECT_VERSION}
Requires: ${_dash_pc_mpi} hwloc
Cflags: -I\${includedir} -std=c++17 -pthread${_dash_pc_sanitize}
Libs: -L\${libdir} -ldash -ldart -pthread -lm${_dash_pc_sanitize}
")
file(WRITE ${PROJECT_BINARY_DIR}/pkgconfig/dash.pc "${_dash_pc_text}")
set(_dash_pc_files ${PROJECT_BINARY_DIR}/pkgconfig/dash.pc)
if(HDF5_FOUND)
  file(WRITE ${PROJECT_BINARY_DIR}/pkgconfig/dash-hdf5.pc
       "# dash ${PROJECT_VERSION} with parallel HDF5 (dash/io/Hdf5.h); defines DASH_ENABLE_HDF5 as
# DASH's build does, so <libdash.h> brings dash::io::hdf5 along
Name: dash-hdf5
Description: dash with the parallel HDF5 of ${DASH_MPI}
Version: ${PROJECT_VERSION}
Requires: dash hdf5-${DASH_MPI}
Cflags: -DDASH_ENABLE_HDF5
")
  list(APPEND _dash_pc_files ${PROJECT_BINARY_DIR}/pkgconfig/dash-hdf5.pc)
endif()
install(FILES ${_dash_pc_files} DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# dash-mpicxx: the MPI C++ wrapper this build used, with dash's flags; link flags only when it
# links (not with -c, -S, -E or -M*).
string(JOIN " " _dash_wrapper_sanitize ${DASH_SANITIZE_FLAGS})
file(WRITE ${PROJECT_BINARY_DIR}/bin/dash-mpicxx "#!/bin/sh
# dash-mpicxx: compiles and links C++ programs against dash ${PROJECT_VERSION} (${DASH_MPI}), as
# ${MPI_CXX_COMPILER} would, with dash's include path, C++17 (a later -std given here wins)
# and its libraries. Usage: dash-mpicxx [compiler arguments...]; --dash-show prints the command.
here=\$(CDPATH= cd -- \"\$(dirname -- \"\$0\")\" && pwd) || exit 1
prefix=\$here/${_dash_bin_up}
compile=\"-std=c++17 -pthread -I\$prefix/${CMAKE_INSTALL_INCLUDEDIR} ${_dash_wrapper_sanitize}\"
link=\"-L\$prefix/${CMAKE_INSTALL_LIBDIR} -ldash -ldart -lhwloc -lm ${_dash_wrapper_sanitize}\"
show=no
for arg in \"\$@\"; do
  case \$arg in
    -c|-S|-E|-M|-MM) link= ;;
  esac
done
if [ \"\$1\" = --dash-show ]; then
  shift
  show=yes
fi
if [ \$show = yes ]; then
  echo ${MPI_CXX_COMPILER} \$compile \"\$@\" \$link
  exit 0
fi
# Word splitting of \$compile and \$link is wanted (paths with spaces are not supported).
# shellcheck disable=SC2086
exec ${MPI_CXX_COMPILER} \$compile \"\$@\" \$link
")
install(PROGRAMS ${PROJECT_BINARY_DIR}/bin/dash-mpicxx DESTINATION ${CMAKE_INSTALL_BINDIR})
