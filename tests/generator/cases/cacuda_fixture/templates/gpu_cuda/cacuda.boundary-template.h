/* boundary kernel %{name}: one launch per face */
%for_loop(face, '0', '6', "delimit=\n") %[#define CAKERNEL_%{name}_FACE_%var(face) %var(face)]%
