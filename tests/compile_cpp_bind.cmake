# Registers compile_cpp_bind.cpp once per compiler and language standard:
# g++ and clang++ in C++11, 14, 17 and 20, gcc and clang as C11. Each test
# compiles the file with that compiler under -Wall -Wextra -Wpedantic
# -Werror, links it with the project's C++ compiler against tyjson_static
# and runs it (tests/compile_cpp_bind_run.cmake). A compiler that is not
# installed gives a skipped test, not a missing one.
find_program(TYJSON_GXX NAMES g++)
find_program(TYJSON_CLANGXX NAMES clang++)
find_program(TYJSON_GCC NAMES gcc)
find_program(TYJSON_CLANG NAMES clang)

set(TYJSON_BIND_MATRIX
  "g++|TYJSON_GXX|c++11" "g++|TYJSON_GXX|c++14" "g++|TYJSON_GXX|c++17" "g++|TYJSON_GXX|c++20"
  "clang++|TYJSON_CLANGXX|c++11" "clang++|TYJSON_CLANGXX|c++14"
  "clang++|TYJSON_CLANGXX|c++17" "clang++|TYJSON_CLANGXX|c++20"
  "gcc|TYJSON_GCC|c11" "clang|TYJSON_CLANG|c11")
set(TYJSON_BIND_LINK_FLAGS "")
if(TYJSON_SANITIZE)
  # The library is instrumented: link with the sanitizer runtime of the
  # compiler that built it (the test object itself is not instrumented).
  set(TYJSON_BIND_LINK_FLAGS "-fsanitize=address,undefined")
endif()

foreach(entry ${TYJSON_BIND_MATRIX})
  string(REPLACE "|" ";" entry "${entry}")
  list(GET entry 0 label)
  list(GET entry 1 var)
  list(GET entry 2 std)
  set(name "compile_cpp_bind.${label}.${std}")
  add_test(NAME ${name} COMMAND ${CMAKE_COMMAND}
    -DCOMPILER=${${var}}
    -DLABEL=${label}
    -DSTD=${std}
    -DSRC=${CMAKE_CURRENT_SOURCE_DIR}/compile_cpp_bind.cpp
    -DINCLUDE=${PROJECT_SOURCE_DIR}/include
    -DLIB=$<TARGET_FILE:tyjson_static>
    -DLINKER=${CMAKE_CXX_COMPILER}
    -DLINK_FLAGS=${TYJSON_BIND_LINK_FLAGS}
    -DOUT=${CMAKE_CURRENT_BINARY_DIR}/${name}
    -P ${CMAKE_CURRENT_SOURCE_DIR}/compile_cpp_bind_run.cmake)
  set_tests_properties(${name} PROPERTIES
    PASS_REGULAR_EXPRESSION "all checks passed"
    SKIP_REGULAR_EXPRESSION "SKIPPED: "
    TIMEOUT 300)
endforeach()
