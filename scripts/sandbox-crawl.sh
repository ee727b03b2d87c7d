#!/usr/bin/env bash
# The one safe way to crawl the sandbox web: starts it on 127.0.0.1 and runs the given
# command (a `scrapy crawl ...`) with BOTH http_proxy and https_proxy pointing at it,
# inside a loopback-only network namespace when the machine allows one (so nothing can
# reach another address even around the proxy). Runs in the current folder.
#   scripts/sandbox-crawl.sh scrapy crawl focused -a query=java -s CLOSESPIDER_PAGECOUNT=300
#   scripts/sandbox-crawl.sh --no-docs -- scrapy crawl general      # synthetic sites only
# A `scrapy crawl` without -a seeds= / -a seed_urls= gets the sandbox's seeds.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[ -x "$root/.venv/bin/python" ] || "$root/scripts/setup.sh"
export PATH="$root/.venv/bin:$PATH"
if [ "$(id -u)" = 0 ]; then ns="unshare -n"; else ns="unshare -rn"; fi
if command -v ip >/dev/null && $ns true 2>/dev/null; then
  exec $ns sh -c 'ip link set lo up && exec python -m crawler.sandbox.run "$@"' sh "$@"
fi
echo "sandbox-crawl: cannot create a loopback-only network namespace ($ns, ip): running" \
     "through the sandbox proxy only" >&2
exec python -m crawler.sandbox.run "$@"
