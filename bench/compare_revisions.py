"""Decode speed of this tree against another revision, in one run, alternating. Prints JSON.

A refactor must not slow the product down: this runs bench/decode.py's per-mode measurement
(each in its own process) for a git revision (its committed files, unpacked into a scratch
folder) and for the working tree, alternating base/head `--rounds` times so a busy machine hurts
both alike, and reports every run, the median per metric and head/base ratios.

    python bench/compare_revisions.py --base 72d5ed0 [--modes jit-int8] [--model DIR] [--tokens N]
                                      [--rounds 2] [--device cpu] [--quick] [--save]

--quick: HEAD against the working tree (unless --base), the tiny model, short sentences, one
round: a smoke run of the comparison, not a measurement.
"""

from __future__ import annotations

import argparse
import io
import json
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.support.model import bench_model, child_json
from bench.support.results import add_save_argument, emit

ROOT = Path(__file__).resolve().parents[1]

METRICS = ["tokens_per_s_b1", "tokens_per_s_b4", "rtf_paragraph", "first_chunk_s", "peak_rss_mb"]
HIGHER_IS_BETTER = {"tokens_per_s_b1", "tokens_per_s_b4"}


def _measure(tree: Path, mode: str, model: str, tokens: int, device: str) -> dict:
    script = str(tree / "bench" / "decode.py")
    return child_json(
        script, mode, "--model", model, "--tokens", str(tokens), "--device", device, cwd=tree
    )


def _unpack(revision: str, target: Path) -> None:
    """The committed files of `revision` in `target` (no git worktree is registered)."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", revision],
        capture_output=True,
        check=True,
    ).stdout
    target.mkdir(parents=True)
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(target, filter="data")


def _summary(runs: list[dict]) -> dict:
    good = [r for r in runs if "error" not in r]
    return {
        m: statistics.median(r[m] for r in good)
        for m in METRICS
        if good and all(r.get(m) is not None for r in good)
    }


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument(
        "--base", help="git revision to compare against (e.g. the previous main; --quick: HEAD)"
    )
    p.add_argument("--modes", default="jit-int8", help="comma-separated modes of bench/decode.py")
    p.add_argument(
        "--model", help="model folder (default: bench/decode.py's full-size random model)"
    )
    p.add_argument("--tokens", type=int, help="audio tokens per sentence (default 64; --quick 8)")
    p.add_argument("--rounds", type=int, help="base/head pairs (default 2; --quick 1)")
    p.add_argument("--device", default="cpu")
    p.add_argument(
        "--quick", action="store_true", help="HEAD against the work tree, tiny model (smoke test)"
    )
    add_save_argument(p)
    args = p.parse_args(argv)
    if not args.base and not args.quick:
        p.error("--base is required (a git revision)")
    args.base = args.base or "HEAD"
    args.tokens = args.tokens or (8 if args.quick else 64)
    args.rounds = args.rounds or (1 if args.quick else 2)
    model = str(bench_model(args.model, args.quick)[0])
    with tempfile.TemporaryDirectory(prefix="chattts-base-") as scratch:
        base_tree = Path(scratch) / "tree"
        _unpack(args.base, base_tree)
        report = {
            "base": args.base,
            "head": "working tree",
            "device": args.device,
            "tokens": args.tokens,
            "modes": {},
        }
        for mode in args.modes.split(","):
            runs = {"base": [], "head": []}
            for _round in range(args.rounds):
                for side, tree in (("base", base_tree), ("head", ROOT)):
                    runs[side].append(_measure(tree, mode, model, args.tokens, args.device))
                    # each run as it ends, so a run cut short still leaves its numbers
                    print(
                        json.dumps({"mode": mode, "side": side, **runs[side][-1]}),
                        file=sys.stderr,
                        flush=True,
                    )
            base, head = _summary(runs["base"]), _summary(runs["head"])
            ratio = {}
            for m in METRICS:
                if base.get(m) and head.get(m):
                    # > 1 means the head is better (faster, less memory)
                    ratio[m] = round(
                        head[m] / base[m] if m in HIGHER_IS_BETTER else base[m] / head[m], 3
                    )
            report["modes"][mode] = {
                "runs": runs,
                "median_base": base,
                "median_head": head,
                "head_vs_base": ratio,
            }
    emit(report, args, __file__)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
