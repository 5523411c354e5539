// %{name}: exterior %{exterior_xn},%{exterior_xp},%{exterior_yn},%{exterior_yp},%{exterior_zn},%{exterior_zp}
%for_loop(face, '0', '6') %[void %{name}_face_%var(face)();
]%
