"""Speech server throughput: 1, 4 and 8 concurrent clients, cross-request batching on and off
in the same run. Prints JSON, with the batch cap the engine chose (`batch_cap`: measured for the
compiled step on this machine at its first load, app/decode/row_cap.py, or the device's constant).

The server (app/server over one Engine) runs in this process on 127.0.0.1; each client is a
thread that streams `--requests` pcm requests one after another with httpx. Per mode and client
count: requests_per_s, first_byte_s and total_s p50/p95. "batched" is the server as shipped
(concurrent requests share decode batches); "one_at_a_time" wraps every job in one lock, so the
engine sees a single request at a time. Random weights rarely end a sentence, so each sentence
is forced to --tokens audio tokens (min = max new tokens), refinement off; the audio is noise.

    python bench/serve.py [--model DIR] [--precision int8] [--tokens 32] [--requests 2]
                          [--clients 1,4,8] [--quick] [--save]
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.support.model import bench_model
from bench.support.results import add_save_argument, emit

TEXT = "The quick brown fox jumps over the lazy dog near the river bank."


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))], 3)


class _OneAtATime:
    """The engine as the server sees it, with each job waiting for the previous one to end."""

    def __init__(self, engine):
        self.engine = engine
        self.lock = threading.Lock()

    def submit(self, request, priority):
        return _LockedJob(self.lock, self.engine, request, priority)

    def __getattr__(self, name):
        return getattr(self.engine, name)


class _LockedJob:
    def __init__(self, lock, engine, request, priority):
        self.lock, self.engine, self.request, self.priority = lock, engine, request, priority
        self.job = None
        self.id = 0

    def cancel(self):
        if self.job is not None:
            self.job.cancel()

    def __iter__(self):
        with self.lock:
            self.job = self.engine.submit(self.request, self.priority)
            self.id = self.job.id
            yield from self.job


def _serve(state):
    import socket

    import uvicorn

    from app.server.app import create_app

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(
            create_app(state), host="127.0.0.1", port=port, log_level="warning", lifespan="off"
        )
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.01)
    return server, thread, f"http://127.0.0.1:{port}"


def _one_request(url: str) -> tuple[float, float, int]:
    import httpx

    body = {"model": "tts-1", "voice": "alloy", "input": TEXT, "response_format": "pcm"}
    started = time.perf_counter()
    first = None
    size = 0
    with httpx.stream("POST", url + "/v1/audio/speech", json=body, timeout=600) as response:
        response.raise_for_status()
        for data in response.iter_bytes():
            if first is None and data:
                first = time.perf_counter() - started
            size += len(data)
    return first or 0.0, time.perf_counter() - started, size


class _Steps:
    """Counts the decode loop's steps and the sentences in each (how full batches are)."""

    def __init__(self, loop):
        from tests.support.decode_hooks import step_hooked

        self.steps = self.rows = 0
        loop.filter_step = step_hooked(loop, self)  # for the rest of the run

    def __call__(self, _step, _logits, rows):
        self.steps += 1
        self.rows += rows.numel()

    def take(self) -> dict:
        seen = {
            "decode_steps": self.steps,
            "rows_per_step": round(self.rows / self.steps, 2) if self.steps else 0,
        }
        self.steps = self.rows = 0
        return seen


def _batch_cap(synth) -> dict:
    """The most sentences a batch takes (memory aside) and where that figure came from."""
    from app.decode import max_batch

    rows, loop = synth.row_cap, synth.loop
    if loop is None:
        return {"cap": None, "source": "ChatTTS's own decode"}
    if rows is None or loop.row_cap is None:
        return {"cap": max_batch(loop), "source": "the device's constant"}
    return {
        "cap": max_batch(loop),
        "source": "measured at this load" if rows.measured_now else "measured earlier, read back",
        "ms_per_step": {str(b): ms for b, ms in rows.ms_per_step.items()},
    }


