# fuzz/replay.cmake - the fuzz harnesses without libFuzzer, as ordinary tests.
# Included from tests/CMakeLists.txt (after TYJSON_SHARED_DIR is set):
#
#   include(${PROJECT_SOURCE_DIR}/fuzz/replay.cmake)
#
# For each fuzz/fuzz_<name>.c: an executable replay_<name> (the harness plus
# standalone.c's main, linked with tyjson_static) and a ctest entry replaying
# fuzz/seeds/<name>/. The parse harness also replays the conformance suite and
# the corpus, when present, under several flag prefixes (first byte: read
# flags, second: write flags; see fuzz_parse.c).
set(TYJSON_FUZZ_DIR ${CMAKE_CURRENT_LIST_DIR})
file(GLOB TYJSON_REPLAY_SOURCES CONFIGURE_DEPENDS ${TYJSON_FUZZ_DIR}/fuzz_*.c)
foreach(src ${TYJSON_REPLAY_SOURCES})
  get_filename_component(target ${src} NAME_WE)
  string(REGEX REPLACE "^fuzz_" "" name ${target})
  add_executable(replay_${name} ${src} ${TYJSON_FUZZ_DIR}/standalone.c)
  target_compile_options(replay_${name} PRIVATE ${TYJSON_WARNINGS})
  target_include_directories(replay_${name} PRIVATE ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(replay_${name} PRIVATE tyjson_static)
  if(EXISTS ${TYJSON_FUZZ_DIR}/seeds/${name})
    add_test(NAME replay_${name} COMMAND replay_${name} ${TYJSON_FUZZ_DIR}/seeds/${name})
    set_tests_properties(replay_${name} PROPERTIES TIMEOUT 600)
  endif()
endforeach()

if(TARGET replay_parse)
  # Prefixes: strict; STOP_WHEN_DONE + pretty; every read and write flag;
  # duplicate-key rejection + escaped output; invalid UTF-8 + replacement.
  set(TYJSON_REPLAY_PREFIXES -prefix=0000 -prefix=2001 -prefix=ff3f -prefix=4046 -prefix=1010)
  set(conformance ${TYJSON_SHARED_DIR}/conformance/test_parsing)
  if(EXISTS ${conformance})
    set(args)
    foreach(prefix ${TYJSON_REPLAY_PREFIXES})
      list(APPEND args ${prefix} ${conformance})
    endforeach()
    # Last, with no prefix: the files' own first bytes pick the flags.
    add_test(NAME replay_parse_conformance COMMAND replay_parse ${args} -prefix= ${conformance})
    set_tests_properties(replay_parse_conformance PROPERTIES TIMEOUT 600)
  endif()
  set(corpus ${TYJSON_SHARED_DIR}/corpus)
  if(EXISTS ${corpus})
    add_test(NAME replay_parse_corpus
      COMMAND replay_parse -prefix=0000 ${corpus} -prefix=4003 ${corpus})
    set_tests_properties(replay_parse_corpus PROPERTIES TIMEOUT 600)
  endif()
endif()

if(TARGET replay_paths AND EXISTS ${TYJSON_SHARED_DIR}/conformance/test_parsing)
  # The two paths on the conformance suite: strict, STOP_WHEN_DONE,
  # duplicate-key rejection with big numbers as text, every flag.
  set(conformance ${TYJSON_SHARED_DIR}/conformance/test_parsing)
  add_test(NAME replay_paths_conformance COMMAND replay_paths -prefix=00 ${conformance}
    -prefix=20 ${conformance} -prefix=c0 ${conformance} -prefix=ff ${conformance})
  set_tests_properties(replay_paths_conformance PROPERTIES TIMEOUT 600)
endif()

# The reader harness also replays the conformance suite: strict, and every
# relaxation (prefix bytes: read flags, chunking seed).
if(TARGET replay_reader AND EXISTS ${TYJSON_SHARED_DIR}/conformance/test_parsing)
  set(conformance ${TYJSON_SHARED_DIR}/conformance/test_parsing)
  add_test(NAME replay_reader_conformance COMMAND replay_reader
    -prefix=0001 ${conformance} -prefix=df07 ${conformance} -prefix=4029 ${conformance})
  set_tests_properties(replay_reader_conformance PROPERTIES TIMEOUT 600)
endif()
