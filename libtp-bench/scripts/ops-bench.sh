#!/usr/bin/env bash
# ops-bench.sh: the operations benchmarks of the libtp command, in one sitting.
#
#   libtp-bench/scripts/ops-bench.sh                    # RECORDS=10000000, 30 s TPC-B runs (about 10 minutes)
#   QUICK=1 libtp-bench/scripts/ops-bench.sh            # smoke run (RECORDS=200000, 5 s runs)
#
# Runs from the repository root. Needs libtp-bench/target/libtp-bench.jar (mvn -q -DskipTests package). Prints, and appends to $OUT/ops.jsonl (bench-results/<date>-ops/):
#   1. `load`: RECORDS records (8-byte keys, 32-byte values) loaded three ways from one dump: a Database.put
#      loop in transactions of 10,000, `libtp load`, and db5.3_load (if installed); loadVsPut is the target
#      (>= 0.8), loadVsDb53 the comparison.
#   2. TPC-B (libtp, scale 10, MPL 8, durable) for SECONDS: a warm-up run on the fresh database (not counted),
#      a run without a backup, then ROUNDS times (2) a run while another JVM (the bench's `backup` command,
#      joined to it) takes hot backups one after another and a run without again: the mean of the runs
#      with backups against the mean of those without is the target (>= 0.7). Runs on this shared VM
#      differ by up to a third from one to the next, hence the alternation. The backups yield to the committers (BackupConfig.yieldToCommits)
#      unless FULL_SPEED=1.
#   3. Backup throughput: MB/s of those backups (their own timing), and of `cp -r` of the same directory
#      (the page cache warm in both).
set -euo pipefail
cd "$(dirname "$0")/../.."
QUICK=${QUICK:-}
RECORDS=${RECORDS:-$([ -n "$QUICK" ] && echo 200000 || echo 10000000)}
SECONDS_RUN=${SECONDS_RUN:-$([ -n "$QUICK" ] && echo 5 || echo 30)}
RATE_MB=${RATE_MB:-0} # the backups' --rate (0: no fixed limit); SKIP_LOAD=1 skips part 1
FULL_SPEED=${FULL_SPEED:-} # 1: the backups do not yield to committers (--full-speed)
YIELDS=$([ -n "$FULL_SPEED" ] && echo false || echo true)
ROUNDS=${ROUNDS:-$([ -n "$QUICK" ] && echo 1 || echo 2)} # runs with backups, each followed by one without
OUT=${OUT:-bench-results/$(date +%Y-%m-%d)-ops$([ -n "$QUICK" ] && echo -quick || true)}
B=libtp-bench/target/libtp-bench.jar
JAVA=${JAVA:-java}
[ -f "$B" ] || mvn -q -DskipTests ${MVN_FLAGS:-} package
mkdir -p "$OUT"
W=$(mktemp -d "${TMPDIR:-/tmp}/libtp-ops.XXXXXX")
trap 'rm -rf "$W"' EXIT

if [ -z "${SKIP_LOAD:-}" ]; then
  echo "== load: $RECORDS records"
  $JAVA -jar "$B" load --records "$RECORDS" --dir "$W/load" 2>"$OUT/load.err" | grep '^{' | tee -a "$OUT/ops.jsonl"
  rm -rf "$W/load"
fi

TPCB_ARGS="--engine libtp --scale 10 --mpl 8 --seconds $SECONDS_RUN --dir $W/env"
echo "== TPC-B warm-up (load, then one run not counted: a fresh database runs faster than every later run)"
$JAVA -jar "$B" tpcb $TPCB_ARGS --fresh 2>"$OUT/tpcb-warmup.err" >/dev/null

echo "== TPC-B without a backup"
$JAVA -jar "$B" tpcb $TPCB_ARGS 2>"$OUT/tpcb-base.err" | sed 's/^{/{"phase":"without backup",/' | tee -a "$OUT/ops.jsonl"

for round in $(seq "$ROUNDS"); do
echo "== TPC-B while hot backups run one after another (another JVM: the bench's backup command), round $round"
$JAVA -jar "$B" tpcb $TPCB_ARGS 2>"$OUT/tpcb-backup.err" >"$W/during.json" &
TPCB=$!
sleep 3 # the warm-up (tpcb's default 3 s)
$JAVA -jar "$B" backup --dir "$W/env" --dest "$W/bk" --seconds "$SECONDS_RUN" --rate-mb "$RATE_MB" ${FULL_SPEED:+--full-speed} 2>"$OUT/backup.err" \
  | grep '^{' | tee -a "$OUT/ops.jsonl"
wait "$TPCB"
sed "s/^{/{\"phase\":\"during backups\",\"backupRateMb\":$RATE_MB,\"backupYields\":$YIELDS,/" "$W/during.json" | tee -a "$OUT/ops.jsonl"

echo "== TPC-B without a backup, again"
$JAVA -jar "$B" tpcb $TPCB_ARGS 2>"$OUT/tpcb-after.err" | sed 's/^{/{"phase":"without backup after",/' | tee -a "$OUT/ops.jsonl"
done

echo "== cp -r of the same directory"
rm -rf "$W/cp"
bytes=$(du -sb "$W/env" | cut -f1)
t0=$(date +%s%N)
cp -r "$W/env" "$W/cp"
sync -f "$W/cp" 2>/dev/null || true
t1=$(date +%s%N)
awk -v b="$bytes" -v ns="$((t1 - t0))" 'BEGIN { printf "{\"bench\":\"cp\",\"bytes\":%d,\"ms\":%d,\"mbPerSecond\":%.1f}\n",
  b, ns / 1e6, b / 1e6 / (ns / 1e9) }' | tee -a "$OUT/ops.jsonl"
python3 - "$OUT/ops.jsonl" <<'PY' || true
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
last = max(i for i, r in enumerate(rows) if r.get("phase") == "without backup")
without = [r["txnPerSec"] for r in rows[last:] if r.get("phase", "").startswith("without backup")]
during = [r["txnPerSec"] for r in rows[last:] if r.get("phase") == "during backups"]
mean = lambda v: sum(v) / len(v)
print("TPC-B without backups %s, during %s: %.3f x (mean during / mean without; target >= 0.7)"
      % ([round(v) for v in without], [round(v) for v in during], mean(during) / mean(without)))
bk = [r for r in rows if r.get("bench") == "backup"][-1]
if bk.get("rateMb", 0) > 0:
    print("(the backups ran at --rate %s MB/s)" % bk["rateMb"])
cp = [r for r in rows if r.get("bench") == "cp"][-1]
print("backup %.0f MB/s, cp -r %.0f MB/s: %.2f x" % (bk["mbPerSecond"], cp["mbPerSecond"], bk["mbPerSecond"] / cp["mbPerSecond"]))
PY
