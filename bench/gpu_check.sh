#!/usr/bin/env bash
# The one check for whoever has an NVIDIA GPU (each step has its own time limit below). It runs
#   1. the engine tests on device="cuda" (the session's synthesizer loads on the GPU),
#   2. bench/gpu_check.py: graph capture per length bucket, graphs vs no graphs, fp16/bf16
#      against fp32, host reads per token, GPU memory,
#   3. bench/decode.py --device cuda: first chunk, RTF, tokens/s and GPU memory against
#      upstream ChatTTS, on full-size random weights,
# and prints one JSON report (also written to gpu-check.json, or to $OUT/gpu-check.json).
#
#   bash bench/gpu_check.sh            # uses .venv/bin/python if it exists, else python3
#   PYTHON=/path/to/python bash bench/gpu_check.sh
# Needs the project installed with a CUDA build of PyTorch (README: "NVIDIA GPU").
set -uo pipefail
cd "$(dirname "$0")/.."
py=${PYTHON:-}
[ -n "$py" ] || { [ -x .venv/bin/python ] && py=.venv/bin/python || py=python3; }
out_dir=${OUT:-.}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export HF_HUB_OFFLINE=1 PYTHONUNBUFFERED=1

if ! "$py" -c "import sys, torch, ChatTTS, pytest; sys.exit(0 if torch.cuda.is_available() else 'PyTorch sees no NVIDIA GPU')" 2>"$work/why"; then
  echo "gpu_check: $py cannot run this check: $(tail -n 1 "$work/why")." \
       "Install the project with a CUDA build of PyTorch (README, 'NVIDIA GPU') and try again." >&2
  exit 2
fi

echo "gpu_check: 1/3 engine tests on cuda" >&2
CHATTTS_STUDIO_TEST_DEVICE=cuda timeout 240 "$py" -m pytest -q -p no:cacheprovider \
  tests/engine/test_decode_loop.py tests/engine/test_streaming_and_memory.py tests/engine/test_synthesizer.py \
  tests/engine/test_gpu_path.py > "$work/tests.log" 2>&1
tests_rc=$?
tail -n 30 "$work/tests.log" >&2

echo "gpu_check: 2/3 graphs, precisions, syncs" >&2
timeout 150 "$py" bench/gpu_check.py --model "$work/tiny" > "$work/check.json" 2> "$work/check.err"
check_rc=$?

echo "gpu_check: 3/3 decode benchmark against upstream" >&2
timeout 240 "$py" bench/decode.py --device cuda --model "$work/full" --tokens 64 > "$work/decode.json" 2> "$work/decode.err"
decode_rc=$?

"$py" - "$work" "$tests_rc" "$check_rc" "$decode_rc" > "$out_dir/gpu-check.json" <<'PY'
import json, re, sys
from pathlib import Path
work, tests_rc, check_rc, decode_rc = Path(sys.argv[1]), *map(int, sys.argv[2:])

def part(name, rc):
    text = (work / f"{name}.json").read_text() if (work / f"{name}.json").exists() else ""
    try:
        return json.loads(text)
    except ValueError:
        err = (work / f"{name}.err").read_text() if (work / f"{name}.err").exists() else ""
        return {"error": f"exit {rc}", "stderr_tail": err[-2000:]}

log = (work / "tests.log").read_text()
summary = [line for line in log.splitlines() if re.search(r"\d+ (passed|failed)", line)]
report = {
    "engine_tests_on_cuda": {"exit": tests_rc, "summary": summary[-1] if summary else None,
                             "failures": [l for l in log.splitlines() if l.startswith("FAILED")][:20]},
    "gpu_check": part("check", check_rc),
    "decode_bench": part("decode", decode_rc),
}
print(json.dumps(report, indent=2))
PY
cat "$out_dir/gpu-check.json"
[ "$tests_rc" -eq 0 ] && [ "$check_rc" -eq 0 ] && [ "$decode_rc" -eq 0 ]
