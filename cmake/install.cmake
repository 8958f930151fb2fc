# `cmake --install` puts the SDK where a consumer finds it (issue 9, part 7):
#   include/mcp/...                       the public headers (nothing under src/ is needed to use them)
#   lib/libmcp_*.a                        the layers, static
#   lib/cmake/mcp-trust/                  find_package(mcp-trust CONFIG) -> the target mcp-trust::mcp
#   lib/pkgconfig/mcp-trust.pc            pkg-config --cflags --libs mcp-trust
#   bin/                                  mcp-trust, mcp-inspect and the example servers
# tests/consumer/ builds the README's example against an installed copy, in CI.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(MCP_LAYERS mcp_core mcp_trust mcp_signature mcp_stdio mcp_server mcp_client mcp_http_client mcp_http)

# One target for users: every layer. Its exported name is mcp-trust::mcp.
add_library(mcp INTERFACE)
target_link_libraries(mcp INTERFACE ${MCP_LAYERS})
add_library(mcp-trust::mcp ALIAS mcp)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/mcp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS mcp ${MCP_LAYERS} EXPORT mcp-trust-targets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT mcp-trust-targets NAMESPACE mcp-trust:: FILE mcp-trust-targets.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/mcp-trust)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/mcp-trust-config.cmake.in
                              ${CMAKE_BINARY_DIR}/mcp-trust-config.cmake
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/mcp-trust)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/mcp-trust-config-version.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/mcp-trust-config.cmake ${CMAKE_BINARY_DIR}/mcp-trust-config-version.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/mcp-trust)

# pkg-config: the layers are static, so their own dependencies are listed for every link.
set(MCP_PC_LIBS "")
foreach(layer mcp_http mcp_http_client mcp_client mcp_server mcp_stdio mcp_signature mcp_trust mcp_core)  # users before used
  string(APPEND MCP_PC_LIBS " -l${layer}")
endforeach()
# The prefix is found from the file's own place, so `cmake --install --prefix DIR` anywhere works.
file(RELATIVE_PATH MCP_PC_UP /root/${CMAKE_INSTALL_LIBDIR}/pkgconfig /root)
configure_file(${CMAKE_CURRENT_LIST_DIR}/mcp-trust.pc.in ${CMAKE_BINARY_DIR}/mcp-trust.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/mcp-trust.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

install(TARGETS mcp-trust mcp-inspect everything-server everything-client file-manager
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
