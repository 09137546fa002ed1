#!/usr/bin/env bash
# vjd bootstrap: installs the Debian packages vjd needs (ffmpeg, Xvfb + Mesa for
# headless GL, build headers for the `gl` addon, wrk for benchmarks, chromium for
# the docs browser test, pulseaudio for the audio capture test, mosquitto as the
# broker the show-link tests start on their own ports), then the npm
# dependencies, then builds (with --with-test-tools also the Companion module).
# Usage: scripts/bootstrap.sh [--with-test-tools]
set -euo pipefail
cd "$(dirname "$0")/.."

RUNTIME_PKGS=(ffmpeg xvfb xauth libgl1-mesa-dri libglx-mesa0 libxi-dev libx11-dev libxext-dev
  libglu1-mesa-dev libgl-dev pkg-config python3 make g++ fonts-dejavu-core)
TEST_PKGS=(wrk chromium pulseaudio pulseaudio-utils mosquitto)

want=("${RUNTIME_PKGS[@]}")
if [ "${1:-}" = "--with-test-tools" ]; then want+=("${TEST_PKGS[@]}"); fi

missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = "0" ]; then SUDO=""
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo"
  else
    echo "vjd bootstrap: missing system packages: ${missing[*]}" >&2
    echo "vjd bootstrap: install them with:" >&2
    echo "  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
    exit 1
  fi
  echo "vjd bootstrap: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# npm dependencies: `npm ci` when node_modules is missing or older than the lockfile.
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "vjd bootstrap: npm ci"
  npm ci --no-audit --no-fund
fi

echo "vjd bootstrap: building"
npm run --silent build

# The Companion module (integrations/companion) has its own dependencies; its tests (test/companion) run its build.
if [ "${1:-}" = "--with-test-tools" ]; then
  comp=integrations/companion
  # Its runtime dependencies only: the packaging tools (`npm run package` there) are a developer's install, and
  # vjd's own TypeScript and Node types compile it.
  if [ ! -d "$comp/node_modules" ] || [ "$comp/package-lock.json" -nt "$comp/node_modules/.package-lock.json" ]; then
    echo "vjd bootstrap: npm ci (Companion module)"
    (cd "$comp" && npm ci --omit=dev --no-audit --no-fund --loglevel=error)
  fi
  echo "vjd bootstrap: building the Companion module"
  node node_modules/typescript/bin/tsc -p "$comp/tsconfig.json"
fi
