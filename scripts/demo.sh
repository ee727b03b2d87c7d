#!/usr/bin/env bash
# The README's main job: set up, start the sandbox web, crawl it into the embedded
# PostgreSQL under .crawl/, print a summary. Offline: inside a loopback-only network
# namespace when the machine allows one, and through the sandbox proxy in any case.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
unset CRAWLER_DATABASE_URL
if [ "$(id -u)" = 0 ]; then ns="unshare -n"; else ns="unshare -rn"; fi
if $ns true 2>/dev/null; then
  exec $ns sh -c 'ip link set lo up && exec .venv/bin/python -m crawler.demo "$@"' sh "$@"
fi
exec .venv/bin/python -m crawler.demo "$@"
