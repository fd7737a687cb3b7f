#!/usr/bin/env bash
# bench-report.sh: the TPC-B and OO1 measurements (the paper's section 5) and the generated section of
# docs/benchmarks.md, in one sitting.
#
#   libtp-bench/scripts/bench-report.sh                 # the full matrix (about an hour with the defaults)
#   QUICK=1 libtp-bench/scripts/bench-report.sh         # smoke run: 1 s runs, small databases (a few minutes)
#   DRY_RUN=1 libtp-bench/scripts/bench-report.sh       # print the plan only
#
# Runs from the repository root (wherever it is called from). Builds libtp-bench/target/libtp-bench.jar
# if it is missing (mvn -q -DskipTests package -pl libtp-bench -am; MVN_FLAGS=-o for offline), then
# runs, one after the other, each command printing JSON lines into $OUT (bench-results/<date>/,
# git-ignored; bench-results/<date>-quick/ with QUICK=1):
#   machine.jsonl  `report --probe-machine`: date, JDK, CPU, cores, kernel, file system of the databases
#   commit.jsonl   `commit --threads 1 --durability sync`: rawForcesPerSec, the disk's raw force rate
#   tpcb.jsonl     `tpcb`: every engine of $ENGINES at scale 10 with each MPL of $MPLS, durable (sync)
#                  then no-sync (notp and flock have no log: run once; fsync is always durable);
#                  scale 1 for $SCALE1_ENGINES; `--processes 4 --mpl 1` for $PROC_ENGINES (engines that
#                  cannot share a database between processes are skipped); the paper's small database
#                  (`--scale 10 --accounts 1000`), `--txn readonly` and full no-sync, MPL $SMALL_MPLS,
#                  for $SMALL_ENGINES
#   oo1.jsonl      `oo1 --cold` for every engine of $ENGINES (the cold runs drop the OS page cache: root)
# and each command's stderr in <name>.err next to it. Every engine and database size has one --dir
# under $OUT/db, so each database is loaded once and reused by the later runs; the databases are
# deleted at the end unless KEEP_DBS=1. Finally it runs
#   java -jar libtp-bench/target/libtp-bench.jar report --md $MD --img $IMG $OUT/*.jsonl
# which rewrites the text between <!-- generated:begin --> and <!-- generated:end --> of $MD
# (appending it if absent; the rest of the file is kept) and the PNG charts in $IMG. The report can
# be rerun alone on kept results; a later line for the same configuration replaces an earlier one,
# so a failed or doubtful run can be redone by hand and appended to the .jsonl file.
#
# Settings (environment; QUICK=1 changes the defaults shown in brackets):
#   SECONDS_PER_RUN  measured seconds per tpcb/commit run            10   [1]
#   WARMUP           warm-up seconds per run (times P for --processes P)  3    [0.5]
#   MPLS             MPLs of the main TPC-B runs                      "1 2 4 8"   [1 4]
#   SMALL_MPLS       MPLs of the small-database runs                  "1 2 3 4 5 6 7 8"   [1 4]
#   ENGINES          engines of the main TPC-B runs and of OO1        "libtp notp flock fsync sqlite h2 je lmdb"
#   SCALE1_ENGINES   engines also run at scale 1                      "libtp sqlite lmdb"   [libtp]
#   SMALL_ENGINES    engines of the small-database runs               "libtp notp flock"   [libtp notp]
#   PROC_ENGINES     engines run with --processes 4 --mpl 1           "libtp libtp-jdbc"   [libtp]
#   JDBC_ENGINES     engines reached through JDBC, TPC-B scale 10 only "libtp-jdbc h2-sql"   [libtp-jdbc]
#                    (sqlite, in ENGINES, is sqlite-jdbc: the third JDBC engine)
#   ACCOUNTS_S10     accounts at scale 10                             1000000 (TPC-B)   [10000]
#   ACCOUNTS_S1      accounts at scale 1                              100000 (TPC-B)    [1000]
#   CACHE_MB         tpcb --cache-mb                                  256
#   OO1_PARTS        oo1 --parts                                      20000   [2000]
#   OO1_REPEAT       oo1 --repeat (the paper: the mean of 20)          20      [2]
#   RAW_SECONDS      commit --raw-seconds                             3       [1]
#   OUT              results directory                                bench-results/<UTC date>[-quick]
#   MD, IMG          report outputs       docs/benchmarks.md, docs/img   [$OUT/benchmarks.md, $OUT/img]
#   KEEP_DBS         1: keep $OUT/db                                  0
#   BDB              1: add Berkeley DB C (engine bdb) to the scale-10 TPC-B runs, the
#                    --processes 4 runs and OO1 (needs a jar built with -Pbdb)      0
#   JAVA, JAR        java binary, benchmark jar                       java, libtp-bench/target/libtp-bench.jar
# A QUICK run writes its report into $OUT, not into docs/, unless MD and IMG say otherwise: its
# numbers (1 s runs on small databases) only show that the pipeline works.
# Exit status: 0 if every run succeeded and the report was written, 1 otherwise.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1

