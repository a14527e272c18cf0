# Runs COMMAND ('|'-separated) with a malformed DART environment flag FLAG set by CTest and checks
# that DART refused to start: the output names FLAG as malformed (or matches EXPECT, a regex,
# when given), no test ran, and the launcher exited non-zero. Any of the three missing fails
# the test.
string(REPLACE "|" ";" command "${COMMAND}")
execute_process(COMMAND ${command} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("---- stdout ----\n${out}---- stderr ----\n${err}---- exit code: ${rc}")

set(problems "")
if(rc EQUAL 0)
  list(APPEND problems "exit code is 0, expected non-zero")
endif()
if(NOT DEFINED EXPECT OR EXPECT STREQUAL "")
  set(EXPECT "${FLAG}[^\n]*malformed")
endif()
if(NOT "${out}${err}" MATCHES "${EXPECT}")
  list(APPEND problems "no message matching '${EXPECT}'")
endif()
if("${out}" MATCHES "Running [0-9]+ tests? from")
  list(APPEND problems "tests ran although dart_init should have failed")
endif()
if(problems)
  string(REPLACE ";" "\n  " problems "${problems}")
  message(FATAL_ERROR "bad environment flag ${FLAG} was not rejected at start-up:\n  ${problems}")
endif()
message("${FLAG}: rejected as malformed at start-up")
