#!/usr/bin/env bash
# blocklab attack beside vegeta v12.12.0, both with default flags, against the same endpoints (issue 11).
#
#   bench/vs-vegeta.sh                      # the whole benchmark, about 15 minutes
#   DURATION=5s PAUSE=10 bench/vs-vegeta.sh # shorter, for a first look
#   SERVER_RATES="1000" TRIVIAL_RATES="10000" bench/vs-vegeta.sh   # an empty list skips that part: TRIVIAL_RATES= GO_WAIT_RATES=
#   BLOCKLAB=/path/to/other/checkout/blocklab bench/vs-vegeta.sh   # attack with another build (before/after)
#   REPEATS=3 bench/vs-vegeta.sh            # each pair three times, the order alternating, and the median ratio
#   SERVER_RATES= TRIVIAL_RATES= GO_WAIT_RATES=10000 GCOFF_RATES=10000 REPEATS=3 bench/vs-vegeta.sh   # the 10,000/s figures only
#
# What it does:
#  1. builds vegeta from its Go module (GOBIN=target/bench-bin go install github.com/tsenart/vegeta/v12@v12.12.0)
#     and a trivial Go net/http server (200 "ok" at once), unless already built;
#  2. starts './blocklab serve --profile $SERVER_PROFILE' (default play-2.5, the talk's stack) on 127.0.0.1:$SERVER_PORT, warms it with 10 s of vegeta at the
#     highest rate it will be driven at (SERVER_RATES and GCOFF_RATES; discarded), so that its JIT has compiled
#     what that rate runs before any measured run (warmed at 2,000/s only, the first 10,000/s run recompiled
#     hundreds of methods in its window; docs/attack.md), and restarts and rewarms it before a run if it no
#     longer answers /health; then attacks /async-non-blocking (a 500 ms critical path) at SERVER_RATES, vegeta first, then blocklab, each for
#     DURATION, pausing at least PAUSE seconds between runs and until fewer than MAX_TIME_WAIT loopback sockets
#     are left in TIME_WAIT (at most 120 s more): a run that opened thousands of connections leaves them for
#     60 s, and the next run finds its ports taken (once 'Cannot assign requested address' for 650 requests
#     at 30,000/s after vegeta's collapse at the rate before);
#  3. starts the Go server and attacks it at TRIVIAL_RATES in the same way (a shorter least pause), then drives
#     its /wait500 (a 500 ms sleep in the handler's goroutine, what /async-non-blocking's critical path is) with
#     vegeta alone at GO_WAIT_RATES: the reference for the server's own figure at the same rate;
#  3b. drives both 500 ms endpoints (the blocklab server's and the Go server's) at GCOFF_RATES with vegeta's
#     collector off (GOGC=off, an environment variable: the one change to vegeta anywhere here, labelled so), to
#     tell vegeta's own pauses from the server's. Every vegeta run traces its collector (GODEBUG=gctrace=1: a line
#     on stderr per cycle, kept as NAME.vegeta.gc; nothing else changes) and the table notes its cycles: on this
#     2-core machine at 10,000/s each cycle's concurrent phase took 70-110 ms and every window of sends whose p99
#     rose above 520 ms was sent, or answered, during one (docs/attack.md);
#  4. prints one line per run and a table: each tool's p99, the ratio blocklab / vegeta on two clocks, and a LIMIT
#     label where a figure may be the load generator's own limit (vegeta: sent below 99 % of the asked rate or
#     not 100 % success; blocklab: its instrument-limited verdict, with the share of its loops' lag spent
#     waiting for a core when known, or sent below 99 %). The two clocks: blocklab's
#     latency counts from each request's intended send time (its report's figure, free of coordinated omission),
#     vegeta's from its actual send; blocklab also reports its latency from the actual send
#     (instrument.latencyFromSendMillis), so 'ratio(send)' compares the two tools on one clock and 'ratio' is
#     the stricter comparison. With REPEATS > 1 the pair runs that many times (vegeta first in odd repeats,
#     blocklab first in even ones) and the table ends with the median of each rate's ratios. A row against the
#     blocklab server also notes the server's collection pauses that fell in each tool's measured run (its
#     -Xlog:gc; blocklab's measured window is taken as its report's duration, and a second before it).
# Every run's raw output is kept under $OUT; the machine's load (uptime) is printed before and after each run.
# Needs: Go (GO, default /usr/local/go/bin/go), jq, curl, a JDK 25 (found by ./blocklab).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

