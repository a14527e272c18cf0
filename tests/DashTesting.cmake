# dash_add_mpi_test(): one GoogleTest binary per topic, run by CTest under the MPI launcher.
#
#   dash_add_mpi_test(NAME <name> SOURCES <src>...
#                     [UNITS <n>...]                 unit counts to run at (default 1 2 3 4)
#                     [TIMEOUT <seconds>]            per run (default 120)
#                     [ENVIRONMENT <VAR=value>...]   for every run
#                     [LABELS <label>...]            added to the labels below
#                     [LIBRARIES <target>...]        linked besides dash_test_main and dash
#                     [ARGS <arg>...]                passed to the binary
#                     [VARIANT <suffix> "<VAR=value|VAR2=value2>"]...
#                     [VARIANT_UNITS <N>...])           default: 3 (or the largest of UNITS)
#
# Registers <name>.np<N> for every N of UNITS, and once more per VARIANT, with its extra
# environment, as <name>.<suffix>.np<N> for the N of VARIANT_UNITS (3 units by default: an odd
# count that splits unevenly into virtual nodes and still has remote and same-node pairs). Every run is labelled mpi, np<N> and <name> (variants also <suffix>), so e.g.
# `ctest -L '^np[12]$'` runs only 1- and 2-unit runs. One plain run per suite, at 2 units where
# the suite runs at 2, else at its first unit count, is also labelled one_per_suite (the
# sanitizer stage of .ci/run: `-L '^np2$|^one_per_suite$'` runs every suite once, at 2 units
# where it can).

set(DASH_TEST_DEFAULT_UNITS 1 2 3 4)
# The unit count of variant runs (those of suites without VARIANT_UNITS of their own): 3 unless
# the build says otherwise (CI's MPICH stage: 2, see .ci/run).
set(DASH_TEST_VARIANT_UNITS 3 CACHE STRING
    "unit count of the suites' variant runs (suites without VARIANT_UNITS)")
set(DASH_TEST_DEFAULT_VARIANT_UNITS ${DASH_TEST_VARIANT_UNITS})
set(DASH_TEST_DEFAULT_TIMEOUT 120)

# Environment every MPI test run gets: oversubscription; no core binding (OpenMPI would pin
# every 1-unit run to core 0, so parallel CTest jobs share one core); plain gtest output
# (OpenMPI gives ranks a pty, so gtest would colour); sanitizer settings.
set(DASH_TEST_ENVIRONMENT
    OMPI_MCA_rmaps_base_oversubscribe=1
    OMPI_MCA_hwloc_base_binding_policy=none
    GTEST_COLOR=no)
if(DASH_SANITIZE MATCHES "address")
  list(APPEND DASH_TEST_ENVIRONMENT ASAN_OPTIONS=detect_leaks=0)  # MPI libraries leak at exit
endif()
# ThreadSanitizer: the MPI libraries' own reports are suppressed (tests/tsan.supp); UCX's memory
# hooks (MPICH here) intercept madvise at thread exit, after TSan dropped the thread: off.
if(DASH_SANITIZE MATCHES "thread")
  list(APPEND DASH_TEST_ENVIRONMENT
       "TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:suppressions=${PROJECT_SOURCE_DIR}/tests/tsan.supp"
       UCX_MEM_EVENTS=no)
endif()
if(DASH_SANITIZE MATCHES "undefined")
  list(APPEND DASH_TEST_ENVIRONMENT UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1)
endif()

# Registers one CTest run of <target> on <nunits> units as <test_name>.
function(dash_add_mpi_test_run test_name target nunits timeout labels environment args)
  dash_mpiexec_command(command ${nunits} $<TARGET_FILE:${target}> ${MPIEXEC_POSTFLAGS} ${args})
  set(labels mpi np${nunits} ${labels})
  set(environment ${DASH_TEST_ENVIRONMENT} ${environment})
  list(FILTER labels EXCLUDE REGEX "^$")
  list(FILTER environment EXCLUDE REGEX "^$")
  add_test(NAME ${test_name} COMMAND ${command})
  set_tests_properties(${test_name} PROPERTIES
    TIMEOUT ${timeout}
    PROCESSORS ${nunits}
    LABELS "${labels}"
    ENVIRONMENT "${environment}")
endfunction()

# Builds test binary <name> and registers its runs (see the top of this file).
function(dash_add_mpi_test)
  cmake_parse_arguments(PARSE_ARGV 0 T "" "NAME;TIMEOUT"
                        "SOURCES;UNITS;ENVIRONMENT;LABELS;LIBRARIES;ARGS;VARIANT;VARIANT_UNITS")
  if(NOT T_NAME OR NOT T_SOURCES)
    message(FATAL_ERROR "dash_add_mpi_test: NAME and SOURCES are required")
  endif()
  if(T_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "dash_add_mpi_test(${T_NAME}): unknown arguments ${T_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT T_UNITS)
    set(T_UNITS ${DASH_TEST_DEFAULT_UNITS})
  endif()
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT ${DASH_TEST_DEFAULT_TIMEOUT})
  endif()
  if(NOT T_VARIANT_UNITS)
    if(DASH_TEST_DEFAULT_VARIANT_UNITS IN_LIST T_UNITS)
      set(T_VARIANT_UNITS ${DASH_TEST_DEFAULT_VARIANT_UNITS})
    else()
      list(GET T_UNITS -1 T_VARIANT_UNITS)
    endif()
  endif()
  list(LENGTH T_VARIANT n_variant_args)
  math(EXPR odd "${n_variant_args} % 2")
  if(odd)
    message(FATAL_ERROR "dash_add_mpi_test(${T_NAME}): VARIANT takes <suffix> \"<VAR=value|VAR2=value2>\"")
  endif()

  set(target test_${T_NAME})
  add_executable(${target} ${T_SOURCES})
  target_link_libraries(${target} PRIVATE dash_test_main dash::dash ${T_LIBRARIES})
  set_target_properties(${target} PROPERTIES OUTPUT_NAME ${T_NAME})
  if(DASH_TESTS_PCH)
    target_precompile_headers(${target} REUSE_FROM dash_test_main)
  endif()

  if(2 IN_LIST T_UNITS)
    set(picked 2)
  else()
    list(GET T_UNITS 0 picked)
  endif()
  foreach(n IN LISTS T_UNITS)
    set(extra_label "")
    if(n EQUAL picked)
      set(extra_label one_per_suite)
    endif()
    dash_add_mpi_test_run(${T_NAME}.np${n} ${target} ${n} ${T_TIMEOUT}
                          "${T_NAME};${T_LABELS};${extra_label}" "${T_ENVIRONMENT}" "${T_ARGS}")
  endforeach()
  # VARIANT pairs: <suffix> followed by its environment list.
  while(T_VARIANT)
    list(POP_FRONT T_VARIANT suffix variant_env)
    string(REPLACE "|" ";" variant_env "${variant_env}")  # '|' separates variables
    foreach(n IN LISTS T_VARIANT_UNITS)
      dash_add_mpi_test_run(${T_NAME}.${suffix}.np${n} ${target} ${n} ${T_TIMEOUT}
                            "${T_NAME};${suffix};${T_LABELS}"
                            "${T_ENVIRONMENT};${variant_env}" "${T_ARGS}")
    endforeach()
  endwhile()
endfunction()
