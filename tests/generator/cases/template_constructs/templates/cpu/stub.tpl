/* edit me: %{name} (kept: replace=no) */
