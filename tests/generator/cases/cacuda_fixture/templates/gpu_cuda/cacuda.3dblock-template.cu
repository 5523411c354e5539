#include "%{name}_3dblock.h"
__global__ void CAKERNEL_%{name}(%var_loop("delimit=, ") %[CCTK_REAL *%vname]% %param_loop() %[, %ptype %pname]%);
