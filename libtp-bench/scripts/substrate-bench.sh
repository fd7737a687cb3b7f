#!/usr/bin/env bash
# Substrate benchmarks (docs/benchmarks.md, "Substrate"): JMH MemoryBench + LatchBench and the
# two-JVM ping-pong, on the default JDK and (if present) JDK 25. Run from the repository root
# after `mvn -q -o -DskipTests package`. Results (JMH JSON + logs) go to $OUT.
set -euo pipefail
JAR=${JAR:-libtp-bench/target/libtp-bench.jar}
JAVA=${JAVA:-java}
JAVA25=${JAVA25:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
OUT=${OUT:-libtp-bench/target/substrate-results}
JMH_OPTS=${JMH_OPTS:--f 1 -wi 3 -w 1s -i 5 -r 1s}
PP_SECONDS=${PP_SECONDS:-10}
mkdir -p "$OUT"

{
  date -u
  git rev-parse HEAD 2>/dev/null || true
  git status --short libtp-core 2>/dev/null || true
  "$JAVA" -version 2>&1
  [ -x "$JAVA25" ] && "$JAVA25" -version 2>&1
  lscpu | grep -E 'Model name|^CPU\(s\)|Core\(s\)|Thread\(s\)|Hypervisor'
  df -T /tmp /work 2>/dev/null || df -T /tmp
  uptime
} | tee "$OUT/system.txt"

run() { # name, then the command
  local name=$1; shift
  echo "== $name ($(uptime | sed 's/.*load/load/'))" | tee -a "$OUT/loads.txt"
  "$@" > "$OUT/$name.log" 2>&1
  grep -A60 '^Benchmark ' "$OUT/$name.log" | grep -v '^Benchmark result' || tail -n 3 "$OUT/$name.log"
}

# $JMH_OPTS is split into words on purpose.
# shellcheck disable=SC2086
run jmh-jdk17 "$JAVA" -jar "$JAR" jmh $JMH_OPTS -prof gc -rf json -rff "$OUT/jmh-jdk17.json"
# shellcheck disable=SC2086
run jmh-latch-impl-jdk17 "$JAVA" -jar "$JAR" jmh $JMH_OPTS -p impl=VARHANDLE,CHRONICLE \
    -rf json -rff "$OUT/jmh-latch-impl-jdk17.json" 'LatchBench.(latch|semaphore)'
for i in 1 2; do
  echo "== pingpong-jdk17-$i ($(uptime | sed 's/.*load/load/'))" | tee -a "$OUT/loads.txt"
  "$JAVA" -jar "$JAR" pingpong --seconds "$PP_SECONDS" 2>>"$OUT/pingpong.err" | tee -a "$OUT/pingpong.jsonl"
done
if [ -x "$JAVA25" ]; then
  # shellcheck disable=SC2086
  run jmh-latch-jdk25 "$JAVA25" --enable-native-access=ALL-UNNAMED -jar "$JAR" jmh $JMH_OPTS \
      -rf json -rff "$OUT/jmh-latch-jdk25.json" LatchBench
  for i in 1 2; do
    echo "== pingpong-jdk25-$i ($(uptime | sed 's/.*load/load/'))" | tee -a "$OUT/loads.txt"
    "$JAVA25" --enable-native-access=ALL-UNNAMED -jar "$JAR" pingpong --seconds "$PP_SECONDS" \
        2>>"$OUT/pingpong.err" | tee -a "$OUT/pingpong.jsonl"
  done
fi
uptime | tee -a "$OUT/loads.txt"
