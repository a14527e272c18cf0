# Runs COMMAND ('|'-separated) with a malformed DART environment flag FLAG set by CTest and checks
# that DART refused to start: the output names FLAG as malformed (or matches EXPECT, a regex,
# when given), no test ran, and the launcher exited non-zero. Any of the three missing fails
# the test.
# PREPARE=<what> with PREPARE_PATH=<path> makes a topology file there first (removed after):
#   fifo       a FIFO (mkfifo), no writer
#   oversized  a sparse file of 16 MiB + 1 byte
#   long_line  a file whose second line has 5000 bytes
if(DEFINED PREPARE)
  file(REMOVE "${PREPARE_PATH}")
  if(PREPARE STREQUAL "fifo")
    execute_process(COMMAND mkfifo "${PREPARE_PATH}" RESULT_VARIABLE made)
  elseif(PREPARE STREQUAL "oversized")
    file(TOUCH "${PREPARE_PATH}")
    execute_process(COMMAND truncate -s 16777217 "${PREPARE_PATH}" RESULT_VARIABLE made)
  elseif(PREPARE STREQUAL "long_line")
    string(REPEAT "x" 5000 long_line)
    file(WRITE "${PREPARE_PATH}" "node c0-0c0s0n0\n${long_line}\n")
    set(made 0)
  else()
    message(FATAL_ERROR "expect_init_error.cmake: unknown PREPARE=${PREPARE}")
  endif()
  if(NOT made EQUAL 0)
    message(FATAL_ERROR "expect_init_error.cmake: making the ${PREPARE} ${PREPARE_PATH} failed")
  endif()
endif()
string(REPLACE "|" ";" command "${COMMAND}")
# MPICH's launcher (hydra) now and then dies of SIGPIPE before the program printed anything,
# when the machine is loaded: then nothing was checked, and the run is repeated (at most
# three runs). Any output, or any other exit, is judged below.
foreach(attempt 1 2 3)
  execute_process(COMMAND ${command} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("---- stdout ----\n${out}---- stderr ----\n${err}---- exit code: ${rc}")
  if(NOT (rc STREQUAL "SIGPIPE" AND "${out}${err}" STREQUAL ""))
    break()
  endif()
  message("the launcher died of SIGPIPE before any output (run ${attempt}); running again")
endforeach()
if(DEFINED PREPARE)
  file(REMOVE "${PREPARE_PATH}")
endif()

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
