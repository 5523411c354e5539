%{name}: off_axis_zn %{off_axis_zn}, stencil zn %{stencil_zn}
