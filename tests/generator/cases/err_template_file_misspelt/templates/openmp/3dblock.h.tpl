// %{name}
