#!/usr/bin/env bash
# The regression guard: compares two runs' results.json (bench/run.sh writes docs/bench/results.json)
# and exits 1 if a figure got worse by more than the threshold (10 % unless --threshold says), 0 if
# none did. Only ratios measured side by side in one run count, unless --all. For example
#   bench/compare.sh docs/bench/results.json /tmp/candidate/results.json --threshold 5
set -euo pipefail
cd "$(dirname "$0")/.."
exec java -cp "bench/target/classes:$(cat bench/target/bench.classpath)" \
  io.sluice.bench.sidebyside.CompareResults "$@"
