#!/usr/bin/env bash
# How blocklab's attacker recovers from a pause of its own: the attacker JVM is stopped (SIGSTOP) for PAUSE_MS
# twice while it attacks the trivial Go endpoint, as a descheduled process or a long collection of its own would
# stop it, with default flags and with each of CAPS (docs/attack.md, "After a pause of the attacker").
#
#   bench/attacker-pause.sh                              # 30,000/s, two 200 ms pauses, default vs --max-connections 300, twice
#   RATE=10000 PAUSE_MS=500 REPEATS=3 bench/attacker-pause.sh
#   CAPS="300 1000" bench/attacker-pause.sh              # the --max-connections values beside the default
#   BLOCKLAB=/path/to/other/checkout/blocklab bench/attacker-pause.sh   # another build (before/after)
#
# Each run: a fresh Go server on 127.0.0.1:$PORT, 'blocklab attack' at RATE for DURATION after its default 3 s
# warm-up, stopped for PAUSE_MS at STOPS seconds after its launch (inside the measured schedule), while the
# connections established to the port are counted every 0.1 s (ss). One line per run: the peak connections,
# the latency (from each request's intended send time) p50 / p99 / p99.9 / max in ms, and the verdict. A pause
# of P ms cannot give a max latency below P; what comes on top of it is the time the attacker took to catch up.
# The variants alternate, and runs wait until fewer than 200 loopback sockets are in TIME_WAIT.
# Needs: Go (GO, default /usr/local/go/bin/go), jq, ss, a JDK 25 (found by ./blocklab).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

GO=${GO:-/usr/local/go/bin/go}
RATE=${RATE:-30000}
DURATION=${DURATION:-10s}
PAUSE_MS=${PAUSE_MS:-200}
STOPS=${STOPS:-"6 9"}
CAPS=${CAPS-"300"}
REPEATS=${REPEATS:-2}
PORT=${PORT:-19002}
BLOCKLAB=${BLOCKLAB:-./blocklab}
OUT=${OUT:-results/attacker-pause-$(date -u +%Y%m%dT%H%M%SZ)}
BIN=$PWD/target/bench-bin
mkdir -p "$OUT" "$BIN"
for tool in jq ss; do command -v $tool >/dev/null || { echo "attacker-pause: needs $tool" >&2; exit 2; }; done
[ -x "$GO" ] || { echo "attacker-pause: no Go at $GO (set GO=...)" >&2; exit 2; }

source bench/tools.sh
"$BLOCKLAB" --version >/dev/null 2>&1 || true   # builds the jar if sources changed

pids=()
cleanup() { for p in "${pids[@]}"; do kill -CONT "$p" 2>/dev/null || true; kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

established() { ss -Htn state established "( dport = :$PORT )" 2>/dev/null | wc -l; }

one_run() { # name flags...
  local name=$1; shift
  while [ "$(time_wait)" -ge 200 ]; do sleep 2; done
  "$BIN/go-targets" "$PORT" > /dev/null 2>&1 &
  local server=$!; pids+=("$server")
  await_port "$PORT"
  "$BLOCKLAB" attack "http://127.0.0.1:$PORT/" --rate "$RATE/s" --duration "$DURATION" --quiet --format json "$@" \
      > "$OUT/$name.json" 2> "$OUT/$name.err" &
  local attacker=$!; pids+=("$attacker")   # the launcher execs the JVM: this is the attacker's process
  local started=$SECONDS peak=0 n
  local stops=($STOPS)
  while kill -0 "$attacker" 2>/dev/null; do
    n=$(established); [ "$n" -gt "$peak" ] && peak=$n
    if [ ${#stops[@]} -gt 0 ] && [ $((SECONDS - started)) -ge "${stops[0]}" ]; then
      kill -STOP "$attacker"; sleep "$(awk "BEGIN {print $PAUSE_MS / 1000}")"; kill -CONT "$attacker"
      stops=("${stops[@]:1}")
    fi
    sleep 0.1
  done
  wait "$attacker" || true
  kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true
  jq -r --arg name "$name" --arg peak "$peak" \
    '"\($name)  peak connections \($peak)  latency ms p50 \(.latencyMillis.p50) p99 \(.latencyMillis.p99) p99.9 \(.latencyMillis.p999) max \(.latencyMillis.max)  success \(.successRatio)  instrument-limited \(.instrument.limited)"' \
    "$OUT/$name.json" | tee -a "$OUT/summary.txt"
}

log "attacker paused ${PAUSE_MS} ms at ${STOPS} s after launch, ${RATE}/s for ${DURATION}, ${REPEATS} repeats; raw output in $OUT"
for i in $(seq 1 "$REPEATS"); do
  variants=(default $CAPS)
  [ $((i % 2)) -eq 0 ] && variants=($(printf '%s\n' "${variants[@]}" | tac))
  for v in "${variants[@]}"; do
    if [ "$v" = default ]; then one_run "default-r$i"
    else one_run "cap$v-r$i" --max-connections "$v"; fi
  done
done