GO=${GO:-/usr/local/go/bin/go}
DURATION=${DURATION:-10s}
PAUSE=${PAUSE:-40}
TRIVIAL_PAUSE=${TRIVIAL_PAUSE:-5}
MAX_TIME_WAIT=${MAX_TIME_WAIT:-1000}
REPEATS=${REPEATS:-1}
SERVER_RATES=${SERVER_RATES-"1000 5000 8000 10000"}
TRIVIAL_RATES=${TRIVIAL_RATES-"10000 20000 30000"}
GO_WAIT_RATES=${GO_WAIT_RATES-"10000"}
GCOFF_RATES=${GCOFF_RATES-"10000"}
SERVER_PORT=${SERVER_PORT:-19000}
SERVER_PROFILE=${SERVER_PROFILE:-play-2.5}   # where the server's handlers run: play-2.5, event-loop, virtual, threads:N
TRIVIAL_PORT=${TRIVIAL_PORT:-19001}
BLOCKLAB=${BLOCKLAB:-./blocklab}   # the attacker's launcher; the server is always this checkout's
OUT=${OUT:-results/vs-vegeta-$(date -u +%Y%m%dT%H%M%SZ)}
BIN=$PWD/target/bench-bin
mkdir -p "$OUT" "$BIN"
command -v jq >/dev/null || { echo "vs-vegeta: needs jq" >&2; exit 2; }
[ -x "$GO" ] || { echo "vs-vegeta: no Go at $GO (set GO=...)" >&2; exit 2; }

source bench/tools.sh
./blocklab --version >/dev/null 2>&1 || true   # builds the jar if sources changed

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

# vegeta with default flags, its collector traced; prints "p99_ms rate success gc_cycles gc_longest_ms" (the
# collector's cycles in the run, and the longest concurrent phase, wall ms). Extra arguments: environment (GOGC=off).
run_vegeta() { # url rate name [VAR=value...]
  local url=$1 rate=$2 name=$3; shift 3
  echo "GET $url" | env GODEBUG=gctrace=1 "$@" "$BIN/vegeta" attack -rate "$rate/s" -duration "$DURATION" \
    > "$OUT/$name.vegeta.bin" 2> "$OUT/$name.vegeta.gc"
  "$BIN/vegeta" report -type json < "$OUT/$name.vegeta.bin" > "$OUT/$name.vegeta.json"
  "$BIN/vegeta" report < "$OUT/$name.vegeta.bin" > "$OUT/$name.vegeta.txt"
  rm -f "$OUT/$name.vegeta.bin"
  echo "$(jq -r '"\(.latencies["99th"] / 1e6) \(.rate) \(.success)"' "$OUT/$name.vegeta.json") $(vegeta_gc "$OUT/$name.vegeta.gc")"
}
run_vegeta_gcoff() { run_vegeta "$@" GOGC=off; }

# vegeta's collector cycles in a gctrace log ("gc 7 @1.675s 3%: 1.3+87+0.90 ms clock, ..."): "COUNT LONGEST_MS".
vegeta_gc() { # file
  awk '/^gc [0-9]+ @/ { split($5, phase, "+"); n++; if (phase[2] + 0 > max) max = phase[2] + 0 }
       END { printf "%d %.0f\n", n, max }' "$1"
}

# blocklab attack with default flags (JSON, for the figures); prints "p99_ms rate success limited p99_from_send_ms
# lag_waiting_share" (limited: true, false or not-judged; the last: of its event loops' lateness, the share spent
# waiting for a core; nan if unknown).
run_blocklab() { # url rate name
  "$BLOCKLAB" attack "$1" --rate "$2/s" --duration "$DURATION" --quiet --format json > "$OUT/$3.blocklab.json"
  jq -r '"\(.latencyMillis.p99) \(.ratePerSecond) \(.successRatio) \(if .instrument.judged == false then "not-judged" else .instrument.limited end) \(.instrument.latencyFromSendMillis.p99 // "nan") \(.instrument.eventLoopLagWaitingShare // "nan")"' "$OUT/$3.blocklab.json"
}

