// %{name}: kernel %{file_name}
