#!/usr/bin/env bash
# Start-up smoke test of the built server (dist/) with a given Node binary: starts dist/src/main.js
# on the embedded database in a temporary DATA_DIR, waits for /healthz, sends SIGTERM and expects
# exit code 0.   scripts/smoke.sh [path/to/node]
set -euo pipefail
cd "$(dirname "$0")/.."
node_bin="${1:-node}"
[ -f dist/src/main.js ] || npx nest build
data=$(mktemp -d)
log=$(mktemp)
trap 'rm -rf "$data" "$log"' EXIT
env -u DATABASE_URL -u REDIS_URL DATA_DIR="$data" PORT=0 HOST=127.0.0.1 SEED_DEMO=false LOG_LEVEL=warn \
  "$node_bin" $(node -p "require('./package.json').config.server_node_flags") dist/src/main.js >"$log" 2>&1 &
pid=$!
port=""
for _ in $(seq 1 1800); do
  port=$(sed -n 's/.*listening on http:\/\/localhost:\([0-9]*\).*/\1/p' "$log" | head -n1)
  [ -n "$port" ] && break
  kill -0 "$pid" 2>/dev/null || { cat "$log"; echo "smoke: the server exited before listening"; exit 1; }
  sleep 0.1
done
[ -n "$port" ] || { cat "$log"; kill "$pid"; echo "smoke: no listening line after 180 s"; exit 1; }
body=$(curl -fsS "http://127.0.0.1:${port}/healthz")
[ "$body" = '{"ok":true,"status":"up"}' ] || { echo "smoke: /healthz answered $body"; kill "$pid"; exit 1; }
kill -TERM "$pid"
status=0; wait "$pid" || status=$?
[ "$status" -eq 0 ] || { cat "$log"; echo "smoke: exit code $status after SIGTERM"; exit 1; }
echo "smoke: $("$node_bin" -v) started, answered /healthz on :$port and stopped cleanly on SIGTERM"
