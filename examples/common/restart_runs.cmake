# Runs a program uninterrupted, stopped and saved, and restarted, and checks that the restarts end
# like the uninterrupted run (run by CTest):
#   cmake -DRESULT=<regex with one group> -P restart_runs.cmake -- <run> :: <stop> :: <restart>...
#     <run> exits 0 and its last stdout line matches RESULT; <stop> exits 0 and its last line is
#     "saved_after_rounds=<k> path=<path>"; every <restart> exits 0 and its last line matches
#     RESULT with the same group as <run>'s.
include(${CMAKE_CURRENT_LIST_DIR}/command_after_dashes.cmake)
command_after_dashes(command_after_dashes)
if(NOT DEFINED RESULT)
  message(FATAL_ERROR "restart_runs.cmake: no -DRESULT")
endif()
split_commands(count ${command_after_dashes})
if(count LESS 3)
  message(FATAL_ERROR "restart_runs.cmake: expected <run> :: <stop> :: <restart>...")
endif()
math(EXPR last "${count} - 1")

set(reference "")
foreach(n RANGE ${last})
  string(JOIN " " text ${command_${n}})
  run_for_last_line(last_line ${command_${n}})
  if(n EQUAL 1)
    if(NOT last_line MATCHES "^saved_after_rounds=[0-9]+ path=.+$")
      message(FATAL_ERROR "the last line '${last_line}' is not 'saved_after_rounds=<k> "
                          "path=<path>': ${text}")
    endif()
    continue()
  endif()
  if(NOT last_line MATCHES "${RESULT}")
    message(FATAL_ERROR "the last line '${last_line}' does not match '${RESULT}': ${text}")
  endif()
  if(n EQUAL 0)
    set(reference "${CMAKE_MATCH_1}")
  elseif(NOT CMAKE_MATCH_1 STREQUAL reference)
    message(FATAL_ERROR "the restart ends with '${CMAKE_MATCH_1}', the uninterrupted run with "
                        "'${reference}': ${text}")
  endif()
endforeach()
message("the restarts end like the uninterrupted run: ${reference}")
