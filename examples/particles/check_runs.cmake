# Runs one or more particles commands and checks them (run by CTest):
#   cmake [-DPARTICLES=<n>] [-DCHECKSUM=<hex>] -P check_runs.cmake -- <command> [:: <command>]...
#     every command exits 0 and its last stdout line is
#     "time_s=<seconds> particles=<n> checksum=<16 hex digits>", with the same particles and
#     checksum for all commands (and particles = <n>, checksum = <hex> when given).

# The commands after "--", split at "::".
include(${CMAKE_CURRENT_LIST_DIR}/../common/command_after_dashes.cmake)
command_after_dashes(arguments)
split_commands(count ${arguments})
math(EXPR last "${count} - 1")

# Every command's result line, all equal.
set(reference "")
foreach(n RANGE ${last})
  string(JOIN " " text ${command_${n}})
  run_for_last_line(last_line ${command_${n}})
  if(NOT last_line MATCHES "^time_s=[0-9]+\\.[0-9]+ particles=([0-9]+) checksum=([0-9a-f]+)$")
    message(FATAL_ERROR "the last line '${last_line}' is not "
                        "'time_s=<seconds> particles=<n> checksum=<hex>': ${text}")
  endif()
  set(particles "${CMAKE_MATCH_1}")
  set(checksum "${CMAKE_MATCH_2}")
  string(LENGTH "${checksum}" digits)
  if(NOT digits EQUAL 16)
    message(FATAL_ERROR "checksum ${checksum} has ${digits} hex digits, not 16: ${text}")
  endif()
  if(DEFINED PARTICLES AND NOT particles STREQUAL "${PARTICLES}")
    message(FATAL_ERROR "particles=${particles}, expected ${PARTICLES}: ${text}")
  endif()
  if(DEFINED CHECKSUM AND NOT checksum STREQUAL "${CHECKSUM}")
    message(FATAL_ERROR "checksum=${checksum}, expected ${CHECKSUM} (the serial tracer's): ${text}")
  endif()
  set(result "particles=${particles} checksum=${checksum}")
  if(reference STREQUAL "")
    set(reference "${result}")
    set(reference_text "${text}")
  elseif(NOT result STREQUAL reference)
    message(FATAL_ERROR "'${result}' from\n  ${text}\ndiffers from '${reference}' from\n  "
                        "${reference_text}")
  endif()
endforeach()
message("${count} run(s) agree: ${reference}")
