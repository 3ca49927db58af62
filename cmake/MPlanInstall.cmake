# Install and export rules: `cmake --install build --prefix DIR` installs the
# headers (with the generated .inc files), the libraries, the tools and
# DIR/lib/cmake/mplan/MPlanConfig.cmake, so a downstream project can do
#   find_package(MPlan REQUIRED CONFIG)   # -DMPlan_DIR=DIR/lib/cmake/mplan
#   target_link_libraries(my-opt PRIVATE MPlan::MPlanTransforms ...)
# See docs/embedding.md and examples/downstream/.

include(CMakePackageConfigHelpers)
include(GNUInstallDirs)

set(MPLAN_INSTALL_CMAKE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/mplan")

# Headers: the sources (.h, .td) and the tablegen output (.inc).
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/mplan
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  COMPONENT mplan-headers
  FILES_MATCHING PATTERN "*.h" PATTERN "*.td" PATTERN "*.def")
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/mplan
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  COMPONENT mplan-headers
  FILES_MATCHING PATTERN "*.inc" PATTERN "*.h"
  PATTERN "CMakeFiles" EXCLUDE)

# The planner library is a plain CMake library: give it an include directory
# that is valid in the installed tree too.
set_target_properties(MPlanSupport PROPERTIES INTERFACE_INCLUDE_DIRECTORIES
  "$<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>;$<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>")
set(MPLAN_EXPORTED_LIBS MPlanSupport)
if(MPLAN_ENABLE_MLIR)
  foreach(lib MPlanDialect MPlanAnalysis MPlanTransforms MPlanToMemRef MPlanToLLVM)
    if(TARGET ${lib})
      list(APPEND MPLAN_EXPORTED_LIBS ${lib})
      set_property(TARGET ${lib} APPEND PROPERTY INTERFACE_INCLUDE_DIRECTORIES
        "$<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>")
    endif()
  endforeach()
endif()
install(TARGETS ${MPLAN_EXPORTED_LIBS}
  EXPORT MPlanTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT mplan-libraries
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT mplan-libraries)

# Tools. They find libMLIR.so / libLLVM.so in the LLVM this was built with.
foreach(tool mplan-opt mplan-plan)
  if(TARGET ${tool})
    set_property(TARGET ${tool} APPEND PROPERTY INSTALL_RPATH "${LLVM_LIBRARY_DIR}")
    install(TARGETS ${tool} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
      COMPONENT mplan-tools)
  endif()
endforeach()

install(EXPORT MPlanTargets
  NAMESPACE MPlan::
  FILE MPlanTargets.cmake
  DESTINATION ${MPLAN_INSTALL_CMAKE_DIR}
  COMPONENT mplan-cmake)
configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/MPlanConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/MPlanConfig.cmake
  INSTALL_DESTINATION ${MPLAN_INSTALL_CMAKE_DIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_BINDIR CMAKE_INSTALL_LIBDIR)
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/cmake/MPlanConfigVersion.cmake
  VERSION ${MPLAN_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/cmake/MPlanConfig.cmake
  ${PROJECT_BINARY_DIR}/cmake/MPlanConfigVersion.cmake
  DESTINATION ${MPLAN_INSTALL_CMAKE_DIR}
  COMPONENT mplan-cmake)
