# Runs COMMAND ('|'-separated) under DART_WATCHDOG and checks the watchdog's report: stderr
# matches every regex of EXPECT ('|'-separated), and matches none of REJECT when given; the exit
# code is 0 for EXIT=zero (DART_WATCHDOG_ACTION=report: the run goes on) and non-zero for
# EXIT=nonzero (abort: the job ends; CTest's TIMEOUT bounds how long that may take).
string(REPLACE "|" ";" command "${COMMAND}")
string(REPLACE "|" ";" expect "${EXPECT}")
execute_process(COMMAND ${command} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("---- stdout ----\n${out}---- stderr ----\n${err}---- exit code: ${rc}")

set(problems "")
if(EXIT STREQUAL "zero" AND NOT rc EQUAL 0)
  list(APPEND problems "exit code is ${rc}, expected 0")
elseif(EXIT STREQUAL "nonzero" AND rc EQUAL 0)
  list(APPEND problems "exit code is 0, expected non-zero")
endif()
foreach(regex IN LISTS expect)
  if(NOT "${err}" MATCHES "${regex}")
    list(APPEND problems "stderr does not match '${regex}'")
  endif()
endforeach()
if(DEFINED REJECT AND NOT REJECT STREQUAL "" AND "${err}" MATCHES "${REJECT}")
  list(APPEND problems "stderr matches '${REJECT}', which it must not")
endif()
if(problems)
  string(REPLACE ";" "\n  " problems "${problems}")
  message(FATAL_ERROR "watchdog check failed:\n  ${problems}")
endif()
message("watchdog report as expected")