def _round(url: str, clients: int, requests: int, steps: _Steps) -> dict:
    steps.take()
    firsts, totals, errors = [], [], []
    lock = threading.Lock()

    def client():
        for _ in range(requests):
            try:
                first, total, size = _one_request(url)
                if size == 0:
                    raise RuntimeError("no audio")
                with lock:
                    firsts.append(first)
                    totals.append(total)
            except Exception as exc:  # counted and reported, the round goes on
                errors.append(repr(exc))

    threads = [threading.Thread(target=client) for _ in range(clients)]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - started
    return {
        "clients": clients,
        "requests": len(totals),
        "errors": errors[:3],
        "requests_per_s": round(len(totals) / wall, 3),
        "first_byte_s": {"p50": _percentile(firsts, 0.5), "p95": _percentile(firsts, 0.95)}
        if firsts
        else None,
        "total_s": {"p50": _percentile(totals, 0.5), "p95": _percentile(totals, 0.95)}
        if totals
        else None,
        "wall_s": round(wall, 2),
        **steps.take(),
    }


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument(
        "--model", help="model folder (built with random full-size weights if empty or missing)"
    )
    p.add_argument(
        "--precision", default="int8", help="decode precision (default int8, the fastest on a CPU)"
    )
    p.add_argument("--device", default="cpu")
    p.add_argument("--tokens", type=int, help="audio tokens per sentence (default 32; --quick 8)")
    p.add_argument("--requests", type=int, help="requests per client (default 2; --quick 1)")
    p.add_argument("--clients", help="concurrent clients per round (default 1,4,8; --quick 1,2)")
    p.add_argument(
        "--quick",
        action="store_true",
        help="tiny model, short requests, 1 and 2 clients (smoke test)",
    )
    p.add_argument(
        "--json", action="store_true", help="JSON is the only output (kept for old commands)"
    )
    add_save_argument(p)
    args = p.parse_args(argv)
    args.tokens = args.tokens or (8 if args.quick else 32)
    args.requests = args.requests or (1 if args.quick else 2)
    args.clients = args.clients or ("1,2" if args.quick else "1,4,8")

    from app.core.request import SamplingParams
    from app.server.app import ServerState
    from app.synthesis.engine import Engine
    from app.synthesis.synthesizer import Synthesizer

    model, size = bench_model(args.model, args.quick)
    synth = Synthesizer(model, device=args.device, precision=args.precision)
    engine = Engine.loading(synth, verify=False)  # as the server loads it: on the engine's thread
    sampling = SamplingParams(max_new_tokens=args.tokens, min_new_tokens=args.tokens)
    counts = [int(c) for c in args.clients.split(",")]
    report = {
        "model": f"random weights, {size} size",
        "decode": synth.decode_label,
        "device": synth.device.device,
        "tokens_per_request": args.tokens,
        "requests_per_client": args.requests,
        "batch_cap": _batch_cap(synth),
        "modes": {},
    }
    steps = _Steps(synth.loop)
    try:
        for mode, served in (("batched", engine), ("one_at_a_time", _OneAtATime(engine))):
            state = ServerState(
                engine=served,
                max_queue=max(counts) * 2,
                sampling=sampling,
                refine_text=False,
            )
            server, thread, url = _serve(state)
            _one_request(url)  # warm-up: first shapes compile
            report["modes"][mode] = [_round(url, c, args.requests, steps) for c in counts]
            server.should_exit = True
            thread.join(30)
    finally:
        engine.close(60)
    batched = {r["clients"]: r for r in report["modes"]["batched"]}
    serial = {r["clients"]: r for r in report["modes"]["one_at_a_time"]}
    report["throughput_gain"] = {
        str(c): round(batched[c]["requests_per_s"] / serial[c]["requests_per_s"], 2)
        for c in counts
        if serial[c]["requests_per_s"]
    }
    emit(report, args, __file__)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
