#define CAKERNEL_%{name}_Computations_Begin_s \
  for (tmpj = 0; tmpj < tilez_to; tmpj++) { \
    __syncthreads();
#define CAKERNEL_%{name}_Iterate_Local_Tile_s \
%for_loop(tmpi,'-%{stencil_zn}','%{stencil_zp}') %[%var_loop("cached=yes") %[    I3D_l(%vname, 0, 0, %var(tmpi)) = I3D_l(%vname, 0, 0, %var(tmpi) + 1); \
]%]%    gk = gk2 + tmpj;
#define CAKERNEL_%{name}_Fetch_Front_Tile_To_Cache_s \
%var_loop("cached=yes") %[    I3D_l(%vname, 0, 0, stncl_zp) = I3D(%vname, 0, 0, stncl_zp); \
]%    __syncthreads();
#define CAKERNEL_%{name}_Computations_End_s }
