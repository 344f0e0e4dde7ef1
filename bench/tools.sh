# Builds the benchmark's tools into $BIN (target/bench-bin) unless already there: vegeta v12.12.0 from its Go
# module, and a Go net/http server with a trivial '/' (200 "ok" at once) and '/wait500' (a 500 ms sleep in the
# handler's goroutine), run as '$BIN/go-targets PORT' (127.0.0.1 only). Sourced by the bench scripts, which set
# BIN and GO and define log().
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
