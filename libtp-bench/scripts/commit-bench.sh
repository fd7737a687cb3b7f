#!/usr/bin/env bash
# Commit benchmarks (docs/benchmarks.md, "Transaction commit" and "Log commit"): the
# five `commit` runs, one after the other, so that their ratios come from one sitting. Run from the
# repository root after `mvn -q -o -DskipTests package -pl libtp-core,libtp-bench -am`.
# LEVEL=txn (default): transaction commits (begin + one update + commit through the transaction
# manager); LEVEL=log: the log manager alone (one appendAndFlush per commit), as first measured.
# Each run prints one JSON line; they are collected in $OUT/commit.jsonl, stderr in $OUT/commit.err.
set -euo pipefail
JAR=${JAR:-libtp-bench/target/libtp-bench.jar}
JAVA=${JAVA:-java}
LEVEL=${LEVEL:-txn}
OUT=${OUT:-libtp-bench/target/commit-results-$LEVEL}
SECONDS_PER_RUN=${SECONDS_PER_RUN:-10}
mkdir -p "$OUT"

{
  date -u
  git rev-parse HEAD 2>/dev/null || true
  git status --short libtp-core 2>/dev/null || true
  "$JAVA" -version 2>&1
  lscpu | grep -E 'Model name|^CPU\(s\)|Core\(s\)|Thread\(s\)|Hypervisor'
  uname -r
  df -T /tmp /work 2>/dev/null || df -T /tmp
  uptime
} | tee "$OUT/system.txt"

run() { # then the commit options
  echo "== commit $* ($(date -u +%T) $(uptime | sed 's/.*load/load/'))" | tee -a "$OUT/loads.txt"
  "$JAVA" -jar "$JAR" commit --level "$LEVEL" --seconds "$SECONDS_PER_RUN" "$@" 2>>"$OUT/commit.err" | tee -a "$OUT/commit.jsonl"
}

# SYNC runs first: the NO_SYNC run writes (and at the end deletes) one to several GB of log files,
# which would disturb the force rate of whatever ran right after it.
run --threads 1 --durability sync
run --threads 8 --durability sync
run --threads 2 --processes 4 --durability sync
run --threads 1 --durability write_no_sync
run --threads 1 --durability no_sync
echo "== end ($(date -u +%T) $(uptime | sed 's/.*load/load/'))" | tee -a "$OUT/loads.txt"
