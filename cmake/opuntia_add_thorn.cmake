# opuntia_add_thorn(<Name> [DIR <dir>] [BACKENDS <backend>...])
#
# Runs opuntia-gen on thorns/<Name> (or DIR) and builds the result into the static library
# `opuntia_thorn_<Name>` (alias `opuntia::thorn::<Name>`). The generator runs again only when
# one of this thorn's CCL files, a template, or the generator itself changes; it rewrites only
# files whose content changed, so an edit recompiles only what it touches.
find_package(OpenMP REQUIRED COMPONENTS CXX)

function(opuntia_add_thorn name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "DIR" "BACKENDS")
  if(NOT arg_DIR)
    set(arg_DIR "${OPUNTIA_THORN_DIR}/${name}")
  endif()
  if(NOT arg_BACKENDS)
    set(arg_BACKENDS openmp)
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
    set(wrapper "${out}/${name}/${backend}/${name}_${backend}.cpp")
    file(CONFIGURE OUTPUT "${wrapper}" CONTENT "#include \"${name}_sources.inc\"\n")
    list(APPEND wrappers "${wrapper}")
  endforeach()

  add_custom_command(
    OUTPUT "${stamp}"
    BYPRODUCTS ${byproducts}
    COMMAND opuntia-gen generate --thorn "${arg_DIR}" --templates "${OPUNTIA_TEMPLATE_DIR}" --out "${out}"
            ${backend_args} --stamp "${stamp}"
    DEPENDS opuntia-gen ${descriptors} ${templates} ${bodies}
    COMMENT "opuntia-gen: generating thorn ${name}"
    VERBATIM)

  # Order-only: generation runs before compiling, and a run that changes no file's content
  # recompiles nothing (the compiler's dependency files track the generated headers).
  add_custom_target(opuntia_generate_${name} DEPENDS "${stamp}")
  add_library(opuntia_thorn_${name} STATIC "${bindings}" ${wrappers})
  add_dependencies(opuntia_thorn_${name} opuntia_generate_${name})
  add_library(opuntia::thorn::${name} ALIAS opuntia_thorn_${name})
  target_include_directories(opuntia_thorn_${name}
    PUBLIC "${out}/${name}/bindings"
    PRIVATE "${arg_DIR}")
  # Public: the runtime includes a kernel's header for its Params and Arrays structs.
  foreach(backend IN LISTS arg_BACKENDS)
    target_include_directories(opuntia_thorn_${name} PUBLIC "${out}/${name}/${backend}")
  endforeach()
  target_link_libraries(opuntia_thorn_${name} PUBLIC opuntia::flesh_bindings OpenMP::OpenMP_CXX)
endfunction()
