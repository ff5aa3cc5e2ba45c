#!/usr/bin/env bash
# Builds the predicate parser's libFuzzer target (instrumented, in its own scratch path)
# and runs it for a bounded time, default 60 seconds:
#
#   Fuzz/run.sh [seconds]
#
# New interesting inputs go to Fuzz/Corpus/ (merged down to a minimal set past 1,500 files),
# crashes to Fuzz/Crashes/ (keep each one, with a note in Fuzz/Crashes/README.md, once
# fixed: the main test suite replays them).
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-60}"
scratch=".build-fuzz"
flags=(-c debug --scratch-path "$scratch" -j 2 --sanitize=fuzzer --sanitize=address -Xswiftc -parse-as-library)
swift build "${flags[@]}" 2>&1 | grep -v "Cannot export local symbol" || true
binary="$(swift build "${flags[@]}" --show-bin-path)/PredicateFuzzer"
test -x "$binary" || { echo "run.sh: the fuzzer did not build" >&2; exit 1; }
mkdir -p Corpus Crashes
"$binary" Corpus \
    -max_total_time="$seconds" \
    -max_len=4096 \
    -timeout=10 \
    -rss_limit_mb=2048 \
    -artifact_prefix=Crashes/ \
    -dict=predicate.dict \
    -print_final_stats=1

# Keep the committed corpus small: merge it down to the inputs that add coverage.
if [ "$(ls Corpus | wc -l)" -gt 1500 ]; then
    rm -rf Corpus.min && mkdir Corpus.min
    "$binary" -merge=1 -max_len=4096 -timeout=10 Corpus.min Corpus
    rm -rf Corpus && mv Corpus.min Corpus
fi
