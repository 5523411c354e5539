# Programs made of thorns: this repository's `opuntia`, its tests' configurations, and a user
# project's own (through the installed package, OpuntiaConfig.cmake). Needs opuntia_add_thorn.cmake,
# OPUNTIA_CORE_THORNS (the thorns every program holds) and the target opuntia::program_main.

# opuntia_find_thorns(<out_var> <folder>...): the thorn folders among <folder>s, as real paths,
# each once. A folder holding interface.ccl, param.ccl or schedule.ccl is a thorn; any other is
# searched one level down for thorns (a repository of thorns, as thorns/ here). Relative folders
# are relative to the current source folder. A folder that does not exist, or holds no thorn, is
# an error: a misspelt path would otherwise leave a thorn out without a word.
function(opuntia_find_thorns out_var)
  set(found)
  foreach(folder IN LISTS ARGN)
    file(REAL_PATH "${folder}" real)
    if(NOT IS_DIRECTORY "${real}")
      message(FATAL_ERROR "opuntia: this folder of thorns does not exist:\n    ${real}")
    endif()
    _opuntia_is_thorn(is_thorn "${real}")
    if(is_thorn)
      list(APPEND found "${real}")
      continue()
    endif()
    _opuntia_refuse_misnamed_thorn("${real}")
    # CONFIGURE_DEPENDS: a thorn folder added later (opuntia-gen new-thorn) is found by the next
    # build, which configures again, where a plain glob would leave it out in silence.
    file(GLOB entries CONFIGURE_DEPENDS LIST_DIRECTORIES true "${real}/*")
    set(inside)
    foreach(entry IN LISTS entries)
      _opuntia_is_thorn(is_thorn "${entry}")
      if(is_thorn)
        file(REAL_PATH "${entry}" entry)  # a link to a thorn: the thorn is named after its folder
        list(APPEND inside "${entry}")
      elseif(IS_DIRECTORY "${entry}")
        _opuntia_refuse_misnamed_thorn("${entry}")
      endif()
    endforeach()
    if(NOT inside)
      message(FATAL_ERROR "opuntia: no thorn in this folder:\n"
                          "    ${real}\n"
                          "a thorn is a folder holding interface.ccl, param.ccl or schedule.ccl:\n"
                          "give a thorn's folder, or a folder that holds thorn folders")
    endif()
    list(APPEND found ${inside})
  endforeach()
  list(REMOVE_DUPLICATES found)  # a folder named twice, or through a link
  set(${out_var} ${found} PARENT_SCOPE)
endfunction()

# A folder with a thorn's files under other spellings (Interface.ccl, SCHEDULE.CCL): Cactus's
# names are lower case, and such a folder would be no thorn, left out of the program in silence.
function(_opuntia_refuse_misnamed_thorn folder)
  file(GLOB files "${folder}/*")
  set(misnamed)
  foreach(file IN LISTS files)
    get_filename_component(name "${file}" NAME)
    string(TOLOWER "${name}" lower)
    if(lower MATCHES "^(interface|param|schedule|cakernel)\\.ccl$" AND NOT name STREQUAL lower)
      list(APPEND misnamed "${name}")
    endif()
  endforeach()
  if(misnamed)
    list(JOIN misnamed ", " misnamed)
    message(FATAL_ERROR "opuntia: this folder holds ${misnamed}, but a thorn's files are named in lower case "
                        "(interface.ccl, param.ccl, schedule.ccl, cakernel.ccl):\n"
                        "    ${folder}\n"
                        "rename them, or the folder is no thorn")
  endif()
endfunction()

function(_opuntia_is_thorn out_var folder)
  set(${out_var} FALSE PARENT_SCOPE)
  if(IS_DIRECTORY "${folder}")
    foreach(ccl interface.ccl param.ccl schedule.ccl)
      if(EXISTS "${folder}/${ccl}")
        set(${out_var} TRUE PARENT_SCOPE)
      endif()
    endforeach()
  endif()
endfunction()

# opuntia_add_thorns(<out_var> <folder>...): opuntia_add_thorn for every thorn that
# opuntia_find_thorns finds; their names, in that order.
function(opuntia_add_thorns out_var)
  opuntia_find_thorns(folders ${ARGN})
  set(names)
  foreach(folder IN LISTS folders)
    get_filename_component(name "${folder}" NAME)
    opuntia_add_thorn(${name} DIR "${folder}")
    list(APPEND names ${name})
  endforeach()
  set(${out_var} ${names} PARENT_SCOPE)
endfunction()

# opuntia_add_executable(<target> [THORNS <folder>...] [BUILTIN <thorn>...])
#
# A simulation program, as `opuntia`: program/main.cpp with the core thorns
# (OPUNTIA_CORE_THORNS: Cactus Driver Time CaKernel IO, and IOASCII NaNChecker IOHDF5 where
# built), the BUILTIN thorns named (already added: the package's, or this build's), and the
# thorns found in the THORNS folders (opuntia_find_thorns), generated and compiled here:
#   opuntia_add_executable(my_sim THORNS thorns BUILTIN HeatEquation)
# The target property OPUNTIA_THORN_NAMES lists its thorns.
function(opuntia_add_executable target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "THORNS;BUILTIN")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "opuntia_add_executable(${target}): unexpected arguments ${arg_UNPARSED_ARGUMENTS} "
                        "(expected THORNS <folder>... and BUILTIN <thorn>...)")
  endif()
  get_property(known GLOBAL PROPERTY OPUNTIA_THORNS)
  foreach(name IN LISTS arg_BUILTIN)
    if(NOT TARGET opuntia::thorn::${name})
      list(JOIN known " " known_text)
      message(FATAL_ERROR "opuntia_add_executable(${target}): no thorn ${name} is built in\n"
                          "the thorns there are: ${known_text}")
    endif()
  endforeach()
  opuntia_add_thorns(own ${arg_THORNS})
  set(thorns ${OPUNTIA_CORE_THORNS} ${arg_BUILTIN} ${own})
  list(REMOVE_DUPLICATES thorns)

  set(list_source "${CMAKE_BINARY_DIR}/generated/programs/${target}_thorns.cpp")
  opuntia_write_thorn_list("${list_source}" "program ${target}" ${thorns})
  add_executable(${target} "${list_source}")
  # main() comes from a library: the linker takes it from there, before the thorns it needs.
  target_link_libraries(${target} PRIVATE opuntia::program_main)
  foreach(thorn IN LISTS thorns)
    target_link_libraries(${target} PRIVATE opuntia::thorn::${thorn})
  endforeach()
  set_property(TARGET ${target} PROPERTY OPUNTIA_THORN_NAMES ${thorns})
endfunction()
