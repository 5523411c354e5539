function(opuntia_add_thorn)
endfunction()
