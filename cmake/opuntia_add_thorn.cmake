# opuntia_add_thorn(<Name> [DIR <dir>] [BACKENDS <backend>...])
#
# Runs opuntia-gen on thorns/<Name> (or DIR) and builds the result into the static library
# `opuntia_thorn_<Name>` (alias `opuntia::thorn::<Name>`). The generator runs again only when
# one of this thorn's CCL files, a template, or the generator itself changes; it rewrites only
# files whose content changed, so an edit recompiles only what it touches.
#
# The same file serves this repository's build and the installed package (OpuntiaConfig.cmake),
# which set OPUNTIA_TEMPLATE_DIR, OPUNTIA_THORN_DIR (the built-in thorns' folders) and
# OPUNTIA_BACKENDS, and provide the targets opuntia::opuntia-gen, opuntia::flesh,
# opuntia::warnings, opuntia::openmp_kernel_options and opuntia::thorn::<Name> of the built-in
# thorns.
find_package(OpenMP REQUIRED COMPONENTS CXX)

function(opuntia_add_thorn name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "DIR" "BACKENDS")
  if(NOT arg_DIR)
    set(arg_DIR "${OPUNTIA_THORN_DIR}/${name}")
  endif()
  # The real path: the generator's diagnostics name the files a person edits, and one thorn
  # reached by two spellings is one thorn.
  file(REAL_PATH "${arg_DIR}" arg_DIR)
  # Messages: each folder on a line of its own, indented, which CMake prints as it is.
  if(NOT name MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    message(FATAL_ERROR "opuntia: the name of this thorn, its folder's, is no C++ identifier:\n"
                        "    ${arg_DIR}\n"
                        "rename the folder: letters, digits and _, not starting with a digit")
  endif()
  get_filename_component(folder_name "${arg_DIR}" NAME)
  if(NOT folder_name STREQUAL name)
    message(FATAL_ERROR "opuntia: opuntia_add_thorn(${name}) is given the folder\n"
                        "    ${arg_DIR}\n"
                        "whose thorn opuntia-gen names ${folder_name}: a thorn's name is its folder's")
  endif()
  # A thorn already added under this name, compared as ActiveThorns and the parameter registry
  # compare names, without case: two that differ only in case would be one thorn registered
  # twice when the program starts.
  get_property(known GLOBAL PROPERTY OPUNTIA_THORNS)
  string(TOLOWER "${name}" lower)
  foreach(other IN LISTS known)
    string(TOLOWER "${other}" other_lower)
    if(NOT other_lower STREQUAL lower)
      continue()
    endif()
    get_target_property(existing opuntia::thorn::${other} OPUNTIA_THORN_DIR)
    if(other STREQUAL name AND existing STREQUAL arg_DIR)
      return()  # the same thorn again, as when two programs of a project share it
    elseif(other STREQUAL name)
      message(FATAL_ERROR "opuntia: two thorns are named ${name}:\n    ${existing}\n    ${arg_DIR}\n"
                          "a program holds one thorn of each name: rename one folder, or leave one out")
    endif()
    message(FATAL_ERROR "opuntia: two thorns are named ${other} and ${name}:\n    ${existing}\n    ${arg_DIR}\n"
                        "thorn names are case-insensitive, and a program holds one thorn of each name: rename one "
                        "folder, or leave one out")
  endforeach()
  if(NOT arg_BACKENDS)
    set(arg_BACKENDS ${OPUNTIA_BACKENDS})
  endif()
  set(out "${CMAKE_BINARY_DIR}/generated")
  set(stamp "${out}/${name}/${name}.stamp")

  set(descriptors)
  foreach(ccl interface.ccl param.ccl schedule.ccl cakernel.ccl)
    if(EXISTS "${arg_DIR}/${ccl}")
      list(APPEND descriptors "${arg_DIR}/${ccl}")
    endif()
  endforeach()
  file(GLOB_RECURSE templates CONFIGURE_DEPENDS "${OPUNTIA_TEMPLATE_DIR}/*")
  # The generator checks that each kernel's body exists: adding or removing one reruns it.
  file(GLOB_RECURSE bodies CONFIGURE_DEPENDS "${arg_DIR}/src/*")
  # A thorn outside the built-in ones' folder may inherit from them: the generator reads their
  # interfaces too (it finds a thorn's siblings itself).
  set(library_args)
  get_filename_component(parent "${arg_DIR}" DIRECTORY)
  file(REAL_PATH "${OPUNTIA_THORN_DIR}" builtin_dir)
  if(NOT parent STREQUAL builtin_dir)
    foreach(builtin IN LISTS OPUNTIA_BUILTIN_THORNS)
      list(APPEND library_args --library "${builtin_dir}/${builtin}")
      list(APPEND descriptors "${builtin_dir}/${builtin}/interface.ccl")
    endforeach()
  endif()

  set(bindings "${out}/${name}/bindings/${name}_bindings.cpp")
  set(byproducts "${bindings}" "${out}/${name}/bindings/${name}_parameters.hpp"
                 "${out}/${name}/bindings/${name}_grid_functions.hpp")
  set(backend_args)
  set(wrappers)
  foreach(backend IN LISTS arg_BACKENDS)
    list(APPEND backend_args --backend ${backend})
    set(source_list "${out}/${name}/${backend}/${name}_sources.inc")
    list(APPEND byproducts "${source_list}")
    # One translation unit per thorn and backend includes the generated ones (their names
    # come from the descriptor, which CMake cannot read at configure time).
    # CUDA translation units go through nvcc: their wrapper is a .cu file.
    set(extension cpp)
    if(backend STREQUAL "cuda")
      set(extension cu)
    endif()
    set(wrapper "${out}/${name}/${backend}/${name}_${backend}.${extension}")
    file(CONFIGURE OUTPUT "${wrapper}" CONTENT "#include \"${name}_sources.inc\"\n")
    list(APPEND wrappers "${wrapper}")
  endforeach()

  add_custom_command(
    OUTPUT "${stamp}"
    BYPRODUCTS ${byproducts}
    COMMAND opuntia::opuntia-gen generate --thorn "${arg_DIR}" --templates "${OPUNTIA_TEMPLATE_DIR}" --out "${out}"
            ${backend_args} ${library_args} --stamp "${stamp}"
    DEPENDS opuntia::opuntia-gen ${descriptors} ${templates} ${bodies}
    COMMENT "opuntia-gen: generating thorn ${name}"
    VERBATIM)

  # Order-only: generation runs before compiling, and a run that changes no file's content
  # recompiles nothing (the compiler's dependency files track the generated headers).
  add_custom_target(opuntia_generate_${name} DEPENDS "${stamp}")
  # The thorn's own C++: host routines in src/, and backend code in backends/<backend>/.
  file(GLOB host_sources CONFIGURE_DEPENDS "${arg_DIR}/src/*.cpp")
  foreach(backend IN LISTS arg_BACKENDS)
    file(GLOB backend_sources CONFIGURE_DEPENDS "${arg_DIR}/backends/${backend}/*.cpp"
                                                "${arg_DIR}/backends/${backend}/*.cu")
    list(APPEND host_sources ${backend_sources})
  endforeach()
  add_library(opuntia_thorn_${name} STATIC "${bindings}" ${wrappers} ${host_sources})
  add_dependencies(opuntia_thorn_${name} opuntia_generate_${name})
  add_library(opuntia::thorn::${name} ALIAS opuntia_thorn_${name})
  # Where the thorn comes from (name clashes name both folders), and whether it provides
  # something to the program: a thorn that does (a driver, a kernel runtime, a command) defines
  # `void opuntia::thorns::<Name>::provide(opuntia::providers&)` in src/provide.cpp. The
  # installed package keeps the second, and sets the first to its copy of the thorn's CCL files.
  set(provides FALSE)
  if(EXISTS "${arg_DIR}/src/provide.cpp")
    set(provides TRUE)
  endif()
  set_target_properties(opuntia_thorn_${name} PROPERTIES
    OPUNTIA_THORN_DIR "${arg_DIR}"
    OPUNTIA_THORN_PROVIDES ${provides}
    EXPORT_NAME thorn::${name}
    EXPORT_PROPERTIES OPUNTIA_THORN_PROVIDES)
  # The generated headers are this build's: a thorn compiled into the installed package needs
  # none of them in the programs that link it.
  target_include_directories(opuntia_thorn_${name}
    PUBLIC "$<BUILD_INTERFACE:${out}/${name}/bindings>"
    PRIVATE "${arg_DIR}")
  # Public: the runtime includes a kernel's header for its Params and Arrays structs.
  foreach(backend IN LISTS arg_BACKENDS)
    target_include_directories(opuntia_thorn_${name} PUBLIC "$<BUILD_INTERFACE:${out}/${name}/${backend}>")
  endforeach()
  target_link_libraries(opuntia_thorn_${name} PUBLIC opuntia::flesh OpenMP::OpenMP_CXX)
  target_link_libraries(opuntia_thorn_${name} PRIVATE opuntia::warnings)  # C++ flags only
  # The OpenMP kernels' vector width (OPUNTIA_OPENMP_VECTOR_WIDTH, top CMakeLists.txt).
  target_link_libraries(opuntia_thorn_${name} PRIVATE opuntia::openmp_kernel_options)
  if("cuda" IN_LIST arg_BACKENDS)
    target_link_libraries(opuntia_thorn_${name} PUBLIC CUDA::cudart)
    # What CMake 3.25 knows for nvcc; generated kernels need no more.
    set_target_properties(opuntia_thorn_${name} PROPERTIES CUDA_STANDARD 17 CUDA_STANDARD_REQUIRED ON)
    # No fused multiply-adds in kernels, as OpenMP (fp-contract=off) and OpenCL (FP_CONTRACT
    # OFF): a body gives the same bits on every backend.
    target_compile_options(opuntia_thorn_${name} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--fmad=false>)
  endif()
  if("opencl" IN_LIST arg_BACKENDS)
    # Generated OpenCL launchers get their programs and queue from CaKernel's OpenCL backend.
    target_link_libraries(opuntia_thorn_${name} PUBLIC OpenCL::OpenCL)
    if(NOT name STREQUAL "CaKernel")
      target_link_libraries(opuntia_thorn_${name} PUBLIC opuntia::thorn::CaKernel)
    endif()
  endif()
  set_property(GLOBAL APPEND PROPERTY OPUNTIA_THORNS ${name})
endfunction()

# opuntia_write_thorn_list(<file> <what> <thorn>...): writes the C++ that makes a set of compiled
# thorns known to a program, `std::vector<opuntia::thorn_binding> opuntia::compiled_thorns()`,
# and what they provide, `opuntia::providers opuntia::compiled_providers()`.
function(opuntia_write_thorn_list file what)
  set(declarations "")
  set(calls "")
  set(provide_calls "")
  foreach(thorn IN LISTS ARGN)
    string(APPEND declarations "namespace opuntia::thorns::${thorn} { opuntia::thorn_binding binding(); }\n")
    string(APPEND calls "      opuntia::thorns::${thorn}::binding(),\n")
    get_target_property(provides opuntia::thorn::${thorn} OPUNTIA_THORN_PROVIDES)
    if(provides)
      string(APPEND declarations "namespace opuntia::thorns::${thorn} { void provide(opuntia::providers&); }\n")
      string(APPEND provide_calls "  provided.add(\"${thorn}\", &opuntia::thorns::${thorn}::provide);\n")
    endif()
  endforeach()
  file(CONFIGURE OUTPUT "${file}" CONTENT "// Generated by CMake: the thorns of ${what}.
#include <vector>

#include \"flesh/runtime/providers.hpp\"
#include \"opuntia/binding.hpp\"

${declarations}
namespace opuntia {
std::vector<thorn_binding> compiled_thorns() {
  return {
${calls}  };
}

providers compiled_providers() {
  providers provided;
${provide_calls}  return provided;
}
}  // namespace opuntia
")
endfunction()

# opuntia_add_thorn_list([TARGET <target>] [THORNS <thorn>...]): the library that knows a set of
# compiled thorns (opuntia_write_thorn_list). By default every thorn added so far, as
# `opuntia::thorns`, for the tests and benchmarks that run the program's thorns without its
# main(); a test names its own target and thorns. A program is opuntia_add_executable's.
function(opuntia_add_thorn_list)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "TARGET" "THORNS")
  if(arg_THORNS)
    set(thorns ${arg_THORNS})
  else()
    get_property(thorns GLOBAL PROPERTY OPUNTIA_THORNS)
  endif()
  set(list_source "${CMAKE_BINARY_DIR}/generated/${arg_TARGET}_thorn_list.cpp")
  if(NOT arg_TARGET)
    set(arg_TARGET opuntia_thorns)
    set(list_source "${CMAKE_BINARY_DIR}/generated/thorn_list.cpp")
  endif()
  opuntia_write_thorn_list("${list_source}" "${arg_TARGET}" ${thorns})
  add_library(${arg_TARGET} STATIC "${list_source}")
  if(arg_TARGET STREQUAL "opuntia_thorns")
    add_library(opuntia::thorns ALIAS opuntia_thorns)
  endif()
  foreach(thorn IN LISTS thorns)
    target_link_libraries(${arg_TARGET} PUBLIC opuntia::thorn::${thorn})
  endforeach()
  set_property(TARGET ${arg_TARGET} PROPERTY OPUNTIA_THORN_NAMES ${thorns})
endfunction()
