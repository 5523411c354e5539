#include "Update_Pressure_3dstencil.h"
__global__ void CAKERNEL_Update_Pressure(CCTK_REAL *vx, CCTK_REAL *vy, CCTK_REAL *vz, CCTK_REAL *p , CCTK_REAL density);
