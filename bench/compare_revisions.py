"""This tree against another revision, in one run, alternating: decode, start-up or serving.

A refactor must not slow the product down: this runs a benchmark (each run in its own process)
for a git revision (its committed files, unpacked into a scratch folder) and for the working
tree, alternating base/head `--rounds` times (base first, then head first: ABBA) so a busy
machine and the order of a pair hurt both alike, and reports every run, the median per metric
and head/base ratios (> 1: the head is better). Prints JSON. Each tree runs with user folders
of its own (CHATTTS_STUDIO_HOME), and for decode and serve it first runs once unmeasured, so
that both are measured with their caches filled.

    python bench/compare_revisions.py --base 72d5ed0 [--bench decode|startup|serve]
                                      [--modes jit-int8] [--model DIR] [--tokens N]
                                      [--rounds 2] [--device cpu] [--quick] [--save]

--bench decode (default): bench/decode.py's per-mode measurement, one entry per `--modes`.
--bench startup: bench/startup.py, one cold+warm pair of launches per run (entry "startup").
--bench serve: bench/serve.py, batched and one-at-a-time rounds per run (entry "serve").
--bench steady: the decode of --modes' first mode timed --repeat times per process (medians of
wall and CPU seconds; bench/support/steady_decode.py, the head's copy run in each tree), for a
machine whose speed drifts too much for one timing per process.
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

from bench.support.model import bench_model, child_json, run_json
from bench.support.results import add_save_argument, emit

ROOT = Path(__file__).resolve().parents[1]

METRICS = ["tokens_per_s_b1", "tokens_per_s_b4", "rtf_paragraph", "first_chunk_s", "peak_rss_mb"]
STEADY_METRICS = [
    "tokens_per_s_b1",
    "tokens_per_s_b4",
    *(f"{name}_{kind}_s" for name in ("b1", "b4", "paragraph") for kind in ("wall", "cpu")),
]
HIGHER_IS_BETTER = {"tokens_per_s_b1", "tokens_per_s_b4"}
LAUNCH_METRICS = ["window_s", "ready_s", "first_sound_s", "replay_sound_s", "peak_rss_mb_at_ready"]


def _higher_is_better(metric: str) -> bool:
    return metric in HIGHER_IS_BETTER or metric.endswith("requests_per_s")


def startup_metrics(report: dict) -> dict:
    """bench/startup.py's report, flat: `cold_ready_s`, `warm_first_sound_s`, ... of its first
    cold+warm pair (a run of this script launches one pair)."""
    pair = report["runs"][0]
    out = {}
    for launch in ("cold", "warm"):
        for key in LAUNCH_METRICS:
            value = pair[launch].get(key)
            if isinstance(value, (int, float)):
                out[f"{launch}_{key}"] = value
        if "error" in pair[launch]:
            out["error"] = pair[launch]["error"]
    return out


def serve_metrics(report: dict) -> dict:
    """bench/serve.py's report, flat: `batched_4_requests_per_s`, `batched_4_first_byte_p50_s`,
    ... per serving mode and client count."""
    out = {}
    for mode, rounds in report["modes"].items():
        for r in rounds:
            out[f"{mode}_{r['clients']}_requests_per_s"] = r["requests_per_s"]
            if r.get("first_byte_s"):
                out[f"{mode}_{r['clients']}_first_byte_p50_s"] = r["first_byte_s"]["p50"]
            if r.get("errors"):
                out["error"] = r["errors"][0]
    return out


WHOLE = {"startup": startup_metrics, "serve": serve_metrics}


def _measure(tree: Path, home: Path, mode: str, model: str, tokens: int, device: str) -> dict:
    script = str(tree / "bench" / "decode.py")
    return child_json(
        script,
        *(mode, "--model", model, "--tokens", str(tokens), "--device", device),
        cwd=tree,
        home=home,
    )


def _measure_steady(tree: Path, home: Path, mode: str, model: str, tokens: int, repeat: int):
    script = str(ROOT / "bench" / "support" / "steady_decode.py")
    argv = [script, model, "--mode", mode, "--tokens", str(tokens), "--repeat", str(repeat)]
    return run_json(argv, cwd=tree, home=home)


def _measure_whole(tree: Path, home: Path, bench: str, model: str, extra: list[str]) -> dict:
    """One run of a whole benchmark script of `tree`, its report flattened; a failed run is
    {"error": its last line of stderr}."""
    try:
        report = run_json(
            [str(tree / "bench" / f"{bench}.py"), "--model", model, *extra],
            cwd=tree,
            whole=True,
            home=home,
        )
        return report if "error" in report else WHOLE[bench](report)
    except (ValueError, KeyError, IndexError, TypeError) as exc:
        return {"error": f"unreadable report: {exc!r}"}


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


def _summary(runs: list[dict], metrics: list[str]) -> dict:
    good = [r for r in runs if "error" not in r]
    return {
        m: statistics.median(r[m] for r in good)
        for m in metrics
        if good and all(r.get(m) is not None for r in good)
    }


def _compare(runs: dict, metrics: list[str] | None = None) -> dict:
    """Medians per side and head/base ratios (> 1: the head is better: faster, less memory)."""
    if metrics is None:  # a whole benchmark: the metrics every run reported
        names = [set(r) - {"error"} for side in runs.values() for r in side if "error" not in r]
        metrics = sorted(set.intersection(*names)) if names else []
    base, head = _summary(runs["base"], metrics), _summary(runs["head"], metrics)
    ratio = {}
    for m in metrics:
        if base.get(m) and head.get(m):
            ratio[m] = round(head[m] / base[m] if _higher_is_better(m) else base[m] / head[m], 3)
    return {"runs": runs, "median_base": base, "median_head": head, "head_vs_base": ratio}


def _order(round_: int, base_tree: Path) -> list[tuple[str, Path]]:
    """Base first in even rounds, head first in odd ones (ABBA): the second run of a pair can
    be slower on this machine whichever tree it is (tests/bench/test_compare_whole.py)."""
    pair = [("base", base_tree), ("head", ROOT)]
    return pair if round_ % 2 == 0 else pair[::-1]


def _whole_args(args, tokens: int | None) -> list[str]:
    """The whole benchmark's arguments: one launch pair, or serving at its own default length
    unless --tokens was given."""
    quick = ["--quick"] if args.quick else []
    if args.bench == "startup":
        return ["--runs", "1", *quick]
    return [*(["--tokens", str(tokens)] if tokens else []), "--device", args.device, *quick]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument(
        "--base", help="git revision to compare against (e.g. the previous main; --quick: HEAD)"
    )
    p.add_argument(
        "--bench", choices=["decode", "steady", *WHOLE], default="decode", help="what to compare"
    )
    p.add_argument("--repeat", type=int, default=6, help="--bench steady: timings per process")
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
    explicit_tokens = args.tokens
    args.tokens = args.tokens or (8 if args.quick else 64)
    args.rounds = args.rounds or (1 if args.quick else 2)
    model = str(bench_model(args.model, args.quick)[0])
    with tempfile.TemporaryDirectory(prefix="chattts-base-") as scratch:
        base_tree = Path(scratch) / "tree"
        _unpack(args.base, base_tree)
        report = {
            "bench": args.bench,
            "base": args.base,
            "head": "working tree",
            "device": args.device,
            "tokens": args.tokens,
            "modes": {},
        }
        # Each tree's own user folders (library, compiled-step and numba caches), kept across
        # its runs: a newer revision migrates the library, which an older one then refuses.
        homes = {"base": Path(scratch) / "home-base", "head": Path(scratch) / "home-head"}
        entries = args.modes.split(",") if args.bench in ("decode", "steady") else [args.bench]

        def measure(side: str, tree: Path, entry: str) -> dict:
            if args.bench == "decode":
                return _measure(tree, homes[side], entry, model, args.tokens, args.device)
            if args.bench == "steady":
                return _measure_steady(
                    tree, homes[side], entry, model, args.tokens, 2 if args.quick else args.repeat
                )
            extra = _whole_args(args, explicit_tokens)
            return _measure_whole(tree, homes[side], args.bench, model, extra)

        for entry in entries:
            runs: dict[str, list[dict]] = {"base": [], "head": []}
            if args.bench != "startup" and not args.quick:
                # One unmeasured run per tree first: its caches filled, as a user's are after a
                # first start (startup.py measures cold and warm starts itself).
                for side, tree in _order(0, base_tree):
                    measure(side, tree, entry)
            for round_ in range(args.rounds):
                for side, tree in _order(round_, base_tree):
                    run = measure(side, tree, entry)
                    runs[side].append(run)
                    # each run as it ends, so a run cut short still leaves its numbers
                    print(json.dumps({"entry": entry, "side": side, **run}), file=sys.stderr)
            metrics = {"decode": METRICS, "steady": STEADY_METRICS}.get(args.bench)
            report["modes"][entry] = _compare(runs, metrics)
    emit(report, args, __file__)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
