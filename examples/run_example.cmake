# Runs EXE (with ARGS) and compares its output with the file EXPECTED:
# stdout, then a line "--- stderr ---", then stderr. Kept apart so that
# the buffering of stdout cannot change the order. EMULATOR (optional, a
# command line) runs EXE in a cross build.
separate_arguments(emulator UNIX_COMMAND "${EMULATOR}")
execute_process(COMMAND ${emulator} ${EXE} ${ARGS}
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
set(actual "${out}--- stderr ---\n${err}--- exit ${rc} ---\n")
file(READ ${EXPECTED} expected)
if(NOT actual STREQUAL expected)
  get_filename_component(name ${EXPECTED} NAME)
  file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/${name}.actual "${actual}")
  message(FATAL_ERROR "output differs from ${EXPECTED}; it was written to "
    "${CMAKE_CURRENT_BINARY_DIR}/${name}.actual:\n${actual}")
endif()
message(STATUS "output matches ${EXPECTED}")
