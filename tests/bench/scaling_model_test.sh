#!/usr/bin/env bash
# bench/scaling_model.py: --check passes on the committed inputs and fails where the model breaks
# one of its rules; every output mode runs; a mistake in an input file is reported at its place,
# word for word, with the line and a caret.
# Usage: scaling_model_test.sh PYTHON MODEL INPUTS
python=$1
model=$2
inputs=$3
. "$(dirname "$0")/../check.sh"

check "--check passes on the committed inputs" bash -c "'$python' '$model' --check | tail -n 1 | grep -q 'all sane\$'"
check "--markdown prints the table of 1024 GPUs" bash -c "'$python' '$model' --markdown | grep -qF '<!-- scaling_model.py: fp32_at_1024 -->'"
# 2 paths x 432 settings, and the header.
check "--all prints every setting" bash -c "test \"\$('$python' '$model' --all | wc -l)\" -eq 865"

# Inputs in which the committed file's entries LEAVE_OUT (names, space-separated) are replaced by
# FIRST, the first entry (line 3), followed by a comma like every entry but the last.
write_inputs() {
  local first=$1 leave_out=$2
  "$python" - "$inputs" "$leave_out" "$first" >"$work/in.json" <<'PY'
import json, sys
entries = json.load(open(sys.argv[1]))["inputs"]
lines = ["    " + sys.argv[3]] + [f"    {json.dumps(n)}: {json.dumps(e)}" for n, e in entries.items()
                                  if n not in sys.argv[2].split()]
print('{\n  "inputs": {\n' + ",\n".join(lines) + "\n  }\n}")
PY
}

# --compare: a measured 2-GPU row (fp64, radius 1, 256^3 a GPU, one face; 2 x H200, cd6f1a1) beside
# the model. By hand, from the committed inputs: the 1-GPU row's compute gives the rate
# R = 256^3 / (79.9 - 3) us; the step on 2 GPUs is t(256^3) = 79.9 us + a face's rim (2.6 us +
# 2 * 65536 / (0.33 R) = 4.42 us) + 8 us exposed + 3 us of host work = 95.3 us, 9% above the 87.7
# measured; the model's efficiency is its own 1-GPU step (82.9 us) over that, 87.0%.
cat >"$work/rows.csv" <<'CSV'
precision,kernel,scaling,gpus,topology_asked,topology,ghosts,overlap,nx,ny,nz,iterations,step_us,compute_us,pack_us,messages_us,unpack_us,efficiency
fp64,radius1,weak,1,no_x_split,1x1x1,1,no,256,256,256,2990,80.0,79.9,0.0,0.0,0.0,100
fp64,radius1,weak,2,no_x_split,1x1x2,1,yes,256,256,512,2990,87.7,83.9,26.3,6.2,12.2,91.2
CSV
"$python" "$model" --compare "$work/rows.csv" >"$work/out" 2>&1
check "--compare puts the model's step beside the measured one" \
  grep -qF "| fp64 | radius1 | weak | 2 | 1x1x2 | 1 | yes | 256x256x512 | 87.7 | 83.9 | 26.3 | 6.2 | 12.2 | 95.3 | +9 | 91.2 | 87.0 |" "$work/out"
check "--compare prints the largest miss" grep -qF "largest miss of the model's step: 9%" "$work/out"

# expect_error FIRST LEAVE_OUT EXPECTED: the model exits 1 printing exactly EXPECTED.
expect_error() {
  write_inputs "$1" "$2"
  "$python" "$model" --inputs "$work/in.json" --check >"$work/out" 2>"$work/err"
  local status=$?
  [ "$status" -eq 1 ] && diff <(printf '%s\n' "$3") "$work/err"
}
check "an unknown input is named at its key" expect_error \
  '"nvlink_bandwdth": {"value": 3.7e11, "unit": "B/s", "status": "assumed", "reasoning": "r"}' "" \
  "$work/in.json:3:5: error: unknown input 'nvlink_bandwdth'
    \"nvlink_bandwdth\": {\"value\": 3.7e11, \"unit\": \"B/s\", \"status\": \"assumed\", \"reasoning\": \"r\"},
    ^"
