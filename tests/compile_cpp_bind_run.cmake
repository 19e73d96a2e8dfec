# One cell of the compile_cpp_bind matrix (see compile_cpp_bind.cmake):
# compile SRC with COMPILER in standard STD, link against LIB, run it.
if(NOT COMPILER OR NOT EXISTS "${COMPILER}")
  message("SKIPPED: ${LABEL} is not installed")
  return()
endif()
if(STD MATCHES "^c[0-9]")
  set(lang_flags -x c -std=${STD})      # the same file as C
else()
  set(lang_flags -std=${STD})
endif()
execute_process(
  COMMAND ${COMPILER} ${lang_flags} -Wall -Wextra -Wpedantic -Werror -I${INCLUDE}
          -c ${SRC} -o ${OUT}.o
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${LABEL} -std=${STD} failed to compile ${SRC}")
endif()
separate_arguments(link_flags UNIX_COMMAND "${LINK_FLAGS}")
execute_process(COMMAND ${LINKER} ${link_flags} ${OUT}.o ${LIB} -lm -o ${OUT}
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "linking ${OUT} failed")
endif()
execute_process(COMMAND ${OUT} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${OUT} failed (exit ${rc})")
endif()
