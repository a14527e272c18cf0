# Runs one command and checks how it ended (a CTest helper of the unionfind runs):
#   cmake -DEXIT=<code> -DOUTPUT=<regex> [-DLAST_LINE=<regex>] -P expect.cmake -- <command> [<arg>...]
# Passes when the command exits with <code>, its stdout and stderr together match OUTPUT and,
# if LAST_LINE is given and not empty, the last non-empty line of its stdout matches LAST_LINE.
# Prints what the command printed either way.
if(NOT DEFINED EXIT OR NOT DEFINED OUTPUT)
  message(FATAL_ERROR "expect.cmake: give -DEXIT=<code> and -DOUTPUT=<regex>")
endif()

include(${CMAKE_CURRENT_LIST_DIR}/../common/command_after_dashes.cmake)
command_after_dashes(command)

execute_process(COMMAND ${command}
  RESULT_VARIABLE exit_code OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
message("${stdout}${stderr}")

set(problems)
if(NOT exit_code STREQUAL "${EXIT}")
  list(APPEND problems "exit code ${exit_code}, expected ${EXIT}")
endif()
if(NOT "${stdout}${stderr}" MATCHES "${OUTPUT}")
  list(APPEND problems "the output does not match '${OUTPUT}'")
endif()
if(LAST_LINE)
  string(STRIP "${stdout}" trimmed)
  string(FIND "${trimmed}" "\n" newline REVERSE)
  if(newline GREATER_EQUAL 0)
    math(EXPR start "${newline} + 1")
    string(SUBSTRING "${trimmed}" ${start} -1 final_line)
  else()
    set(final_line "${trimmed}")
  endif()
  if(NOT final_line MATCHES "${LAST_LINE}")
    list(APPEND problems "the last line of stdout, '${final_line}', does not match '${LAST_LINE}'")
  endif()
endif()
if(problems)
  list(JOIN problems "\n  " text)
  message(FATAL_ERROR "expect.cmake:\n  ${text}")
endif()
