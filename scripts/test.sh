#!/usr/bin/env bash
# npm test: installs what is missing (system packages, npm deps), builds, runs the whole suite.
# The last line of the output is `N passed, N failed`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh --with-test-tools >&2
exec node scripts/run-tests.mjs "$@"
