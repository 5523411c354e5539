/* boundary exchange for CaCUDACFD3DWOMOL: vx vy vz p */
