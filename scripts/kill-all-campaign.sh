#!/usr/bin/env bash
# The kill-every-JVM crash campaigns, each for a chosen number of rounds, one after another, on
# this tree (built once with `mvn -q install -DskipTests`). Every round kills every process of
# the campaign with SIGKILL (or drops unforced writes, PowerLossCrashTest), recovers, and checks
# the campaign's invariants: every acknowledged commit present, no partial transaction, the
# trees verify. Prints one line per campaign and the total; the logs go to $OUT (default
# target/kill-all). Rounds per campaign: KILL_ALL_ROUNDS="Test=N ..." (default below); more
# Maven arguments in MVN_ARGS (e.g. -Dmaven.repo.local=DIR, so that an install elsewhere does not
# replace the jars under the campaign's child JVMs).
#
#   scripts/kill-all-campaign.sh
#   KILL_ALL_ROUNDS="BtreeCrashTest=2000 TxnCrashTest=2000" scripts/kill-all-campaign.sh
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-target/kill-all}
mkdir -p "$OUT"
ROUNDS=${KILL_ALL_ROUNDS:-"BtreeCrashTest=500 TxnCrashTest=500 LogCrashTest=500 BufferCrashTest=200 BankCrashTest=100 JdbcCrashTest=40"}
module_of() {
  case "$1" in
    BtreeCrashTest|PowerLossCrashTest) echo libtp-btree ;;
    JdbcCrashTest) echo libtp-jdbc ;;
    *) echo libtp-core ;;
  esac
}
total=0
failed=0
for spec in $ROUNDS; do
  test=${spec%%=*}
  n=${spec##*=}
  log="$OUT/$test-$n.log"
  start=$(date +%s)
  # shellcheck disable=SC2086
  mvn -B -o -q ${MVN_ARGS:-} -pl "$(module_of "$test")" verify -Dtest="$test" -Dlibtp.rounds="$n" \
    -Dsurefire.failIfNoSpecifiedTests=false -Djacoco.skip=true >"$log" 2>&1
  rc=$?
  secs=$(( $(date +%s) - start ))
  seed=$(grep -o "$test: seed [-0-9]*" "$log" | head -1 | awk '{print $3}')
  if [ $rc -eq 0 ]; then
    echo "$test: $n rounds passed in $secs s (seed $seed)"
    total=$((total + n))
  else
    echo "$test: FAILED after $secs s (seed $seed); see $log"
    failed=$((failed + 1))
  fi
done
echo "kill-all campaign: $total rounds passed, $failed campaign(s) failed"
[ $failed -eq 0 ]
