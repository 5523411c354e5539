// %{name} as 3dstencil, TYPE %{type}, code %{code}, share %{share_code}
%var_loop("cached=no", "intent=in") %[const %{vtype} *%{vname};
]%
