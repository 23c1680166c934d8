#!/usr/bin/env bash
# Builds Sluice and runs the demo: a real Pulsar broker, Sluice in front of it, one limited and one
# unlimited producer with their rates shown live; `./demo.sh kafka` a real Kafka cluster behind
# Sluice instead, `./demo.sh both` the two through one Sluice. Ctrl-C stops everything.
set -euo pipefail
cd "$(dirname "$0")"
mvn -B -q install -DskipTests -pl demo -am
exec java -cp "demo/target/classes:$(cat demo/target/demo.classpath)" io.sluice.demo.SluiceDemo "$@"
