#!/usr/bin/env bash
# The Debian packages the test suites use beyond npm: chromium (the browser tests) and zbar-tools
# (zbarimg, which reads the barcode tests' symbols back). Installs whichever is missing, with
# apt-get; `.ci/run` runs it, and so can a developer (`bash scripts/system-packages.sh`).
set -euo pipefail
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v zbarimg >/dev/null 2>&1 || missing+=(zbar-tools)
[ ${#missing[@]} -eq 0 ] && exit 0
SUDO=$([ "$(id -u)" = 0 ] || echo sudo)
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
