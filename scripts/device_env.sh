# Sourced by the device scripts. The carried .deps prefix holds what the GPU machine lacks
# (PEGTL, fmt, CLI11, the OpenCL headers and ICD loader). Its /etc/OpenCL/vendors names pocl
# only, though NVIDIA's OpenCL library is installed: a vendors folder of our own lists both.
export LD_LIBRARY_PATH=$PWD/.deps/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
if ! grep -qs nvidia /etc/OpenCL/vendors/*.icd &&
   { ldconfig -p | grep -q libnvidia-opencl.so.1 || [ -e /usr/local/nvidia/lib64/libnvidia-opencl.so.1 ]; }; then
  export OCL_ICD_VENDORS=$PWD/build/opencl-vendors
  mkdir -p "$OCL_ICD_VENDORS"
  echo libnvidia-opencl.so.1 > "$OCL_ICD_VENDORS/nvidia.icd"
  cp /etc/OpenCL/vendors/*.icd "$OCL_ICD_VENDORS/" 2>/dev/null || true
fi

# build BUILD_DIR: configure (as below) and build all of it, incrementally where it was built
# before; the log goes to $OUT/build-<dir>.log, whose errors are shown on failure.
build() {
  configure "$1" || return 1
  build_targets "$1" "build-$(basename "$1")" all
}

# build_targets BUILD_DIR LOG_NAME TARGET...: builds TARGETs of a configured tree; the log goes to
# $OUT/LOG_NAME.log, whose errors are shown on failure.
build_targets() {
  local dir=$1 log=$OUT/$2.log
  shift 2
  cmake --build "$dir" -j"$(nproc)" --target "$@" >"$log" 2>&1 || { grep -E -A3 "error" "$log" | head -40; return 1; }
}

# build_precisions PREFIX TARGET...: PREFIX/double and PREFIX/float configured (as configure does,
# without tests, CCTK_REAL each) and TARGETs built in both at once; the logs go to
# $OUT/build-<PREFIX's name>-<precision>.log. Fails where either fails.
build_precisions() {
  local prefix=$1 pids=() rc=0 pid precision
  shift
  for precision in double float; do
    (configure "$prefix/$precision" -DOPUNTIA_BUILD_TESTS=OFF -DOPUNTIA_REAL_PRECISION="$precision" &&
       build_targets "$prefix/$precision" "build-$(basename "$prefix")-$precision" "$@") &
    pids+=($!)
  done
  # By their ids: a bare `wait` would also wait for a caller's process substitution (a tee).
  for pid in "${pids[@]}"; do wait "$pid" || rc=1; done
  return $rc
}

# build_baseline TREE TARGET...: the baseline tree of a comparison (another commit, unpacked
# beside this one and carried: git archive REV | (mkdir -p .baseline && tar -x -C .baseline)),
# configured as configure does, without its tests, and TARGETs built in TREE/build/device; the
# log goes to $OUT/build-baseline.log.
build_baseline() {
  local tree=$1
  shift
  (cd "$tree" && cp -r ../.deps . 2>/dev/null; configure build/device -DOPUNTIA_BUILD_TESTS=OFF) || return 1
  build_targets "$tree/build/device" build-baseline "$@"
}

# configure BUILD_DIR [CMAKE_ARGS...]: a Release build for Hopper against the carried prefix;
# the log goes to $OUT/configure-<dir>.log, whose tail is shown on failure.
configure() {
  local dir=$1 log=$OUT/configure-$(basename "$1").log
  shift
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=$PWD/.deps/usr \
    -DCMAKE_CUDA_ARCHITECTURES=90 "$@" >"$log" 2>&1 || { tail -30 "$log"; return 1; }
}

# tuned_ring_rows BUILD_DIR: CUDA's radius-4 ring (GpuStencilBench's Star25) tuned at 256^3 in that
# build's gpu_stencil_bench (autotuning measures TILE, depth and lanes), on the driver's padded
# rows: the autotuning line, the copies and the tuned row.
tuned_ring_rows() {
  GPU_BENCH_TUNE=2 GPU_BENCH_ONLY="Star25 cuda/3dblock_ring" GPU_BENCH_LAYOUTS=rows \
    "$1/bench/gpu_stencil_bench" 256 10 2>&1 | grep -E "autotune|\| copy|tuned|DIFFERS"
}
