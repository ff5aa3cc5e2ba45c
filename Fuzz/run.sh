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
# Coverage instrumentation as `-sanitize=fuzzer` adds it, and libFuzzer without its `main`
# (PredicateFuzzer has its own): `--sanitize=fuzzer` would link libFuzzer's `main` into
# every executable, the `@Managed` macro's plugin included.
toolchain_lib="$(dirname "$(readlink -f "$(command -v swiftc)")")/../lib"
fuzzer_lib="$(ls "$toolchain_lib"/clang/*/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a | head -n 1)"
flags=(-c debug --scratch-path "$scratch" -j 2 --sanitize=address
    -Xswiftc -sanitize-coverage=edge,indirect-calls,trace-cmp,inline-8bit-counters,pc-table
    -Xlinker "$fuzzer_lib" -Xlinker -lstdc++)
# SwiftPM does not always notice files added to the main package (a path dependency here):
# drop the cached build plan so that every run builds the current sources.
find "$scratch" -maxdepth 3 -name description.json -delete 2>/dev/null || true
# (The sanitizer runtime makes gold warn about every symbol it cannot export: hide that noise.
# With pipefail, a failed build still stops the script.)
swift build "${flags[@]}" 2>&1 | { grep -v "Cannot export local symbol" || true; }
binary="$(swift build "${flags[@]}" --show-bin-path)/PredicateFuzzer"
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
