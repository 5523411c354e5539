# Sourced by bench/checkpoint_bandwidth.sh and bench/output_bandwidth.sh: the benchmark's folder,
# and what the disk (or the page cache) takes, written by dd into it, to set a write of Opuntia's
# beside.
# benchmark_folder FOLDER NAME: sets $dir to a folder of its own, NAME.XXXXXX, made inside FOLDER
# (made where it is missing), removed when the script exits with FOLDER where this made it: what
# FOLDER held stays.
benchmark_folder() {
  folder_made=no
  [ -d "$1" ] || folder_made=yes
  mkdir -p "$1"
  folder=$(realpath "$1")
  dir=$(mktemp -d "$folder/$2.XXXXXX")
  trap 'rm -rf "$dir"; if [ $folder_made = yes ]; then rmdir "$folder" 2>/dev/null || true; fi' EXIT
}
# plain_write [DD FLAGS]: $bytes of zeros written to $dir/plain by dd with the flags given
# (conv=fsync: flushed to the disk), then removed; prints MiB/s.
plain_write() {
  local start end
  start=$(date +%s.%N)
  dd if=/dev/zero of="$dir/plain" bs=16M count=$(((bytes + 16777215) / 16777216)) "$@" status=none
  end=$(date +%s.%N)
  rm -f "$dir/plain"
  awk -v b="$bytes" -v s="$start" -v e="$end" 'BEGIN { printf "%.1f", b / (e - s) / 1048576 }'
}
# best_of_three_writes [DD FLAGS]: the best MiB/s of three plain_writes (a shared disk varies from
# one write to the next).
best_of_three_writes() { for _ in 1 2 3; do plain_write "$@"; echo; done | sort -g | tail -1; }
