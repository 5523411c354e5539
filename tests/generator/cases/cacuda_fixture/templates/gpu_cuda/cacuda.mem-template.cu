/* device memory of %{thorn} */
%var_loop() %[cudaMalloc(&d_%{vname}, bytes);
]%
