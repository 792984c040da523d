#!/usr/bin/env bash
# Runs the given test files RUNS times in a row while a second copy of the same files runs beside
# each run (two vitest processes at once, each with the config's two forks), and prints one line
# per copy and run: pass or fail, seconds, the load average at the start. Both copies share the
# machine, its ports and its temporary folder, as a second checkout's suite or a second engineer's
# would: a test that waits on time instead of on an event, or that assumes it is alone, fails here.
#
#   test/stress/repeat.sh [RUNS] FILE_OR_FOLDER...        (RUNS defaults to 5)
#   npm run test:repeat -- 5 test/daemon test/cli/up.test.ts
#
# Each copy's output goes to $REPEAT_LOG_DIR (default: a new folder under /tmp), named run-N-a.log
# and run-N-b.log, so a failure can be read after the loop; the script exits non-zero when any
# copy of any run failed.
set -uo pipefail
cd "$(dirname "$0")/../.."

runs=5
if [[ $# -gt 0 && "$1" =~ ^[0-9]+$ ]]; then
  runs=$1
  shift
fi
if [[ $# -eq 0 ]]; then
  echo "usage: test/stress/repeat.sh [RUNS] FILE_OR_FOLDER..." >&2
  exit 2
fi
logs=${REPEAT_LOG_DIR:-$(mktemp -d /tmp/docsync-repeat-XXXXXX)}
mkdir -p "$logs"
echo "repeat: $runs runs of $* with a second copy beside each; logs in $logs"

# The closing lines of a vitest run: "Test Files  ..." and "Tests  ...".
summary() {
  sed 's/\x1b\[[0-9;]*m//g' "$1" | grep -E '^ +(Test Files|Tests) ' | sed 's/^ *//' | tr -s ' ' | paste -sd ';' -
}

failed=0
passes=0
for run in $(seq 1 "$runs"); do
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  start=$(date +%s)
  npx vitest run "$@" >"$logs/run-$run-a.log" 2>&1 &
  a=$!
  npx vitest run "$@" >"$logs/run-$run-b.log" 2>&1 &
  b=$!
  wait "$a"
  code_a=$?
  end_a=$(date +%s)
  wait "$b"
  code_b=$?
  end_b=$(date +%s)
  for copy in a b; do
    code_var="code_$copy"
    end_var="end_$copy"
    code=${!code_var}
    if [[ $code -eq 0 ]]; then
      verdict=pass
      passes=$((passes + 1))
    else
      verdict=FAIL
      failed=$((failed + 1))
    fi
    printf 'run %d copy %s: %s in %ds (load %s at start) %s\n' "$run" "$copy" "$verdict" "$((${!end_var} - start))" "$load" "$(summary "$logs/run-$run-$copy.log")"
    if [[ $code -ne 0 ]]; then
      sed 's/\x1b\[[0-9;]*m//g' "$logs/run-$run-$copy.log" | grep -E '^ *(FAIL|×|✗) ' | sort -u | head -20 | sed 's/^/    /'
    fi
  done
done
echo "repeat: $passes of $((runs * 2)) copies passed; load average now $(cut -d' ' -f1-3 /proc/loadavg)"
[[ $failed -eq 0 ]]
