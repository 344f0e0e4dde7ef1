#!/usr/bin/env bash
# Peak RSS of the engine at a million jobs beside the bare JDK's floor, as separate processes (issue 11).
#
#   bench/million-rss.sh               # 4 alternating pairs, about 3 minutes
#   PAIRS=8 bench/million-rss.sh
#   JOBS=100000 bench/million-rss.sh   # a machine with less memory
#
# Each pair runs, one after the other:
#  - the engine: './blocklab run --workload ten-thousand-jobs --model virtual --requests $JOBS --quiet' (a warm-up
#    and three measured runs, each of $JOBS jobs sleeping 100 ms, each after a full GC);
#  - its floor: examples/MillionFloor.java ($JOBS virtual threads sleeping 100 ms, four rounds, each after a full
#    GC), compiled once into target/bench-bin/floor and run through './blocklab class', so with the same JDK and
#    the same flags as the engine.
# A process's peak RSS is the kernel's high-water mark (getrusage's ru_maxrss, read by /usr/bin/time -f %M), not a
# sample. Prints each pair's peaks in MiB and their ratio, then the median ratio. The goal: 1.3 x or less.
# Needs: /usr/bin/time (Debian package 'time'), a JDK 25 (found as ./blocklab finds it), 3 GiB of free memory.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=../.ci/find-jdk.sh
source .ci/find-jdk.sh
JAVA_HOME="$(blocklab_find_jdk)" || exit 2
PAIRS=${PAIRS:-4}
JOBS=${JOBS:-1000000}
case "$PAIRS$JOBS" in *[!0-9]*) echo "bench: PAIRS and JOBS must be whole numbers (PAIRS=$PAIRS JOBS=$JOBS)" >&2; exit 2 ;; esac
[ -x /usr/bin/time ] || { echo "bench: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
BIN=target/bench-bin/floor
log() { echo "[$(date -u +%H:%M:%S)] $*" >&2; }

./blocklab --version > /dev/null   # builds the jar now if sources changed, outside the measured processes
if [ ! -f "$BIN/MillionFloor.class" ] || [ examples/MillionFloor.java -nt "$BIN/MillionFloor.class" ]; then
  mkdir -p "$BIN"
  "$JAVA_HOME/bin/javac" -d "$BIN" examples/MillionFloor.java
fi

# peak_mib NAME COMMAND...: runs COMMAND, its output to target/bench-bin/NAME.log; prints its peak RSS in MiB
peak_mib() {
  local name=$1 kib
  shift
  if ! /usr/bin/time -f %M -o "$BIN/$name.rss" "$@" > "$BIN/$name.log" 2>&1; then
    echo "bench: $name failed; its output: $BIN/$name.log" >&2
    tail -5 "$BIN/$name.log" >&2
    exit 1
  fi
  kib=$(tail -1 "$BIN/$name.rss")
  echo $(( (kib + 512) / 1024 ))
}

log "machine: $(nproc) cores, $(awk '/^MemTotal:/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo), $("$JAVA_HOME/bin/java" -version 2>&1 | head -1); load $(cut -d' ' -f1-3 /proc/loadavg)"
ratios=()
printf '%-5s %12s %12s %7s\n' pair "engine MiB" "floor MiB" ratio
for pair in $(seq 1 "$PAIRS"); do
  engine=$(peak_mib engine ./blocklab run --workload ten-thousand-jobs --model virtual --requests "$JOBS" --quiet)
  floor=$(BLOCKLAB_CLASSPATH="$BIN" peak_mib floor ./blocklab class MillionFloor "$JOBS" 4)
  ratio=$(awk -v e="$engine" -v f="$floor" 'BEGIN { printf "%.2f", e / f }')
  ratios+=("$ratio")
  printf '%-5s %12s %12s %7s\n' "$pair" "$engine" "$floor" "$ratio"
done
median=$(printf '%s\n' "${ratios[@]}" | sort -n | awk '{ r[NR] = $1 } END { print (NR % 2 ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2) }')
echo "median engine / floor: $median x (goal: 1.3 x or less; $JOBS jobs, peak RSS of each process, pairs alternating)"
