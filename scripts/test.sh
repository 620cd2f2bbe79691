#!/usr/bin/env bash
# The whole test suite: installs what it needs (dependencies, Debian's Chromium and qpdf), checks
# types and lint, then runs every unit and e2e test. Uses DATABASE_URL / REDIS_URL when set
# (real PostgreSQL and Redis), the embedded PGlite otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi

need=()
command -v "${CHROMIUM_PATH:-/usr/bin/chromium}" >/dev/null 2>&1 || need+=(chromium)
command -v qpdf >/dev/null 2>&1 || need+=(qpdf)
if [ ${#need[@]} -gt 0 ]; then
  echo "Installing ${need[*]} from Debian's packages..."
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" fonts-dejavu-core >/dev/null
fi

npx tsc --noEmit -p tsconfig.json
npx eslint --max-warnings 0 src test migrations
# PGlite loads its WASM with dynamic import(), which jest's VM allows only with this flag.
NODE_OPTIONS="${NODE_OPTIONS:-} --experimental-vm-modules --no-warnings" npx jest --ci "$@"
