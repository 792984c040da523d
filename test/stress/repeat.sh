#!/usr/bin/env bash
# Runs test files RUNS times in a row while a second copy of the same files runs beside each run
# (two vitest processes at once, each with the config's two forks), and prints one line per copy
# and run: pass or fail, seconds, the load average at the start, vitest's closing counts. Both
# copies share the machine, its ports and its temporary folder, as a second checkout's suite or a
# second engineer's would: a test that waits on time instead of on an event, or that assumes it
# is alone, fails here.
#
#   npm run test:repeat                          5 runs of the time-sensitive files below
#   npm run test:repeat -- 3                     3 runs of them
#   npm run test:repeat -- 5 test/daemon/watch.test.ts test/cli
#
# Each copy's output is kept in $REPEAT_LOG_DIR (default: a new folder under /tmp) as run-N-a.log
# and run-N-b.log; the script exits non-zero when any copy of any run failed. The environment is
# passed on (DOCSYNC_TEST_DATABASE_URL adds the PostgreSQL half of the server tests).
set -uo pipefail

# The files whose outcome once depended on time: daemon and CLI processes, preview, live pages,
# event streams, OpenAPI jobs, the rate limit, a clone's overlapping reads, and the hostile-input
# files whose liveness was a 1 s bound (now counted by order: test/helpers/liveness.ts).
TIME_SENSITIVE=(
  test/daemon/watch.test.ts
  test/daemon/watch-outage.test.ts
  test/daemon/watch-events.test.ts
  test/daemon/workspace-lock.test.ts
  test/daemon/daemon.test.ts
  test/cli/up.test.ts
  test/cli/serve-process.test.ts
  test/preview
  test/server/web/live.test.ts
  test/server/openapi-specs.test.ts
  test/server/openapi-specs-restart.test.ts
  test/server/openapi-fetch-budget.test.ts
  test/server/events.test.ts
  test/server/rate-limit.test.ts
  test/sync/clone-fetch.test.ts
  test/helpers/liveness.test.ts
  test/server/import-zip-bombs.test.ts
  test/server/markdown-hostile.test.ts
  test/server/markdown-fuzz.test.ts
  test/server/merge-hostile.test.ts
  test/server/comment-documents.test.ts
  test/server/pdf-cache.test.ts
  test/server/fetch-budget.test.ts
  test/server/web/hostile-render.test.ts
)

# The closing lines of a vitest run ("Test Files ...", "Tests ...") on one line.
summary() {
  sed 's/\x1b\[[0-9;]*m//g' "$1" | grep -E '^ +(Test Files|Tests) ' | sed 's/^ *//' | tr -s ' ' | paste -sd ';' -
}

# All in a function, read whole before it runs: editing this file during a long run is safe.
main() {
  cd "$(dirname "$0")/../.." || exit 2
  local runs=5
  if [[ $# -gt 0 && "$1" =~ ^[0-9]+$ ]]; then
    runs=$1
    shift
  fi
  local files=("$@")
  [[ ${#files[@]} -eq 0 ]] && files=("${TIME_SENSITIVE[@]}")
  local logs=${REPEAT_LOG_DIR:-$(mktemp -d /tmp/docsync-repeat-XXXXXX)}
  mkdir -p "$logs"
  echo "repeat: $runs runs of ${files[*]}, a second copy beside each; logs in $logs"
  local failed=0 passes=0 run copy code load start
  for run in $(seq 1 "$runs"); do
    load=$(cut -d' ' -f1-3 /proc/loadavg)
    start=$(date +%s)
    declare -A pid=() code=() took=()
    for copy in a b; do
      npx vitest run "${files[@]}" >"$logs/run-$run-$copy.log" 2>&1 &
      pid[$copy]=$!
    done
    for copy in a b; do
      wait "${pid[$copy]}"
      code[$copy]=$?
      took[$copy]=$(($(date +%s) - start))
    done
    for copy in a b; do
      if [[ ${code[$copy]} -eq 0 ]]; then
        passes=$((passes + 1))
        printf 'run %d copy %s: pass' "$run" "$copy"
      else
        failed=$((failed + 1))
        printf 'run %d copy %s: FAIL' "$run" "$copy"
      fi
      printf ' in %ds (load %s at start) %s\n' "${took[$copy]}" "$load" "$(summary "$logs/run-$run-$copy.log")"
      if [[ ${code[$copy]} -ne 0 ]]; then
        sed 's/\x1b\[[0-9;]*m//g' "$logs/run-$run-$copy.log" | grep -E '^ +FAIL ' | sort -u | head -20 | sed 's/^ */    /'
      fi
    done
  done
  echo "repeat: $passes of $((runs * 2)) copies passed; load average now $(cut -d' ' -f1-3 /proc/loadavg)"
  [[ $failed -eq 0 ]]
}

main "$@"
exit $?
