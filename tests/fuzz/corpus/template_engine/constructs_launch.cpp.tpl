%include_loop() %[#include "%{include_file}"
]%void launch_%{name}_%{variant}(%param_loop("delimit=, ") %[%{ptype} %{pname}]%) {}