# Waits at least $1 seconds, then until TIME_WAIT sockets fall below MAX_TIME_WAIT (at most 120 s more).
settle() {
  sleep "$1"
  local waited=0
  while [ "$(time_wait)" -ge "$MAX_TIME_WAIT" ] && [ "$waited" -lt 120 ]; do sleep 5; waited=$((waited + 5)); done
  [ "$waited" -gt 0 ] && log "waited ${waited}s more for TIME_WAIT to drain ($(time_wait) left)"
  return 0
}

# The blocklab server, started (and warmed with 10 s of vegeta at the highest rate it will be driven at,
# discarded) on $SERVER_PORT.
# Its collections go to a log (one per start), so each run's table row can say which of its pauses fell in the
# run: a young collection with ~5,000 requests in flight stops both cores for 100-280 ms (docs/attack.md).
start_server() {
  BLOCKLAB_JAVA_OPTS="${BLOCKLAB_JAVA_OPTS:-} -Xlog:gc:file=$OUT/server-gc-$(date +%s).log:timemillis" \
    ./blocklab serve --profile "$SERVER_PROFILE" --port "$SERVER_PORT" >> "$OUT/serve.log" 2>&1 &
  server_pid=$!
  pids+=("$server_pid")
  await_port "$SERVER_PORT"
  local warm=2000 r
  for r in $SERVER_RATES $GCOFF_RATES; do [ "$r" -gt "$warm" ] && warm=$r; done
  log "warming the server: vegeta at ${warm}/s for 10s (discarded)"
  echo "GET http://127.0.0.1:$SERVER_PORT/async-non-blocking" | "$BIN/vegeta" attack -rate "${warm}/s" -duration 10s > /dev/null
  settle "$PAUSE"
}

# A collapsed run can leave the server unable to accept (run 2: vegeta at 8,000/s opened connections up to the
# 20,000 file descriptors, and the server's acceptor thread died): restart it rather than measure a dead server.
server_alive() { curl -s -m 5 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$SERVER_PORT/health" 2>/dev/null | grep -q 200; }
ensure_server() { # url
  case "$1" in *":$SERVER_PORT/"*) ;; *) return 0 ;; esac
  server_alive && return 0
  log "the server does not answer /health: restarting it (noted in the table)"
  kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true
  restarted+="$2 "
  start_server
}

# The server's collection pauses logged between two epoch milliseconds: "COUNTxMAX_MS", or "0" for none.
server_pauses() { # from_ms to_ms
  { cat "$OUT"/server-gc-*.log 2>/dev/null || true; } | awk -v a="$1" -v b="$2" '
    /Pause/ && match($0, /^\[[0-9]+ms\]/) { t = substr($0, 2, RLENGTH - 4) + 0
      if (t >= a && t <= b) { n++; ms = $NF; sub(/ms$/, "", ms); if (ms + 0 > max) max = ms + 0 } }
    END { if (n) printf "%dx%.0f\n", n, max; else print 0 }'
}

results=()
restarted=""
# One tool at one rate: sets $figures (see run_vegeta and run_blocklab), then settles. Runs in this shell (not a
# subshell), so a server restarted by ensure_server stays known.
figures=""
pauses="-"   # the server's collection pauses in the last run (server_pauses), "-" for another target
one_tool() { # tool url rate name pause
  local tool=$1 url=$2 rate=$3 name=$4 pause=$5 from to
  ensure_server "$url" "$name-$tool"
  log "$name: $tool at $rate/s (load $(cut -d' ' -f1-3 /proc/loadavg), $(time_wait) in TIME_WAIT)"
  from=$(date +%s%3N)
  figures=$("run_$tool" "$url" "$rate" "$name")
  to=$(date +%s%3N)
  # blocklab's measured window is its report's duration before it exits (give or take a second), after its
  # start-up and discarded warm-up; vegeta's is the whole run.
  [ "$tool" = blocklab ] && from=$((to - $(jq '.durationSeconds.total * 1000 | floor' "$OUT/$name.blocklab.json") - 1000))
  case "$url" in *":$SERVER_PORT/"*) pauses=$(server_pauses "$from" "$to") ;; *) pauses="-" ;; esac
  log "$name: $tool figures = $figures; server collection pauses $pauses; pausing ${pause}s"
  settle "$pause"
}
# One tool at each of RATES, REPEATS times each; appends "RATE FIGURES PAUSES" for every run to the array named.
each_rate() { # tool url rates name-prefix array
  local -n rows=$5
  local r i
  for r in $3; do
    for i in $(seq 1 "$REPEATS"); do
      one_tool "$1" "$2" "$r" "$4-$r-r$i" "$PAUSE"
      rows+=("$r $figures $pauses")
    done
  done
}
one_rate() { # url rate name pause
  local url=$1 rate=$2 name=$3 pause=$4 v b vg bg i
  for i in $(seq 1 "$REPEATS"); do
    if [ $((i % 2)) -eq 1 ]; then
      one_tool vegeta "$url" "$rate" "$name-r$i" "$pause"; v=$figures; vg=$pauses
      one_tool blocklab "$url" "$rate" "$name-r$i" "$pause"; b=$figures; bg=$pauses
    else
      one_tool blocklab "$url" "$rate" "$name-r$i" "$pause"; b=$figures; bg=$pauses
      one_tool vegeta "$url" "$rate" "$name-r$i" "$pause"; v=$figures; vg=$pauses
    fi
    results+=("$name $rate $i $v $b $(cut -d' ' -f1 /proc/loadavg) $vg $bg")
  done
}

