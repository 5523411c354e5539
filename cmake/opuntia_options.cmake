# opuntia_optional_dependency(<NAME> <description> <find_package args...>)
# Looks for a package quietly and defines OPUNTIA_ENABLE_<NAME>, defaulting to
# whether it was found. Asking for ON when the package is missing is an error,
# so a misconfigured machine fails at configure time rather than at run time.
macro(opuntia_optional_dependency name description)
  find_package(${ARGN} QUIET)
  set(_opuntia_package "${ARGV2}")
  if(${_opuntia_package}_FOUND)
    set(_opuntia_found ON)
  else()
    set(_opuntia_found OFF)
  endif()
  option(OPUNTIA_ENABLE_${name} "${description}" ${_opuntia_found})
  if(OPUNTIA_ENABLE_${name} AND NOT _opuntia_found)
    message(FATAL_ERROR "OPUNTIA_ENABLE_${name}=ON but ${_opuntia_package} was not found")
  endif()
endmacro()
