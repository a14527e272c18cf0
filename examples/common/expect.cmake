# Runs one example command and checks how it ended (the CTest helper of the examples' runs):
#   cmake -DEXIT=<code> -DPROGRAM=<name> [-DOUTPUT=<regex>] [-DLAST_LINE=<regex>]
#         [-DLINE=<regex>] [-DLINES=<n>] -P expect.cmake -- <command> [<arg>...]
# Passes when
#   - the command exits with <code>;
#   - its stdout and stderr together match OUTPUT (if given and not empty);
#   - the last non-empty line of its stdout matches LAST_LINE (if given and not empty);
#   - its error lines ("<name>: error: ..." or "<name>: unit <u>: error: ...", common/Errors.h)
#     number none when <code> is 0, else 1 to <n> (default 1: unit 0 reports), each matching
#     LINE if given;
#   - nothing says the program crashed ("terminate called", a core dump, a signal).
# Prints what the command printed either way.
foreach(var EXIT PROGRAM)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "expect.cmake: -D${var}=... missing")
  endif()
endforeach()
if(NOT LINES)
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
if(OUTPUT AND NOT "${stdout}${stderr}" MATCHES "${OUTPUT}")
  list(APPEND problems "the output does not match '${OUTPUT}'")
endif()
if(LAST_LINE)
  string(STRIP "${stdout}" trimmed)
  string(REGEX REPLACE "^.*\n" "" final_line "${trimmed}")
  if(NOT final_line MATCHES "${LAST_LINE}")
    list(APPEND problems "the last line of stdout, '${final_line}', does not match '${LAST_LINE}'")
  endif()
endif()
string(REPLACE "\n" ";" lines "${stdout}\n${stderr}")
set(count 0)
foreach(line IN LISTS lines)
  if(line MATCHES "^${PROGRAM}: (unit [0-9]+: )?error: ")
    math(EXPR count "${count} + 1")
    if(LINE AND NOT line MATCHES "${LINE}")
      list(APPEND problems "the line '${line}' does not match '${LINE}'")
    endif()
  endif()
endforeach()
if(EXIT STREQUAL "0" AND count GREATER 0)
  list(APPEND problems "${count} error lines of ${PROGRAM}, expected none")
elseif(NOT EXIT STREQUAL "0" AND (count LESS 1 OR count GREATER LINES))
  list(APPEND problems "${count} error lines of ${PROGRAM}, expected 1 to ${LINES}")
endif()
if("${stdout}${stderr}" MATCHES "terminate called|core dumped|[Ss]egmentation fault|on signal [0-9]+")
  list(APPEND problems "the output says the program crashed")
endif()
if(problems)
  list(JOIN problems "\n  " text)
  message(FATAL_ERROR "expect.cmake:\n  ${text}")
endif()
