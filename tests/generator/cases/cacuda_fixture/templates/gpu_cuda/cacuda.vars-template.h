/* variables of thorn %{thorn}: the union over the kernels that use this template */
%var_loop("delimit=\n") %[extern CCTK_REAL *d_%{vname};  /* intent=%{intent} cached=%{cached} */]%
%var_loop("intent=separateinout") %[extern CCTK_REAL *d_%{vname}_out;
]%/* kernels: %kernel_loop("delimit=, ") %[%{name} (%{variant})]% */