check "an assumed input without its reasoning is refused" expect_error \
  '"nvlink_bandwidth": {"value": 3.7e11, "unit": "B/s", "status": "assumed"}' nvlink_bandwidth \
  "$work/in.json:3:5: error: assumed input 'nvlink_bandwidth' needs 'reasoning'
    \"nvlink_bandwidth\": {\"value\": 3.7e11, \"unit\": \"B/s\", \"status\": \"assumed\"},
    ^"
check "a measured input without its command is refused" expect_error \
  '"nvlink_bandwidth": {"value": 3.7e11, "unit": "B/s", "status": "measured", "device": "H100", "date": "2026-11-26", "how": "h"}' \
  nvlink_bandwidth \
  "$work/in.json:3:5: error: measured input 'nvlink_bandwidth' needs 'command'
    \"nvlink_bandwidth\": {\"value\": 3.7e11, \"unit\": \"B/s\", \"status\": \"measured\", \"device\": \"H100\", \"date\": \"2026-11-26\", \"how\": \"h\"},
    ^"
check "a value that is not positive is shown at the value" expect_error \
  '"nvlink_bandwidth": {"value": -1, "unit": "B/s", "status": "assumed", "reasoning": "r"}' nvlink_bandwidth \
  "$work/in.json:3:35: error: input 'nvlink_bandwidth' needs a positive number 'value'
    \"nvlink_bandwidth\": {\"value\": -1, \"unit\": \"B/s\", \"status\": \"assumed\", \"reasoning\": \"r\"},
                                  ^"
check "a fraction above 1 is refused at the value" expect_error \
  '"network_efficiency": {"value": 1.5, "unit": "fraction", "status": "assumed", "reasoning": "r"}' network_efficiency \
  "$work/in.json:3:37: error: input 'network_efficiency' is at most 1
    \"network_efficiency\": {\"value\": 1.5, \"unit\": \"fraction\", \"status\": \"assumed\", \"reasoning\": \"r\"},
                                    ^"
check "a status other than measured or assumed is shown at the status" expect_error \
  '"nvlink_bandwidth": {"value": 1, "unit": "B/s", "status": "guessed", "reasoning": "r"}' nvlink_bandwidth \
  "$work/in.json:3:63: error: input 'nvlink_bandwidth': 'status' must be \"measured\" or \"assumed\"
    \"nvlink_bandwidth\": {\"value\": 1, \"unit\": \"B/s\", \"status\": \"guessed\", \"reasoning\": \"r\"},
                                                              ^"
check "a missing input is named at \"inputs\"" expect_error \
  '"nvlink_latency_seconds": {"value": 3e-6, "unit": "s", "status": "assumed", "reasoning": "r"}' \
  "nvlink_latency_seconds nvlink_bandwidth" \
  "$work/in.json:2:3: error: input 'nvlink_bandwidth' is missing
  \"inputs\": {
  ^"
check "JSON that does not parse is shown where it stops" expect_error \
  '"nvlink_bandwidth": {"value": 1,, "unit": "B/s"}' nvlink_bandwidth \
  "$work/in.json:3:37: error: expecting property name enclosed in double quotes
    \"nvlink_bandwidth\": {\"value\": 1,, \"unit\": \"B/s\"},
                                    ^"

# Files that are not there, or not the table --compare reads: a line naming them, no traceback.
"$python" "$model" --compare "$work/none.csv" >"$work/out" 2>&1
check "--compare of a missing file fails with status 2" test $? -eq 2
check "... naming it" grep -qx "$work/none.csv: error: No such file or directory" "$work/out"
printf 'a,b\n1,2\n' >"$work/other.csv"
"$python" "$model" --compare "$work/other.csv" >"$work/out" 2>&1
check "--compare of another table fails with status 1" test $? -eq 1
check "... saying what it lacks" grep -qx "$work/other.csv: error: not a table of bench/halo_scaling.sh: KeyError 'gpus'" "$work/out"
"$python" "$model" --inputs "$work/none.json" --check >"$work/out" 2>&1
check "--inputs of a missing file fails with status 2" test $? -eq 2
check "... naming it" grep -qx "$work/none.json: error: No such file or directory" "$work/out"

finish
