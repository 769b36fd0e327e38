#!/bin/sh
# Measures the scroll physics: instructions per sample (valgrind callgrind)
# and heap allocations per sample (valgrind memcheck) through the whole
# pipeline (feed + frame on the output clock), for N synthetic samples.
#
#     Benchmarks/physics-bench.sh [N] [CONFIG...]   N defaults to 1000000
#
# Each measurement runs the release build twice, with N and 2N samples; the
# difference divided by N removes the setup (process start, Swift runtime,
# the precomputed motion table) and leaves the steady-state cost per sample.
# Three configurations, all by default: `default` (the shipped settings:
# vertical scrolling, no inertia), `full` (horizontal scrolling and 300 ms
# of inertia too) and `hinge` (pairs of display and base readings through
# the hinge posture detector, issue 25: its "sample" is one pair).
# Targets (issue 4): at most 1,000 instructions and zero allocations per sample.
set -eu

N=${1:-1000000}
case $N in '' | *[!0-9]*) echo "usage: $0 [N] [default|full|hinge...]" >&2; exit 2 ;; esac
shift $(($# > 0 ? 1 : 0))
CONFIGS=${*:-default full hinge}
N2=$((N * 2))
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-$(command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)}
command -v valgrind >/dev/null || { echo "$0: valgrind is needed (package valgrind: tools/install-deps bench)" >&2; exit 1; }

"$SWIFT" build -c release --product physics-bench >&2
BIN=$("$SWIFT" build -c release --show-bin-path)/physics-bench
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

instructions() { # samples config -> instructions executed (Ir)
    valgrind --tool=callgrind --callgrind-out-file="$TMP/cg.$1.$2" "$BIN" "$1" "$2" >"$TMP/out.$1.$2" 2>"$TMP/cg.log.$1.$2"
    sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$TMP/cg.$1.$2"
}
allocations() { # samples config -> heap allocations (memcheck "total heap usage")
    valgrind --tool=memcheck "$BIN" "$1" "$2" >/dev/null 2>"$TMP/mc.log.$1.$2"
    sed -n 's/.*total heap usage: \([0-9,]*\) allocs.*/\1/p' "$TMP/mc.log.$1.$2" | tr -d ,
}

for CONFIG in $CONFIGS; do
    I1=$(instructions "$N" "$CONFIG")
    I2=$(instructions "$N2" "$CONFIG")
    A1=$(allocations "$N" "$CONFIG")
    A2=$(allocations "$N2" "$CONFIG")
    [ -n "$I1" ] && [ -n "$I2" ] && [ -n "$A1" ] && [ -n "$A2" ] || {
        echo "$0: could not read valgrind's output" >&2
        cat "$TMP"/*.log.* >&2
        exit 1
    }
    echo "physics-bench: $(cat "$TMP/out.$N.$CONFIG")"
    awk -v n="$N" -v i1="$I1" -v i2="$I2" -v a1="$A1" -v a2="$A2" 'BEGIN {
        printf "  instructions: %.0f for %d samples, %.0f for %d; setup %.0f\n", i1, n, i2, 2 * n, i1 - (i2 - i1)
        printf "  instructions per sample: %.1f (target <= 1000)\n", (i2 - i1) / n
        printf "  heap allocations: %d for %d samples, %d for %d\n", a1, n, a2, 2 * n
        printf "  heap allocations per sample: %.6f (target 0)\n", (a2 - a1) / n
    }'
done
