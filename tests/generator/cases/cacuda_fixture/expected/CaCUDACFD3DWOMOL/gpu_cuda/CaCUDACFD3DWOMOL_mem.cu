/* device memory of CaCUDACFD3DWOMOL */
cudaMalloc(&d_vx, bytes);
cudaMalloc(&d_vy, bytes);
cudaMalloc(&d_vz, bytes);
cudaMalloc(&d_p, bytes);

