# Runs stencil3d once per unit mapping and checks the contract of its last line (a CTest helper):
#   cmake -DMAPPINGS=none,hierarchical,hilbert -P check_mapping.cmake -- <command> [<arg>...]
# Every run must exit 0 and end with 'node_crossings=<N> modelled_us=<T>'; no mapping may print
# more node crossings than the first (none). The environment (virtual nodes, topology file)
# comes from CTest; DART_UNIT_MAPPING is set here for each run.
if(NOT DEFINED MAPPINGS)
  message(FATAL_ERROR "check_mapping.cmake: give -DMAPPINGS=<first>,<other>...")
endif()
string(REPLACE "," ";" MAPPINGS "${MAPPINGS}")
include(${CMAKE_CURRENT_LIST_DIR}/../common/command_after_dashes.cmake)
command_after_dashes(command)

set(reference "")
foreach(mapping IN LISTS MAPPINGS)
  set(ENV{DART_UNIT_MAPPING} "${mapping}")
  execute_process(COMMAND ${command} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("---- DART_UNIT_MAPPING=${mapping} ----\n${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "DART_UNIT_MAPPING=${mapping}: exit code ${rc}")
  endif()
  string(STRIP "${out}" out)
  string(REGEX MATCH "[^\n]*$" last "${out}")
  if(NOT last MATCHES "^node_crossings=([0-9]+) modelled_us=[0-9]+\\.[0-9]+$")
    message(FATAL_ERROR "DART_UNIT_MAPPING=${mapping}: last line '${last}' is not "
                        "'node_crossings=<N> modelled_us=<T>'")
  endif()
  set(crossings ${CMAKE_MATCH_1})
  if(reference STREQUAL "")
    set(reference ${crossings})
  elseif(crossings GREATER reference)
    message(FATAL_ERROR "DART_UNIT_MAPPING=${mapping} printed node_crossings=${crossings}, "
                        "more than the ${reference} of DART_UNIT_MAPPING=${MAPPINGS}")
  endif()
endforeach()
message("node crossings never above ${reference} (${MAPPINGS})")
