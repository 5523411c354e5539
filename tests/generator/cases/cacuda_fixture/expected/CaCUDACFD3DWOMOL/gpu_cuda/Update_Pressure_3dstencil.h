#define CAKERNEL_Update_Pressure_Computations_Begin_s \
  for (tmpj = 0; tmpj < tilez_to; tmpj++) {           \
    __syncthreads();
#define CAKERNEL_Update_Pressure_Iterate_Local_Tile_s \
    I3D_l(vx, 0, 0, -1) = I3D_l(vx, 0, 0, -1 + 1);    \
    I3D_l(vy, 0, 0, -1) = I3D_l(vy, 0, 0, -1 + 1);    \
    I3D_l(vz, 0, 0, -1) = I3D_l(vz, 0, 0, -1 + 1);    \
    I3D_l(vx, 0, 0, 0) = I3D_l(vx, 0, 0, 0 + 1);      \
    I3D_l(vy, 0, 0, 0) = I3D_l(vy, 0, 0, 0 + 1);      \
    I3D_l(vz, 0, 0, 0) = I3D_l(vz, 0, 0, 0 + 1);      \
    gk = gk2 + tmpj;
#define CAKERNEL_Update_Pressure_Fetch_Front_Tile_To_Cache_s \
    I3D_l(vx, 0, 0, stncl_zp) = I3D(vx, 0, 0, stncl_zp);     \
    I3D_l(vy, 0, 0, stncl_zp) = I3D(vy, 0, 0, stncl_zp);     \
    I3D_l(vz, 0, 0, stncl_zp) = I3D(vz, 0, 0, stncl_zp);     \
    __syncthreads();
#define CAKERNEL_Update_Pressure_Computations_End_s }