log "start; load $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"
server_url="http://127.0.0.1:$SERVER_PORT/async-non-blocking"
if [ -n "$SERVER_RATES" ]; then
  start_server
  for r in $SERVER_RATES; do one_rate "$server_url" "$r" "server-$r" "$PAUSE"; done
fi
gcoff_server=() go_wait=() gcoff_go=()   # "RATE FIGURES PAUSES" of each run (each_rate)
if [ -n "$GCOFF_RATES" ]; then
  [ -n "$SERVER_RATES" ] || start_server
  each_rate vegeta_gcoff "$server_url" "$GCOFF_RATES" server-gcoff gcoff_server
fi
[ -n "${server_pid:-}" ] && { kill "$server_pid" 2>/dev/null || true; }

"$BIN/go-targets" "$TRIVIAL_PORT" > "$OUT/trivial.log" 2>&1 &
pids+=($!)
await_port "$TRIVIAL_PORT"
[ -n "$TRIVIAL_RATES" ] && for r in $TRIVIAL_RATES; do one_rate "http://127.0.0.1:$TRIVIAL_PORT/" "$r" "trivial-$r" "$TRIVIAL_PAUSE"; done
each_rate vegeta "http://127.0.0.1:$TRIVIAL_PORT/wait500" "$GO_WAIT_RATES" go-wait500 go_wait
each_rate vegeta_gcoff "http://127.0.0.1:$TRIVIAL_PORT/wait500" "$GCOFF_RATES" go-wait500-gcoff gcoff_go

