#!/usr/bin/env bash
# bench/ldc_torch.py, in two parts.
# reference (numpy and h5py): the self-test passes (plain loops against the vectorised numpy
#   reference and against the torch stages run on numpy arrays, the projection's divergence; its
#   torch part where torch is installed); --check writes the reference's fields, 3D and 2D, with
#   the shapes and settings of the run; the thorn's IOHDF5 files are compared with it: equal ones
#   pass, one value off fails, a missing dataset or another grid is named word for word.
# torch (exit 77, skipped, where no python3 has torch): the self-test with torch, nothing skipped;
#   the benchmark runs on the CPU, eager, 3D fp32 and 2D fp64, and prints its table; --check
#   writes torch's fields and finds them equal to the reference.
# Usage: ldc_torch_test.sh reference|torch LDC_TORCH_PY
part=$1
script=$2
. "$(dirname "$0")/../check.sh"

# npz_matches FILE PYTHON_EXPRESSION: the expression, of the loaded file z, is true.
npz_matches() {
  "$python" -c 'import numpy, sys; z = numpy.load(sys.argv[1]); sys.exit(0 if eval(sys.argv[2]) else 1)' "$1" "$2"
}

# self_test_passes WHAT SUMMARY: --self-test exits 0, its last line matching SUMMARY (a regex).
self_test_passes() {
  "$python" "$script" --self-test >"$work/self_test.out" 2>&1
  check "--self-test passes$1" test $? -eq 0
  check "... and says so" grep -qE "$2" "$work/self_test.out"
}

if [ "$part" = reference ]; then
  find_python_with_h5py
  if [ -z "$python" ]; then
    echo "FAILED: no python3 with h5py and numpy (scripts/install_deps.sh installs python3-numpy, python3-h5py)"
    exit 1
  fi
  self_test_passes "" '^self-test: [0-9]+ passed, 0 failed, '
  check "... having run plain loops against the reference" \
    grep -qF 'self-test: numpy reference against plain loops, (5, 4, 6), alpha 0.5: ' "$work/self_test.out"

  "$python" "$script" --check "$work/three" --device cpu --n 8 --steps 2 --dt 0.01 --nu 0.02 --alpha 0.5 >"$work/three.out" 2>&1
  check "--check runs from rest" test $? -eq 0
  check "--check writes the reference's fields: interiors and padded arrays, [z][y][x]" \
    npz_matches "$work/three/ldc_reference.npz" \
    "all(z[v].shape == (8, 8, 8) and z[v + '_padded'].shape == (10, 10, 10) for v in ('vx', 'vy', 'vz', 'p'))"
  check "... with the settings of the run" npz_matches "$work/three/ldc_reference.npz" \
    "z['steps'] == 2 and z['dt'] == 0.01 and z['nu'] == 0.02 and z['alpha'] == 0.5 and z['sweeps'] == 20"
  check "... the lid's ghost row moving" npz_matches "$work/three/ldc_reference.npz" \
    "abs(z['vx_padded'][4, -1, 4] + z['vx_padded'][4, -2, 4] - 2) < 1e-15 and z['vx'][4, -1, 4] > 0"
  "$python" "$script" --check "$work/two" --device cpu --n 8 --dims 2 --steps 2 >"$work/two.out" 2>&1
  check "--check in 2D: one cell along z, vz 0" npz_matches "$work/two/ldc_reference.npz" \
    "z['vx'].shape == (1, 8, 8) and z['p_padded'].shape == (3, 10, 10) and not z['vz_padded'].any()"
  check "... and nothing half-written left" test -z "$(find "$work/three" "$work/two" -name '.*')"

  # The thorn's files as IOHDF5 writes them (<var>.h5, datasets <IMPL>::<var> it=<n> tl=0, the
  # global array [z][y][x]) made from the reference; SCALE_P scales one interior value of p.
  write_thorn_files() {
    local folder=$1 iteration=$2 scale_p=$3
    mkdir -p "$folder"
    "$python" - "$work/three/ldc_reference.npz" "$folder" "$iteration" "$scale_p" <<'PY'
import h5py, numpy, sys
z = numpy.load(sys.argv[1])
for name in ("vx", "vy", "vz", "p"):
    array = z[name + "_padded"].copy()
    if name == "p":
        array[3, 4, 5] *= float(sys.argv[4])
    with h5py.File(f"{sys.argv[2]}/{name}.h5", "w") as f:
        f[f"LIDDRIVENCAVITY::{name} it=0 tl=0"] = numpy.zeros_like(array)
        f[f"LIDDRIVENCAVITY::{name} it={sys.argv[3]} tl=0"] = array
PY
  }
  compare_thorn() {  # compare_thorn FOLDER [--dims 2]: --check of the run above against FOLDER
    "$python" "$script" --check "$work/against" --device cpu --n 8 --steps 2 --dt 0.01 --nu 0.02 --alpha 0.5 \
      --thorn-output "$@" >"$work/compare.out" 2>&1
  }
  write_thorn_files "$work/same" 2 1
  compare_thorn "$work/same"
  check "the thorn's files equal to the reference pass" test $? -eq 0
  check "... each field judged" test "$(grep -c '^thorn against the reference: .* (limit 1e-12) ok$' "$work/compare.out")" -eq 4
  write_thorn_files "$work/off" 2 1.000001
  compare_thorn "$work/off"
  check "one value of p off by 1e-6 fails" test $? -eq 1
  check "... in p" grep -qE '^thorn against the reference: p: max relative difference .* \(limit 1e-12\) FAILED$' \
    "$work/compare.out"
  check "... and only there" test "$(grep -c '^thorn against the reference: .* ok$' "$work/compare.out")" -eq 3
  write_thorn_files "$work/early" 1 1
  compare_thorn "$work/early"
  check "a missing iteration is an error" test $? -eq 1
  check "... naming the dataset and those in the file" test "$(tail -n 1 "$work/compare.out")" = \
    "ldc_torch.py: error: $work/early/vx.h5: no dataset 'LIDDRIVENCAVITY::vx it=2 tl=0' (it has: LIDDRIVENCAVITY::vx it=0 tl=0, LIDDRIVENCAVITY::vx it=1 tl=0)"
  compare_thorn "$work/same" --dims 2
  check "files of another grid are an error" test $? -eq 1
  check "... giving both shapes" grep -qxF \
    "ldc_torch.py: error: $work/same: vx has the shape (10, 10, 10), the grid (3, 10, 10)" "$work/compare.out"
  "$python" "$script" --thorn-output "$work/same" >"$work/alone.out" 2>&1
  check "--thorn-output without --check is refused" test $? -eq 2
  check "... saying why" grep -qxF "ldc_torch.py: error: --thorn-output needs --check" "$work/alone.out"
  if ! "$python" -c 'import torch' 2>/dev/null; then
    "$python" "$script" --device cpu --n 8 >"$work/bench.out" 2>&1
    check "without torch the benchmark is refused" test $? -eq 2
    check "... saying what runs without it" grep -qxF \
      "ldc_torch.py: error: torch is not installed (the benchmark needs it; --self-test and --check run without)" \
      "$work/bench.out"
  fi
  finish
  exit
