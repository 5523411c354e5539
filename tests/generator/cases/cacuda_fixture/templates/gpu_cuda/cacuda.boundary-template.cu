#include "%{name}_boundary.h"
__global__ void CAKERNEL_%{name}(%var_loop("delimit=, ") %[CCTK_REAL *%vname]% %param_loop() %[, %ptype %pname]%);
