#!/usr/bin/env bash
# Mutation testing of the core modules against their own tests; prints killed/survived per
# module as JSON (bench/mutation/mutation.py says how). mutmut is a development tool: it comes from the
# `mutation` extra and is installed here when missing, never a runtime dependency.
#   bash bench/mutation.sh [group ...]     MUTATION_CHILDREN=2 MUTATION_WORK=/tmp/...
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-.venv/bin/python}
if ! "$PY" -c "import mutmut" 2>/dev/null; then
  "$PY" -m pip install -q "mutmut>=3.8,<4"
fi
exec nice -n "${MUTATION_NICE:-10}" "$PY" bench/mutation/mutation.py "$@"
