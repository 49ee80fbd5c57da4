"""`python -m app.selftest tiny-model DIR` / `full-model DIR`: build a random-weight model."""

from __future__ import annotations

import argparse
import sys
import time


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m app.selftest",
                                description="Build a random-weight ChatTTS model (noise, not speech) for tests and benchmarks.")
    p.add_argument("command", choices=["tiny-model", "full-model"])
    p.add_argument("dir", help="a new or empty folder")
    p.add_argument("--seed", type=int, default=0, help="weight seed (default 0)")
    args = p.parse_args(argv)

    from app.engine.synthesizer import quiet_libraries
    from app.selftest.random_model import build_random_model

    quiet_libraries()
    started = time.perf_counter()
    size = args.command.split("-")[0]
    try:
        out = build_random_model(args.dir, size=size, seed=args.seed)
    except (FileExistsError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"Built a {size} random-weight model in {out} ({time.perf_counter() - started:.1f} s).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
