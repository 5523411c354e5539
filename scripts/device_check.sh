#!/usr/bin/env bash
# On the GPU machine (no apt there): configure against the carried .deps prefix (PEGTL, fmt,
# CLI11), build, run the GPU-labelled tests and the whole suite, then time the runs.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.deps/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
nvidia-smi -L
cmake -S . -B build/device -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=$PWD/.deps/usr \
  -DCMAKE_CUDA_ARCHITECTURES=90 >$OUT/configure.log 2>&1 || { tail -30 $OUT/configure.log; exit 1; }
grep "opuntia:" $OUT/configure.log
cmake --build build/device -j16 >$OUT/build.log 2>&1 || { grep -E "error" $OUT/build.log | head -30; exit 1; }
echo "== GPU tests"
ctest --test-dir build/device -L gpu --output-on-failure 2>&1 | tail -30
echo "== whole suite"
ctest --test-dir build/device -j8 2>&1 | grep -E "tests passed|\(Failed\)"
echo "== runs"
cd build/device && mkdir -p run && cd run
for b in openmp cuda; do
  sed "s/IO::out_dir = \$parfile/IO::out_dir = \"wave_$b\"\nCaKernel::backend = \"$b\"/" ../../../parfiles/wavetoy.par > wave_$b.par
  ../opuntia wave_$b.par 2>&1 | tail -8
done
