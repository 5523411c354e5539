#include "Update_Boundaries_boundary.h"
__global__ void CAKERNEL_Update_Boundaries(CCTK_REAL *vx, CCTK_REAL *vy, CCTK_REAL *vz );