{
  echo
  echo "blocklab attack vs vegeta v12.12.0, default flags, $DURATION per run, $(nproc) cores, $(date -u +%FT%TZ); server: serve --profile $SERVER_PROFILE"
  echo "p99 in ms. blocklab: from each request's intended send time (its report), and 'send': from its actual send,"
  echo "vegeta's clock. ratio = blocklab / vegeta; ratio(send) compares on one clock. LIMIT: may be the load generator's limit."
  printf '%-8s %7s %3s %11s %13s %11s %7s %11s  %-40s %s\n' endpoint rate/s run vegeta-p99 blocklab-p99 'p99(send)' ratio 'ratio(send)' notes load1
  medians=""
  for row in "${results[@]}"; do
    read -r name rate run vp vr vs vgn vgm bp br bs bl bsend bwait load vg bg <<< "$row"
    ratio=$(awk -v b="$bp" -v v="$vp" 'BEGIN { printf "%.3f", (v > 0 ? b / v : 0) }')
    rsend=$(awk -v b="$bsend" -v v="$vp" 'BEGIN { if (b == "nan" || v <= 0) print "-"; else printf "%.3f", b / v }')
    notes=""
    awk -v r="$vr" -v a="$rate" -v s="$vs" 'BEGIN { exit !(r < 0.99 * a || s < 1) }' \
      && notes+="vegeta LIMIT (sent $(printf '%.0f' "$vr")/s, success $(awk -v s="$vs" 'BEGIN{printf "%.2f", s*100}')%) "
    { [ "$bl" = "true" ] || awk -v r="$br" -v a="$rate" 'BEGIN { exit !(r < 0.99 * a) }'; } \
      && notes+="blocklab LIMIT (instrument-limited=$bl, sent $(printf '%.0f' "$br")/s$(awk -v w="$bwait" \
        'BEGIN { if (w != "nan") printf ", loop lag %.0f%% waiting for a core", w * 100 }')) "
    [ "$bl" = "not-judged" ] && notes+="blocklab's instrument verdict not judged (too few requests or a failed target) "
    awk -v s="$bs" 'BEGIN { exit !(s < 1) }' && notes+="blocklab success $(awk -v s="$bs" 'BEGIN{printf "%.2f", s*100}')% "
    [ "$vgn" -gt 0 ] && notes+="vegeta's own GC: $vgn cycles, longest $vgm ms "
    case "$vg" in -|0|'') ;; *) notes+="server GC pauses in vegeta's run: ${vg%x*}, longest ${vg#*x} ms " ;; esac
    case "$bg" in -|0|'') ;; *) notes+="server GC pauses in blocklab's run: ${bg%x*}, longest ${bg#*x} ms " ;; esac
    printf '%-8s %7s %3s %11.1f %13.1f %11s %7s %11s  %-40s %s\n' "${name%-*}" "$rate" "$run" "$vp" "$bp" \
      "$(awk -v b="$bsend" 'BEGIN { if (b == "nan") print "-"; else printf "%.1f", b }')" "$ratio" "$rsend" "${notes:--}" "$load"
    medians+="${name%-*}-$rate $ratio $rsend $vp"$'\n'
  done
  if [ "$REPEATS" -gt 1 ]; then
    echo "median over $REPEATS runs: endpoint rate ratio ratio(send) vegeta-p99"
    med() { sort -g | awk '{ a[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) print a[(NR + 1) / 2]; else printf "%.3f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
    for key in $(printf '%s' "$medians" | awk '{ print $1 }' | awk '!seen[$0]++'); do
      rows=$(printf '%s' "$medians" | awk -v k="$key" '$1 == k')
      printf '  %-16s %s %s %s\n' "$key" "$(awk '{ print $2 }' <<< "$rows" | med)" \
        "$(awk '$3 != "-" { print $3 }' <<< "$rows" | med)" "$(awk '{ print $4 }' <<< "$rows" | med)"
    done
  fi
  vps=$(printf '%s' "$medians" | awk '$1 == "server-10000" { print $4 }' | sort -n | tr '\n' ' ')
  [ -n "$vps" ] && echo "server (--profile $SERVER_PROFILE) /async-non-blocking at 10000/s driven by vegeta: p99 $vps ms = $(for v in $vps; do awk -v v="$v" 'BEGIN{printf "%.3f ", v/500}'; done)x its 500 ms critical path"
  for row in "${go_wait[@]}"; do
    read -r rate vp vr vs vgn vgm _ <<< "$row"
    echo "Go net/http doing the same 500 ms wait, driven by vegeta at $rate/s: p99 $vp ms = $(awk -v v="$vp" 'BEGIN{printf "%.3f", v/500}') x (sent $(printf '%.0f' "$vr")/s, success $(awk -v s="$vs" 'BEGIN{printf "%.2f", s*100}')%, vegeta's own GC: $vgn cycles, longest $vgm ms)"
  done
  for row in "${gcoff_server[@]/#/server }" "${gcoff_go[@]/#/go }"; do
    read -r target rate vp vr vs vgn vgm sg <<< "$row"
    what="the blocklab server's /async-non-blocking"; [ "$target" = go ] && what="Go net/http's /wait500"
    case "$sg" in -) sgc="" ;; 0) sgc=", no server GC pause in the run" ;; *) sgc=", server GC pauses in the run: ${sg%x*}, longest ${sg#*x} ms" ;; esac
    echo "$what driven by vegeta with its collector off (GOGC=off) at $rate/s: p99 $vp ms = $(awk -v v="$vp" 'BEGIN{printf "%.3f", v/500}') x (sent $(printf '%.0f' "$vr")/s, success $(awk -v s="$vs" 'BEGIN{printf "%.2f", s*100}')%, vegeta GC cycles $vgn$sgc)"
  done
  [ -n "$restarted" ] && echo "the server was restarted (and warmed) before: $restarted"
  echo "raw outputs: $OUT"
} | tee "$OUT/summary.txt"
