/* boundary exchange for %{thorn}: %var_loop("delimit= ") %[%vname]% */
