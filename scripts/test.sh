#!/usr/bin/env bash
# The test command (README): installs what the tests need on a fresh machine, then runs every test:
# build, typecheck, lint, unit tests, the server entry's suite, the backend suite on PGlite and on PostgreSQL, and the Playwright
# specs with JavaScript on and off. Ends with one line "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
export npm_config_update_notifier=false

step() { printf '\n==> %s\n' "$*"; }

# 1. Debian packages: Chromium for Playwright, PostgreSQL for the second backend run.
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || missing+=(postgresql)
if [ ${#missing[@]} -gt 0 ]; then
  step "Installing ${missing[*]} from Debian"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# 2. npm packages, exactly as locked.
step "npm ci"
npm ci --no-audit --no-fund

step "Build"
npm run build
step "Typecheck"
npm run typecheck
step "Lint"
npm run lint

# Outside test-results/, which Playwright empties when it starts.
results=reports/test-summary
rm -rf "$results"; mkdir -p "$results"

step "Unit tests"
npx vitest run --project unit --reporter=default --reporter=json --outputFile="$results/unit.json"

step "Server entry over real sockets (backend faults, shutdown, security headers, compression)"
npx vitest run --project server --reporter=default --reporter=json --outputFile="$results/server.json"

step "Backend over HTTP on embedded PGlite"
env -u DATABASE_URL npx vitest run --project backend --reporter=default --reporter=json --outputFile="$results/backend-pglite.json"

step "Backend over HTTP on PostgreSQL"
pgdir=$(mktemp -d /tmp/bsn-pg.XXXXXX)
trap 'scripts/pg-throwaway.sh stop "$pgdir"' EXIT
# A test database: the test server asks for the demo accounts itself (DEMO=1 in tests/backend/global-setup.ts).
DATABASE_URL=$(scripts/pg-throwaway.sh start "$pgdir" "${PG_TEST_PORT:-55432}") \
  npx vitest run --project backend --reporter=default --reporter=json --outputFile="$results/backend-postgres.json"

step "End-to-end (Chromium, JavaScript on and off)"
PLAYWRIGHT_JSON_OUTPUT_NAME="$results/e2e.json" npx playwright test --reporter=list,json

node scripts/test-summary.mjs "$results"
