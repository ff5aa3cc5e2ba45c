#!/usr/bin/env bash
# Builds ocd-bench in release mode and runs it; arguments go to ocd-bench, e.g.
#   ./run.sh --rows 20000 --passes 3 --only W1,W2 --engines raw,grdb-row
# The report (Markdown) goes to standard output, build output and progress to standard error.
set -euo pipefail
cd "$(dirname "$0")"
swift build -c release --product ocd-bench >&2
exec .build/release/ocd-bench "$@"
