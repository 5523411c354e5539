#include "Update_Velocity_3dblock.h"
__global__ void CAKERNEL_Update_Velocity(CCTK_REAL *vx, CCTK_REAL *vy, CCTK_REAL *vz, CCTK_REAL *p , CCTK_REAL density);
