#!/usr/bin/env bash
# Installs everything webfovea needs on a fresh machine: a virtual environment,
# the Python dependencies, a Chromium (one already here, else Playwright's,
# else Debian's when root) and, when root, Debian's Tesseract for answer grounding's OCR
# and GNU wget for the web-archive tests.
# Safe to run again: each step is skipped when done.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
stamp=.venv/.installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  .venv/bin/python -m pip install -q --upgrade pip
  .venv/bin/python -m pip install -q -e ".[dev,ray,miniwob,gallery,ocr,archives,research]"
  touch "$stamp"
fi
.venv/bin/python -c "from webfovea.browser.chromium import main; main(['--ensure'])"
if ! command -v tesseract >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tesseract-ocr
fi
# GNU wget: the web-archive tests crawl a local site with its --warc-file.
if ! command -v wget >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wget
fi
bash scripts/build_gallery.sh
