/* variables of thorn CaCUDACFD3DWOMOL: the union over the kernels that use this template */
extern CCTK_REAL *d_vx;  /* intent=separateinout cached=yes */
extern CCTK_REAL *d_vy;  /* intent=separateinout cached=yes */
extern CCTK_REAL *d_vz;  /* intent=separateinout cached=yes */
extern CCTK_REAL *d_p;  /* intent=inout cached=yes */
extern CCTK_REAL *d_vx_out;
extern CCTK_REAL *d_vy_out;
extern CCTK_REAL *d_vz_out;
/* kernels: Update_Velocity (3dblock), Update_Pressure (3dstencil), Update_Boundaries (boundary) */
