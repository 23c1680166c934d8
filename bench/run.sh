#!/usr/bin/env bash
# Side-by-side benchmark: a real Pulsar 4.0.7 broker, Sluice (proxy-server/target/sluice.jar) and
# Apache Pulsar's own proxy, each its own process, driven with identical loads. Results go to
# docs/bench/ (results.md, results.json for bench/compare.sh, *.png, profiles/). Sizes are system
# properties in BENCH_OPTS, for example
#   BENCH_OPTS="-Dbench.rounds=5 -Dbench.measureSeconds=15" bench/run.sh
# `bench/run.sh kafka` runs the Kafka suite instead: a real three-broker cluster, directly, through
# Sluice and through Kroxylicious, and kafka-producer-perf-test (kafka-results.md). `bench/run.sh kafka-quotas` runs
# the Kafka quotas suite: how exactly Sluice's produce and fetch limits hold, and a flooded limited
# topic beside another of the same producer, against Kafka's own client-id quota (kafka-quotas-results.md).
# `bench/run.sh kafka-tls` runs the Kafka suite's producer loads with TLS on both legs: to the brokers' SSL
# listener directly, through Sluice and through Kroxylicious (kafka-tls/kafka-results.md).
# --no-build skips the Maven build (use the jars already built).
# Run with nothing else on the machine: a suite refuses to start, and each measured run waits, while
# the 1-minute load average is over 1.5; -Dbench.allowLoad=true in BENCH_OPTS overrides that, and the
# results say so (docs/BENCHMARKS.md, the load gate).
set -euo pipefail
cd "$(dirname "$0")/.."
suite=io.sluice.bench.sidebyside.SideBySide
results=results.json
if [[ "${1:-}" == "kafka" ]]; then
  suite=io.sluice.bench.sidebyside.KafkaSideBySide
  results=kafka-results.json
  shift
elif [[ "${1:-}" == "kafka-tls" ]]; then
  suite=io.sluice.bench.sidebyside.KafkaTlsSideBySide
  results=kafka-tls/kafka-results.json
  shift
elif [[ "${1:-}" == "kafka-quotas" ]]; then
  suite=io.sluice.bench.sidebyside.KafkaQuotaSideBySide
  results=kafka-quotas-results.json
  shift
fi
if [[ "${1:-}" != "--no-build" ]]; then
  # package, not install: the reactor puts the modules' own target/ jars on bench.classpath.
  mvn -B -q package -DskipTests -pl bench -am
fi
# The connections scenarios hold several sockets per client in each process: about 9 per client in
# Apache Pulsar's proxy (1,000 clients: 10,024 files), 4 in Sluice (10,000 clients of the
# many-connections scenario: 40,000 and more). Raise the limit as far as this shell may; the JVM
# raises its soft limit to the hard one, and the broker and proxies, its children, inherit it. Each
# scenario checks its own need and names the figure if the limit is too low.
wanted=100000
if [[ "$(ulimit -Hn)" != unlimited && "$(ulimit -Hn)" -lt $wanted ]]; then
  ulimit -Hn $wanted 2>/dev/null || echo "cannot raise the hard open-file limit to $wanted (it is $(ulimit -Hn))" >&2
fi
ulimit -Sn "$(ulimit -Hn)"
commit="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo +changes)"
# The committed results are the baseline every run is compared with (bench/compare.sh), before
# the run overwrites them.
baseline=$(mktemp "${TMPDIR:-/tmp}/sluice-bench-baseline-XXXXXX.json")
trap 'rm -f "$baseline"' EXIT
git show "HEAD:docs/bench/$results" > "$baseline" 2>/dev/null || : > "$baseline"
output=docs/bench
for option in ${BENCH_OPTS:-}; do
  [[ "$option" == -Dbench.output=* ]] && output="${option#-Dbench.output=}"
done
status=0
# shellcheck disable=SC2086  # BENCH_OPTS is a list of options
java -Dbench.commit="$commit" ${BENCH_OPTS:-} -cp "bench/target/classes:$(cat bench/target/bench.classpath)" "$suite" \
  || status=$?
if [[ "$status" == 0 && -s "$baseline" && -f "$output/$results" ]]; then
  echo
  echo "Against the committed docs/bench/$results (ratios measured in one run; bench/compare.sh):"
  bench/compare.sh "$baseline" "$output/$results" \
    || echo "bench: some figures got worse than in the committed results (the table above); a change to explain"
fi
exit "$status"
