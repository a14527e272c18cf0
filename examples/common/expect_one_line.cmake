# Runs an example that must end on an error the examples' way (common/Errors.h) and checks it
# (a CTest helper):
#   cmake -DEXIT=<code> -DPROGRAM=<name> -DLINE=<regex> [-DLINES=<n>] -P expect_one_line.cmake
#         -- <command> [<arg>...]
# Passes when the command exits with <code>; between 1 and <n> (default 1: unit 0 reports)
# error lines ("<name>: error: ..." or "<name>: unit <u>: error: ...") are in its output, each
# matching LINE (one line per unit at most); and nothing says the program crashed ("terminate
# called", a core dump, a signal).
foreach(var EXIT PROGRAM LINE)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "expect_one_line.cmake: -D${var}=... missing")
  endif()
endforeach()
if(NOT DEFINED LINES)
  set(LINES 1)
endif()

include(${CMAKE_CURRENT_LIST_DIR}/command_after_dashes.cmake)
command_after_dashes(command)

execute_process(COMMAND ${command}
  RESULT_VARIABLE exit_code OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
message("${stdout}${stderr}")

set(problems)
if(NOT exit_code STREQUAL "${EXIT}")
  list(APPEND problems "exit code ${exit_code}, expected ${EXIT}")
endif()
string(REPLACE "\n" ";" lines "${stdout}\n${stderr}")
set(count 0)
foreach(line IN LISTS lines)
  if(line MATCHES "^${PROGRAM}: (unit [0-9]+: )?error: ")
    math(EXPR count "${count} + 1")
    if(NOT line MATCHES "${LINE}")
      list(APPEND problems "the line '${line}' does not match '${LINE}'")
    endif()
  endif()
endforeach()
if(count LESS 1 OR count GREATER LINES)
  list(APPEND problems "${count} error lines of ${PROGRAM}, expected 1 to ${LINES}")
endif()
if("${stdout}${stderr}" MATCHES "terminate called|core dumped|[Ss]egmentation fault|on signal [0-9]+")
  list(APPEND problems "the output says the program crashed")
endif()
if(problems)
  list(JOIN problems "\n  " text)
  message(FATAL_ERROR "expect_one_line.cmake:\n  ${text}")
endif()
