// thorn %{thorn} (%{implementation}) for %{backend}, file %{file_name}
// kernels: %kernel_loop("delimit=, ") %[%{name}/%{variant}]%
// variables (union): %var_loop("delimit=, ") %[%vname:%intent%%cached]%
// parameters (union): %param_loop("delimit=, ") %[%{ptype} %{pname}]%