QUICK=${QUICK:-0}
if [[ $QUICK == 1 ]]; then
  : "${SECONDS_PER_RUN:=1}" "${WARMUP:=0.5}" "${MPLS:=1 4}" "${SMALL_MPLS:=1 4}"
  : "${SCALE1_ENGINES:=libtp}" "${SMALL_ENGINES:=libtp notp}" "${JDBC_ENGINES:=libtp-jdbc}"
  : "${ACCOUNTS_S10:=10000}" "${ACCOUNTS_S1:=1000}" "${OO1_PARTS:=2000}" "${OO1_REPEAT:=2}" "${RAW_SECONDS:=1}"
  : "${OUT:=bench-results/$(date -u +%Y-%m-%d)-quick}"
  : "${MD:=$OUT/benchmarks.md}" "${IMG:=$OUT/img}"
fi
: "${SECONDS_PER_RUN:=10}" "${WARMUP:=3}" "${MPLS:=1 2 4 8}" "${SMALL_MPLS:=1 2 3 4 5 6 7 8}"
: "${ENGINES:=libtp notp flock fsync sqlite h2 je lmdb}" "${JDBC_ENGINES:=libtp-jdbc h2-sql}"
: "${SCALE1_ENGINES:=libtp sqlite lmdb}" "${SMALL_ENGINES:=libtp notp flock}" "${PROC_ENGINES:=libtp libtp-jdbc}"
: "${ACCOUNTS_S10:=1000000}" "${ACCOUNTS_S1:=100000}" "${CACHE_MB:=256}"
: "${OO1_PARTS:=20000}" "${OO1_REPEAT:=20}" "${RAW_SECONDS:=3}"
: "${OUT:=bench-results/$(date -u +%Y-%m-%d)}"
: "${MD:=docs/benchmarks.md}" "${IMG:=docs/img}"
: "${KEEP_DBS:=0}" "${DRY_RUN:=0}"
JAVA=${JAVA:-java}
JAR=${JAR:-libtp-bench/target/libtp-bench.jar}
DB=$OUT/db

log() { echo "bench-report: $*" >&2; }

if [[ ! -f $JAR && $DRY_RUN != 1 ]]; then
  log "building $JAR"
  # shellcheck disable=SC2086  # MVN_FLAGS is a list of flags
  mvn -q -DskipTests ${MVN_FLAGS:-} package -pl libtp-bench -am || { log "build failed"; exit 1; }
fi

# ------------------------------------------------------------------ the plan
# matrix calls `step <command> <args...>` once per run; it is walked twice: to count, then to run.

MODE=count
TOTAL=0
I=0
FAILED=0
START=$(date +%s)

elapsed() { local s=$(($(date +%s) - START)); printf '%d:%02d' $((s / 60)) $((s % 60)); }

# BDB=1: Berkeley DB C joins the scale-10 TPC-B runs, the --processes 4 runs (after $PROC_ENGINES)
# and OO1 (after $ENGINES). It needs Debian's libdb5.3-java and libdb5.3-java-jni and a jar built
# with -Pbdb (mvn -q -DskipTests -Pbdb package -pl libtp-bench -am).
CLASSPATH_RUN=$JAR
BDB_EXTRA=""
if [[ ${BDB:-0} == 1 ]]; then
  CLASSPATH_RUN="$JAR:/usr/share/java/db.jar"
  BDB_EXTRA="bdb"
fi

step() {
  if [[ $MODE == count ]]; then
    TOTAL=$((TOTAL + 1))
    return
  fi
  I=$((I + 1))
  local cmd=$1
  shift
  log "[$I/$TOTAL $(elapsed)] $cmd $*"
  if [[ $DRY_RUN == 1 ]]; then
    return
  fi
  echo "== $(date -u +%FT%TZ) $cmd $*" >>"$OUT/$cmd.err"
  # -cp rather than -jar, so that Berkeley DB C's system jar can join the class path (BDB=1);
  # the manifest's Add-Opens (for lmdbjava) then has to be given by hand.
  if ! "$JAVA" --add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/sun.nio.ch=ALL-UNNAMED \
    -cp "$CLASSPATH_RUN" org.libtp.bench.BenchMain "$cmd" "$@" >>"$OUT/$cmd.jsonl" 2>>"$OUT/$cmd.err"; then
    FAILED=$((FAILED + 1))
    log "    FAILED: see $OUT/$cmd.err"
  fi
}

multi_process() { # engines whose database several JVMs can share (TpcbStore.multiProcess)
  case $1 in libtp | libtp-jdbc | flock | sqlite | lmdb | bdb) return 0 ;; *) return 1 ;; esac
}

