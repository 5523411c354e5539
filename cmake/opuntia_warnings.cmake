# Warning flags for Opuntia's own targets (never for generated or third-party code).
add_library(opuntia_warnings INTERFACE)
add_library(opuntia::warnings ALIAS opuntia_warnings)
set_target_properties(opuntia_warnings PROPERTIES EXPORT_NAME warnings)
target_compile_options(opuntia_warnings INTERFACE
  $<$<COMPILE_LANG_AND_ID:CXX,GNU,Clang>:-Wall -Wextra -Wpedantic -Wshadow>)
