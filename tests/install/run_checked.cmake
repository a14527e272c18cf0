# run_checked(<what> <command...>): runs a command and stops the script with its output when it
# fails; its standard output is left in last_output. Shared by the install test scripts.
function(run_checked what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

# run_on_two_units(<name> <command...>): runs the command (a launcher and a program) and stops the
# script unless both units printed "<name>: unit <u> of 2"; prints the output.
function(run_on_two_units name)
  run_checked("running ${name}" ${ARGN})
  foreach(unit IN ITEMS 0 1)
    if(NOT last_output MATCHES "${name}: unit ${unit} of 2")
      message(FATAL_ERROR "${name} (${ARGN}): no output from unit ${unit}:\n${last_output}")
    endif()
  endforeach()
  message("${last_output}")
endfunction()
