// Advance as 3dstencil, TYPE */3dblock|3dstencil, code src/Advance.kernel, share no
const CCTK_REAL *rho;
const CCTK_INT *mask;

