#!/usr/bin/env bash
# The run command (README): the DEMO. Installs, builds and serves the portal with its embedded backend on
# http://localhost:${PORT:-3000} with DEMO=1: the embedded database (PGlite under ./data) is migrated and
# seeded with the platform data and the demo accounts (their password is in the README), and card payments
# go to the sandbox provider in test mode, said on every page (docs/decisions/020). A real server is started
# with `npm start` and its own configuration instead (README "Running in production").
set -euo pipefail
cd "$(dirname "$0")/.."
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm_config_update_notifier=false
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
npm run build
export DEMO=1
echo "Starting the demo on http://localhost:${PORT:-3000}: demo accounts, sandbox payments in test mode, no real money (first start creates the embedded database: a few seconds)"
# The server itself (what `npm start` runs), not npm: SIGTERM then reaches it and it stops gracefully
# (docs/decisions/016); npm's shell does not pass the signal on.
exec node server/index.js
