# cmake/tyjson_flags.cmake - the compile and link flags of tyjson's own
# targets. Nothing here is global (no add_compile_options): a project that
# adds tyjson as a subdirectory keeps its own flags, and its targets never
# see tyjson's -Werror, sanitizers or -march.

# Warnings of tyjson's code; tests, tools and examples use the list too.
set(TYJSON_WARNINGS -Wall -Wextra -Wpedantic)
if(TYJSON_WERROR)
  list(APPEND TYJSON_WARNINGS -Werror)
endif()

set(TYJSON_SANITIZE_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
set(TYJSON_SANITIZE_LINK_FLAGS -fsanitize=address,undefined)

# Sanitizers (TYJSON_SANITIZE) and -march=native (TYJSON_NATIVE) for one
# target; every target the project builds gets them, so that instrumented
# and plain code are never mixed in one test binary.
function(tyjson_instrument tgt)
  if(TYJSON_SANITIZE)
    target_compile_options(${tgt} PRIVATE ${TYJSON_SANITIZE_FLAGS})
    get_target_property(type ${tgt} TYPE)
    if(NOT type STREQUAL "STATIC_LIBRARY" AND NOT type STREQUAL "OBJECT_LIBRARY")
      target_link_options(${tgt} PRIVATE ${TYJSON_SANITIZE_LINK_FLAGS})
    endif()
  endif()
  if(TYJSON_NATIVE)
    target_compile_options(${tgt} PRIVATE -march=native)
  endif()
endfunction()

# Warnings (and -Werror) plus instrumentation: for the library's targets.
function(tyjson_apply_build_flags tgt)
  target_compile_options(${tgt} PRIVATE ${TYJSON_WARNINGS})
  tyjson_instrument(${tgt})
endfunction()

# Instruments every compiled target defined in directory `dir` and below
# (tests, examples, bench, tools): their own CMakeLists.txt need not know.
function(tyjson_instrument_directory dir)
  if(NOT TYJSON_SANITIZE AND NOT TYJSON_NATIVE)
    return()
  endif()
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  foreach(tgt ${targets})
    get_target_property(type ${tgt} TYPE)
    if(type MATCHES "^(EXECUTABLE|STATIC_LIBRARY|SHARED_LIBRARY|MODULE_LIBRARY|OBJECT_LIBRARY)$")
      get_target_property(imported ${tgt} IMPORTED)
      if(NOT imported)
        tyjson_instrument(${tgt})
      endif()
    endif()
  endforeach()
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(sub ${subdirs})
    tyjson_instrument_directory(${sub})
  endforeach()
endfunction()
