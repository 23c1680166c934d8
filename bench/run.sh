#!/usr/bin/env bash
# Side-by-side benchmark: a real Pulsar 4.0.7 broker, Sluice (proxy-server/target/sluice.jar) and
# Apache Pulsar's own proxy, each its own process, driven with identical loads. Results and charts go
# to docs/bench/ (results.md, *.png). Sizes are system properties in BENCH_OPTS, for example
#   BENCH_OPTS="-Dbench.rounds=5 -Dbench.measureSeconds=15" bench/run.sh
# `bench/run.sh kafka` runs the Kafka suite instead: a real three-broker cluster, directly and
# through Sluice, and kafka-producer-perf-test (kafka-results.md).
# --no-build skips the Maven build (use the jars already built).
# The connections scenario needs `ulimit -Hn` of at least 9 per connection plus 1024 (10024 for 1,000).
set -euo pipefail
cd "$(dirname "$0")/.."
suite=io.sluice.bench.sidebyside.SideBySide
if [[ "${1:-}" == "kafka" ]]; then
  suite=io.sluice.bench.sidebyside.KafkaSideBySide
  shift
fi
if [[ "${1:-}" != "--no-build" ]]; then
  mvn -B -q install -DskipTests -pl bench -am
fi
# shellcheck disable=SC2086  # BENCH_OPTS is a list of options
exec java ${BENCH_OPTS:-} -cp "bench/target/classes:$(cat bench/target/bench.classpath)" "$suite"
