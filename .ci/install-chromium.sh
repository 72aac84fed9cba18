#!/usr/bin/env bash
# Install headless Chromium for the browser tests (tests/test_dashboard_browser.py,
# tests/test_pages_in_browser.py), from Debian's packages (chromium and chromium-driver). Does
# nothing when a Chromium is already installed. Without a browser those tests are skipped,
# saying why; this script is how CI and a developer get one:
#
#     bash .ci/install-chromium.sh
#
# Exits 1 if the packages cannot be installed (no apt-get, not root and no sudo, no network).
set -euo pipefail

for name in chromium chromium-browser google-chrome google-chrome-stable; do
    if command -v "$name" >/dev/null 2>&1; then
        echo "install-chromium: $name is already installed ($(command -v "$name"))"
        exit 0
    fi
done

if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-chromium: no apt-get here; install Chromium with this system's package manager" >&2
    exit 1
fi
sudo=""
if [ "$(id -u)" != "0" ]; then
    if command -v sudo >/dev/null 2>&1; then
        sudo="sudo -n"
    else
        echo "install-chromium: run as root (apt-get install chromium chromium-driver)" >&2
        exit 1
    fi
fi

export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends chromium chromium-driver fonts-dejavu-core
echo "install-chromium: installed $(chromium --version 2>/dev/null || echo chromium)"
