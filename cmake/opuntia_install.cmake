# `cmake --install <build> --prefix P`: the programs, and the package through which a project
# of its own builds its simulation program from the built-in thorns and its own
# (find_package(Opuntia); docs/outside-thorns.md):
#   P/bin/                         opuntia, opuntia-gen
#   P/lib/opuntia/                 the flesh, ccl, main() and every built-in thorn, compiled
#   P/include/opuntia/             the include root of thorn code: opuntia/, ccl/, flesh/, thorns/CaKernel/
#   P/share/opuntia/templates/     what opuntia-gen generates kernels from
#   P/share/opuntia/thorns/<Name>/ the built-in thorns' CCL files (inherits:, name clashes, reading)
#   P/lib/cmake/Opuntia/           OpuntiaConfig.cmake, its version, the targets, the CMake functions
# Every path in the installed files is relative to the file that holds it: the prefix may move.
include(CMakePackageConfigHelpers)
set(OPUNTIA_INSTALL_LIBDIR "${CMAKE_INSTALL_LIBDIR}/opuntia")
set(OPUNTIA_INSTALL_DATADIR "${CMAKE_INSTALL_DATADIR}/opuntia")
set(OPUNTIA_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/Opuntia")

set(builtin_thorn_targets)
foreach(thorn IN LISTS OPUNTIA_BUILTIN_THORNS)
  list(APPEND builtin_thorn_targets opuntia_thorn_${thorn})
endforeach()
# The programs find the libraries they were linked with outside the system's folders (CUDA's
# runtime) where the build found them.
set_target_properties(opuntia opuntia-gen PROPERTIES INSTALL_RPATH_USE_LINK_PATH TRUE)
install(TARGETS opuntia opuntia-gen EXPORT OpuntiaTargets RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
install(TARGETS opuntia_ccl opuntia_flesh opuntia_flesh_bindings opuntia_warnings opuntia_openmp_kernel_options
                opuntia_program_main ${builtin_thorn_targets}
        EXPORT OpuntiaTargets ARCHIVE DESTINATION "${OPUNTIA_INSTALL_LIBDIR}")
install(EXPORT OpuntiaTargets NAMESPACE opuntia:: DESTINATION "${OPUNTIA_INSTALL_CMAKEDIR}")

# Headers under the names thorn code and generated code include them by.
install(DIRECTORY flesh/include/opuntia DESTINATION "${OPUNTIA_INSTALL_INCLUDEDIR}")
install(DIRECTORY ccl flesh DESTINATION "${OPUNTIA_INSTALL_INCLUDEDIR}"
        FILES_MATCHING PATTERN "*.hpp" PATTERN "*.h" PATTERN "include" EXCLUDE)
install(DIRECTORY thorns/CaKernel DESTINATION "${OPUNTIA_INSTALL_INCLUDEDIR}/thorns"
        FILES_MATCHING PATTERN "*.hpp" PATTERN "*.h" PATTERN "*.cuh")

install(DIRECTORY templates/ DESTINATION "${OPUNTIA_INSTALL_DATADIR}/templates")
foreach(thorn IN LISTS OPUNTIA_BUILTIN_THORNS)
  install(DIRECTORY "thorns/${thorn}/" DESTINATION "${OPUNTIA_INSTALL_DATADIR}/thorns/${thorn}"
          FILES_MATCHING PATTERN "*.ccl" PATTERN "README.md" PATTERN "src" EXCLUDE PATTERN "backends" EXCLUDE
                         PATTERN "mpi" EXCLUDE)
endforeach()

# The build's choices the package carries: its backends (a project's thorns are generated and
# compiled for each), its CCTK_REAL, its services, and its thorns.
set(OPUNTIA_PACKAGE_OPTIONS "")
foreach(variable OPUNTIA_BACKENDS OPUNTIA_REAL_PRECISION OPUNTIA_ENABLE_CUDA OPUNTIA_ENABLE_OPENCL
                 OPUNTIA_ENABLE_MPI OPUNTIA_ENABLE_HDF5 OPUNTIA_CORE_THORNS OPUNTIA_APPLICATION_THORNS
                 OPUNTIA_BUILTIN_THORNS)
  string(APPEND OPUNTIA_PACKAGE_OPTIONS "set(${variable} \"${${variable}}\")\n")
endforeach()
string(APPEND OPUNTIA_PACKAGE_OPTIONS "set(OPUNTIA_HDF5_IS_PARALLEL \"${HDF5_IS_PARALLEL}\")\n"
                                      "set(OPUNTIA_PACKAGE_CUDA_ARCHITECTURES \"${CMAKE_CUDA_ARCHITECTURES}\")\n")
configure_package_config_file(cmake/OpuntiaConfig.cmake.in "${CMAKE_BINARY_DIR}/package/OpuntiaConfig.cmake"
  INSTALL_DESTINATION "${OPUNTIA_INSTALL_CMAKEDIR}"
  PATH_VARS OPUNTIA_INSTALL_DATADIR)
write_basic_package_version_file("${CMAKE_BINARY_DIR}/package/OpuntiaConfigVersion.cmake"
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES "${CMAKE_BINARY_DIR}/package/OpuntiaConfig.cmake" "${CMAKE_BINARY_DIR}/package/OpuntiaConfigVersion.cmake"
              cmake/opuntia_add_thorn.cmake cmake/opuntia_add_executable.cmake
        DESTINATION "${OPUNTIA_INSTALL_CMAKEDIR}")
