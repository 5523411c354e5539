// thorn Fancy (fancy) for cpu, file Fancy_shared.h
// kernels: Advance/3dblock, Advance/3dstencil, Edges/edges
// variables (union): phi:separateinout%cached, psi:separateinout%cached, rho:in%cached, mask:in%cached, chi:out%cached
// parameters (union): CCTK_REAL speed, CCTK_INT order, CCTK_INT verbose
