# Shared by the bench scripts, which set BIN (target/bench-bin) and GO and source this file: log, await_port and
# time_wait, then the benchmark's tools built into $BIN unless already there: vegeta v12.12.0 from its Go module,
# and a Go net/http server with a trivial '/' (200 "ok" at once) and '/wait500' (a 500 ms sleep in the handler's
# goroutine), run as '$BIN/go-targets PORT' (127.0.0.1 only).

log() { echo "[$(date -u +%H:%M:%S)] $*" >&2; }

# Waits up to 60 s for something to listen on 127.0.0.1:$1; exits the script if nothing does.
await_port() {
  for _ in $(seq 1 120); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0; sleep 0.5; done
  echo "bench: nothing listens on port $1" >&2; exit 1
}

# Loopback sockets in TIME_WAIT now: a run that opened thousands of connections leaves them for 60 s.
time_wait() { ss -tan state time-wait 2>/dev/null | tail -n +2 | wc -l; }

if [ ! -x "$BIN/vegeta" ]; then
  log "building vegeta v12.12.0 from its Go module"
  GOBIN=$BIN "$GO" install github.com/tsenart/vegeta/v12@v12.12.0
fi
if [ ! -x "$BIN/go-targets" ]; then
  log "building the trivial Go net/http server"
  src=$(mktemp -d)
  cat > "$src/main.go" <<'GO'
package main

import (
	"net/http"
	"os"
	"time"
)

func main() {
	http.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte("ok\n"))
	})
	// The reference for the server's /async-non-blocking: the same 500 ms wait in a goroutine.
	http.HandleFunc("/wait500", func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(500 * time.Millisecond)
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte("ok\n"))
	})
	if err := http.ListenAndServe("127.0.0.1:"+os.Args[1], nil); err != nil {
		panic(err)
	}
}
GO
  (cd "$src" && GO111MODULE=off "$GO" build -o "$BIN/go-targets" main.go)
  rm -rf "$src"
fi