tpcb() { # engine scale accounts durability txn mpl processes
  local e=$1 s=$2 a=$3 dur=$4 txn=$5 mpl=$6 p=$7
  # P child JVMs compile their hot code at once on the same cores: warm up P times as long, or
  # the measured interval catches them in the JIT (4 JVMs on 2 cores need about 10 s).
  local w
  w=$(awk -v w="$WARMUP" -v p="$p" 'BEGIN { print w * p }')
  step tpcb --engine "$e" --scale "$s" --accounts "$a" --durability "$dur" --txn "$txn" --mpl "$mpl" \
    --processes "$p" --seconds "$SECONDS_PER_RUN" --warmup "$w" --cache-mb "$CACHE_MB" \
    --dir "$DB/tpcb-$e-s$s-a$a"
}

tpcb_engine() { # engine scale accounts durability: every MPL, if the engine has that durability
  local e=$1 s=$2 a=$3 dur=$4 mpl
  case $e:$dur in
    notp:sync | flock:sync | fsync:nosync) return ;; # notp, flock: no log, run once; fsync is always durable
  esac
  for mpl in $MPLS; do
    tpcb "$e" "$s" "$a" "$dur" full "$mpl" 1
  done
}

matrix() {
  local e dur mpl
  step commit --threads 1 --durability sync --seconds "$SECONDS_PER_RUN" --warmup "$WARMUP" \
    --raw-seconds "$RAW_SECONDS" --dir "$DB/commit"
  # every durable run first: the no-sync runs write log fast, which can disturb a later force rate
  for dur in sync nosync; do
    for e in $ENGINES $BDB_EXTRA $JDBC_ENGINES; do
      tpcb_engine "$e" 10 "$ACCOUNTS_S10" "$dur"
    done
    for e in $SCALE1_ENGINES; do
      tpcb_engine "$e" 1 "$ACCOUNTS_S1" "$dur"
    done
    for e in $PROC_ENGINES $BDB_EXTRA; do
      if multi_process "$e"; then
        tpcb "$e" 10 "$ACCOUNTS_S10" "$dur" full 1 4
      else
        log "skipping --processes 4 for $e (one process only)"
      fi
    done
  done
  for e in $SMALL_ENGINES; do # the paper's small database (figures 8 and 9)
    for mpl in $SMALL_MPLS; do
      tpcb "$e" 10 1000 nosync readonly "$mpl" 1
    done
    for mpl in $SMALL_MPLS; do
      tpcb "$e" 10 1000 nosync full "$mpl" 1
    done
  done
  for e in $ENGINES $BDB_EXTRA; do
    step oo1 --engine "$e" --cold --parts "$OO1_PARTS" --repeat "$OO1_REPEAT" --dir "$DB/oo1-$e-p$OO1_PARTS"
  done
}

# ------------------------------------------------------------------ run

matrix 2>/dev/null
MODE=run
SETTINGS="SECONDS_PER_RUN=$SECONDS_PER_RUN WARMUP=$WARMUP MPLS=\"$MPLS\" SMALL_MPLS=\"$SMALL_MPLS\" ENGINES=\"$ENGINES\""
SETTINGS+=" JDBC_ENGINES=\"$JDBC_ENGINES\" SCALE1_ENGINES=\"$SCALE1_ENGINES\" SMALL_ENGINES=\"$SMALL_ENGINES\" PROC_ENGINES=\"$PROC_ENGINES\""
SETTINGS+=" ACCOUNTS_S10=$ACCOUNTS_S10 ACCOUNTS_S1=$ACCOUNTS_S1 CACHE_MB=$CACHE_MB OO1_PARTS=$OO1_PARTS"
SETTINGS+=" OO1_REPEAT=$OO1_REPEAT QUICK=$QUICK BDB=${BDB:-0}"
log "$TOTAL runs into $OUT ($SETTINGS)"
if [[ $DRY_RUN == 1 ]]; then
  matrix
  exit 0
fi
mkdir -p "$OUT" "$DB"
"$JAVA" -jar "$JAR" report --probe-machine "$DB" >>"$OUT/machine.jsonl" 2>>"$OUT/report.err" \
  || log "could not probe the machine (see $OUT/report.err)"
matrix
log "runs done in $(elapsed), $FAILED failed"
if [[ $KEEP_DBS != 1 ]]; then
  rm -rf -- "$DB"
fi

COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
if [[ -n $(git status --porcelain --untracked-files=no 2>/dev/null) ]]; then
  COMMIT+=" with uncommitted changes"
fi
NOTES=(--note "build: commit $COMMIT" --note "libtp-bench/scripts/bench-report.sh settings: $SETTINGS")
if [[ $FAILED -gt 0 ]]; then
  NOTES+=(--note "$FAILED of $TOTAL runs failed (their errors are in the .err files); their lines are missing")
fi
mkdir -p "$(dirname "$MD")"
if ! "$JAVA" -jar "$JAR" report --md "$MD" --img "$IMG" "${NOTES[@]}" "$OUT"/*.jsonl; then
  log "report failed"
  exit 1
fi
log "done in $(elapsed): $MD, charts in $IMG, results in $OUT"
[[ $FAILED -eq 0 ]]