fi

find_python_with numpy torch
if [ -z "$python" ]; then
  echo "skipped: no python3 with torch and numpy"
  exit 77
fi
self_test_passes " with torch, nothing skipped" '^self-test: [0-9]+ passed, 0 failed, 0 skipped$'
check "... torch eager against the reference" \
  grep -qE '^self-test: torch eager \(cpu\) against the reference, \(16, 16, 16\): .* ok$' "$work/self_test.out"
small=(--device cpu --n 8 --steps 2 --rounds 2 --stage-calls 2 --warmup 1 --copy-mib 16 --mode eager)
for run in "3 fp32" "2 fp64"; do
  set -- $run
  "$python" "$script" "${small[@]}" --dims "$1" --precision "$2" >"$work/bench.out" 2>&1
  check "the benchmark runs on the CPU, ${1}D $2" test $? -eq 0
  check "... its fields finite" grep -qE '^eager: after 6 steps max \|vx\| = .*, fields finite: yes$' "$work/bench.out"
  check "... and prints a table row for the step and each stage" \
    test "$(grep -cE '^\| eager \| (step|momentum|velocity_boundary|divergence|jacobi_sweep|correction) \|' "$work/bench.out")" -eq 6
done
"$python" "$script" --check "$work/fields" --n 8 --steps 2 --device cpu --precision fp64 >"$work/check.out" 2>&1
check "--check with torch passes" test $? -eq 0
check "... torch's fields equal to the reference" \
  test "$(grep -c '^torch eager against the reference: .* (limit 1e-12) ok$' "$work/check.out")" -eq 4
check "... and written" npz_matches "$work/fields/ldc_torch_eager_cpu_fp64.npz" "z['vx'].shape == (8, 8, 8)"
finish
