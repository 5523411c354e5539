#define CAKERNEL_%{name}_Begin /* %{name_upper} tile %{tile_x}x%{tile_y}x%{tile_z} */ \
%var_loop("intent=separateinout|inout", "cached=yes") %[  %{vtype} *%{vname}_tile; /* %{description} */ \
]% %for_loop(k, '%{stencil_zp}', '-%{stencil_zn} - 1') %[  /* z offset %var(k) of %{stencil_zp}..-%{stencil_zn} */ \
]% %for_loop(i, '-%{stencil_xn}', '%{stencil_xp} + 1', "delimit= + ") %[%var_loop("cached=yes", "delimit= + ") %[I3D_l(%vname, %var(i), 0, 0)]%]%
%var_loop("vname=chi|mask") %[// %{vname} group %{group} type %{vtype} levels %{timelevels}
]%// modulo stays: a % b, percent literal %%, exterior %{exterior_xn}, stencil max %{stencil_max}
