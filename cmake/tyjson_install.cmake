# cmake/tyjson_install.cmake - install rules (TYJSON_INSTALL, on by default
# when tyjson is the top-level project): headers, libraries, the CMake
# package (tyjson::tyjson and tyjson::tyjson_static) and two pkg-config
# modules: tyjson (the shared library when built, else the static one) and
# tyjson-static (always the static archive, by its path).
install(FILES include/tyjson.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY include/tyjson DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS ${TYJSON_INSTALL_TARGETS} EXPORT tyjsonTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(EXPORT tyjsonTargets NAMESPACE tyjson::
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/tyjson)
configure_package_config_file(cmake/tyjsonConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/tyjsonConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/tyjson)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/tyjsonConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/tyjsonConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/tyjsonConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/tyjson)

# The .pc files locate the prefix from their own place, so that
# `cmake --install --prefix DIR` gives working files whatever DIR is.
file(RELATIVE_PATH TYJSON_PC_TO_PREFIX "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
if(TYJSON_LIBM)
  set(TYJSON_PC_LIBM "-l${TYJSON_LIBM}")
else()
  set(TYJSON_PC_LIBM "")
endif()
# The parallel NDJSON calls need pthreads: -pthread for static links.
if(TYJSON_THREADS_LIB)
  set(TYJSON_PC_THREADS "-pthread")
else()
  set(TYJSON_PC_THREADS "")
endif()
# tyjson.pc: -ltyjson, which the linker resolves to the shared library when
# there is one. Its users then need dllimport on Windows (TYJSON_SHARED).
if(TYJSON_BUILD_SHARED)
  set(TYJSON_PC_CFLAGS "-DTYJSON_SHARED")
else()
  set(TYJSON_PC_CFLAGS "")
endif()
get_target_property(TYJSON_STATIC_NAME tyjson_static OUTPUT_NAME)
set(TYJSON_STATIC_FILE
  "${CMAKE_STATIC_LIBRARY_PREFIX}${TYJSON_STATIC_NAME}${CMAKE_STATIC_LIBRARY_SUFFIX}")
configure_file(cmake/tyjson.pc.in ${CMAKE_CURRENT_BINARY_DIR}/tyjson.pc @ONLY)
configure_file(cmake/tyjson-static.pc.in ${CMAKE_CURRENT_BINARY_DIR}/tyjson-static.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/tyjson.pc ${CMAKE_CURRENT_BINARY_DIR}/tyjson-static.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
