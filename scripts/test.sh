#!/usr/bin/env bash
# The whole test suite (`npm test`): installs what it needs (dependencies; Debian's Chromium, qpdf,
# poppler-utils, ocrmypdf with tesseract's English, German, French and Spanish data, and the stamp fonts fonts-noto-core, fonts-nanum and fonts-droid-fallback), checks types and
# lint, then runs every unit and e2e test. With DATABASE_URL
# and REDIS_URL set it runs on that PostgreSQL and Redis, and then runs the platform suite once
# more on the embedded PGlite (the files that depend on the database kind); without them,
# everything runs on PGlite.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi

need=()
command -v "${CHROMIUM_PATH:-/usr/bin/chromium}" >/dev/null 2>&1 || need+=(chromium)
command -v qpdf >/dev/null 2>&1 || need+=(qpdf)
command -v pdftotext >/dev/null 2>&1 || need+=(poppler-utils)
command -v ocrmypdf >/dev/null 2>&1 || need+=(ocrmypdf)
for lang in eng deu fra spa; do
  [ -f "/usr/share/tesseract-ocr/5/tessdata/$lang.traineddata" ] || need+=("tesseract-ocr-$lang")
done
[ -f /usr/share/fonts/truetype/noto/NotoSans-Regular.ttf ] || need+=(fonts-noto-core)
[ -f /usr/share/fonts/truetype/nanum/NanumGothic.ttf ] || need+=(fonts-nanum)
[ -f /usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf ] || need+=(fonts-droid-fallback)
if [ ${#need[@]} -gt 0 ]; then
  echo "Installing ${need[*]} from Debian's packages..."
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" fonts-dejavu-core >/dev/null
fi

# The three checks at once (each runs mostly on one core), each one's output shown whole in this
# order; any failure stops here, before the tests.
checks=$(mktemp -d)
npx tsc --noEmit -p tsconfig.json >"$checks/types" 2>&1 &
types=$!
npx eslint --max-warnings 0 src test migrations bench >"$checks/lint" 2>&1 &
lint=$!
npx prettier --check --log-level warn "src/**/*.ts" "test/**/*.ts" "bench/**/*.ts" "migrations/**/*.ts" >"$checks/format" 2>&1 &
format=$!
failed=0
for check in types lint format; do
  rc=0
  wait "${!check}" || rc=$?
  echo "== $check"
  cat "$checks/$check"
  [ "$rc" -eq 0 ] || { echo "$check failed (exit $rc)"; failed=1; }
done
rm -rf "$checks"
[ "$failed" -eq 0 ] || exit 1

# PGlite loads its WASM with dynamic import(), which jest's VM allows only with this flag.
export NODE_OPTIONS="${NODE_OPTIONS:-} --experimental-vm-modules --no-warnings"
results=$(mktemp -d)
status=0
echo "== tests (${DATABASE_URL:+PostgreSQL + }${REDIS_URL:+Redis + }Chromium)"
npx jest --ci --json --outputFile="$results/main.json" "$@" || status=$?
if [ -n "${DATABASE_URL:-}" ] && [ $# -eq 0 ]; then
  echo "== platform tests on the embedded PGlite"
  # Not again: files that do the same whatever DATABASE_URL says, so the run above already ran
  # them as they are: embedded (opens its own PGlite), process (its children drop DATABASE_URL and
  # REDIS_URL themselves; the bad setting is refused before any database), ensure (no database).
  env -u DATABASE_URL -u REDIS_URL npx jest --ci --json --outputFile="$results/embedded.json" test/platform \
    --testPathIgnorePatterns '/test/platform/(embedded|process|ensure)\.e2e-spec\.ts$' || status=$?
fi
node -e '
  const fs = require("fs"); let p = 0, f = 0, s = 0;
  for (const file of fs.readdirSync(process.argv[1])) {
    const r = JSON.parse(fs.readFileSync(process.argv[1] + "/" + file, "utf8"));
    p += r.numPassedTests; f += r.numFailedTests; s += r.numPendingTests;
  }
  console.log(`tests: ${p} passed, ${f} failed, ${s} skipped`);
' "$results"
rm -rf "$results"
exit $status
