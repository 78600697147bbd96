#!/usr/bin/env bash
# Debian's nginx (`make prod`'s proxy) and PgBouncer (the pooler test, docs/deploy.md), as
# tests/ensure_browser.sh installs Chromium: only when missing.
set -euo pipefail
missing=()
[ -x /usr/sbin/nginx ] || missing+=(nginx)
[ -x /usr/sbin/pgbouncer ] || missing+=(pgbouncer)
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing Debian's ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q "${missing[@]}"
fi
/usr/sbin/nginx -v
