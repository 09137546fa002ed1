#!/usr/bin/env bash
# npm start: installs what is missing, builds, activates the community license on first run, serves.
# Extra arguments go to `vjd serve` (e.g. npm start -- --port 9000).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh >&2
node dist/src/cli.js license activate --community --if-missing "$@" >&2 || true
exec node dist/src/cli.js serve "$@"
