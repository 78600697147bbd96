#!/usr/bin/env bash
# Browser tests drive Debian's Chromium; Playwright's own browser download does not work here.
set -euo pipefail
if [ ! -x /usr/bin/chromium ]; then
  echo "Installing Debian's chromium"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q chromium
fi
/usr/bin/chromium --version
