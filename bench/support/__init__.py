"""What the benchmarks share (not benchmarks themselves): the random-weight model they run on
and how a run is printed and saved. tests/bench/test_bench_smoke.py runs every bench/*.py."""
