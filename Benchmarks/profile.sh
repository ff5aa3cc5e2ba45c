#!/usr/bin/env bash
# Profiles one workload of one engine with valgrind's callgrind and prints the functions
# with the most instructions, inclusive (with callees) and self (own code only).
#
#   ./profile.sh W2 ocd-typed            # 20,000 rows, top 30
#   ./profile.sh W6R ocd-kvc 100000 40   # rows, how many functions
#
# The fixture is built natively (`--child prepare`); the measuring child (`--child run`)
# runs under callgrind with collection on only inside `Stopwatch.timedSection`, the
# timed workload (for W6 that includes opening the store). Needs valgrind
# (`apt-get install -y valgrind`); names are demangled with `swift demangle`.
set -euo pipefail
cd "$(dirname "$0")"

workload=${1:?usage: profile.sh WORKLOAD ENGINE [ROWS] [TOP]}
engine=${2:?usage: profile.sh WORKLOAD ENGINE [ROWS] [TOP]}
rows=${3:-20000}
top=${4:-30}

command -v valgrind >/dev/null || { echo "profile.sh: valgrind is not installed (apt-get install -y valgrind)" >&2; exit 1; }
swift build -c release --product ocd-bench >&2
binary="$(swift build -c release --show-bin-path)/ocd-bench"

work=$(mktemp -d "${TMPDIR:-/tmp}/ocd-profile-XXXXXX")
trap 'rm -rf "$work"' EXIT
database="$work/bench.sqlite"
output="$work/callgrind.out"

"$binary" --child prepare "$engine" "$workload" "$database" "$rows" >/dev/null
valgrind --tool=callgrind --callgrind-out-file="$output" \
    --collect-atstart=no --toggle-collect='*timedSection*' \
    "$binary" --child run "$engine" "$workload" "$database" "$rows" >/dev/null

demangle() { if command -v swift >/dev/null; then swift demangle --simplified; else cat; fi; }
echo "# callgrind: $workload on $engine, $rows rows"
echo "## Inclusive (top $top)"
# The function list starts after the second "file:function" header; keep the totals.
annotate() {
    callgrind_annotate --inclusive="$1" "$output" 2>/dev/null \
        | awk -v top="$top" '/PROGRAM TOTALS/ { print; next } /file:function/ { listing = 1; next } listing && NF && shown < top { print; shown++ }' \
        | demangle
}
annotate yes
echo "## Self (top $top)"
annotate no
