#define CAKERNEL_Advance_Begin /* ADVANCE tile 32x4x2 */ \
  CCTK_REAL *phi_tile; /*  */                            \
  CCTK_REAL *psi_tile; /*  */                            \
   /* z offset 3 of 3..-0 */                             \
  /* z offset 2 of 3..-0 */                              \
  /* z offset 1 of 3..-0 */                              \
  /* z offset 0 of 3..-0 */                              \
 I3D_l(phi, -2, 0, 0) + I3D_l(psi, -2, 0, 0) + I3D_l(phi, -1, 0, 0) + I3D_l(psi, -1, 0, 0) + I3D_l(phi, 0, 0, 0) + I3D_l(psi, 0, 0, 0) + I3D_l(phi, 1, 0, 0) + I3D_l(psi, 1, 0, 0) + I3D_l(phi, 2, 0, 0) + I3D_l(psi, 2, 0, 0)
// mask group flags type CCTK_INT levels 1
// chi group state type CCTK_REAL levels 3
// modulo stays: a % b, percent literal %, exterior 0, stencil max 3
