#!/usr/bin/env bash
# The README's test command: sets up, then runs the whole test suite inside a
# loopback-only network namespace, so no test can reach (or resolve) an outside host.
# Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --test

# A local PostgreSQL answering on its unix socket is used when present (the namespace
# has no route to 127.0.0.1:5432 of the host); otherwise tests start an embedded one.
if [ -z "${CRAWLER_TEST_DATABASE_URL:-}" ] && [ -S /var/run/postgresql/.s.PGSQL.5432 ]; then
  export CRAWLER_TEST_DATABASE_URL="postgresql:///postgres?host=/var/run/postgresql&user=postgres"
fi

if [ "$(id -u)" = 0 ]; then ns="unshare -n"; else ns="unshare -rn"; fi
if ! $ns true 2>/dev/null; then
  echo "error: cannot create a loopback-only network namespace ($ns); tests need it" >&2
  exit 2
fi
# Two pytest-xdist workers, each running whole test files (a file's module fixtures are
# built once, on one worker), the files with slow tests first (tests/conftest.py): most
# end-to-end tests wait on crawls, servers and child processes more than they compute, so
# two of them share CI's 2 cores well. Each worker has its own test database. `-n 0` runs
# the suite in one process.
exec $ns sh -c 'ip link set lo up && exec .venv/bin/python -m pytest -n 2 --dist loadfile \
  --no-loadscope-reorder "$@"' sh "$@"
