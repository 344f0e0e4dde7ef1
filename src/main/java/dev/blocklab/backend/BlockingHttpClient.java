package dev.blocklab.backend;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A plain blocking HTTP/1.1 client over {@link Socket}s with keep-alive connections: the calling thread writes
 * the request and blocks in a socket read until the answer arrives, as a JDBC driver or a classic HTTP client
 * does. No helper threads, no futures (so a {@code ForkJoinPool} worker blocked here is not compensated).
 *
 * <p>Thread-safe: each call takes an idle connection or opens one, and returns it to the pool afterwards.
 * Supports answers with {@code Content-Length} (what {@link BackendServer} sends).
 */
final class BlockingHttpClient implements AutoCloseable {
    record Response(int status, byte[] body, boolean keepAlive) {
        String text() { return new String(body, StandardCharsets.UTF_8); }
    }

    private record Connection(Socket socket, InputStream in, OutputStream out) {
        void closeQuietly() {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }

    private final String host;
    private final int port;
    private final int maxIdle;
    private final ConcurrentLinkedDeque<Connection> idle = new ConcurrentLinkedDeque<>();
    private final AtomicInteger idleCount = new AtomicInteger();
    private volatile boolean closed;

    BlockingHttpClient(String host, int port, int maxIdle) {
        this.host = host;
        this.port = port;
        this.maxIdle = maxIdle;
    }

    /**
     * Sends {@code GET pathAndQuery} and blocks until the whole answer is read.
     *
     * @param timeoutNanos give up after this long without an answer (0: wait forever)
     * @throws TimeoutException when the timeout passes first (the connection is then discarded)
     */
    Response get(String pathAndQuery, long timeoutNanos) throws IOException, TimeoutException, InterruptedException {
        if (closed) throw new IOException("client closed");
        if (Thread.interrupted()) throw new InterruptedException();
        Connection c = idle.pollFirst();
        boolean reused = c != null;
        if (reused) idleCount.decrementAndGet();
        else c = open();
        try {
            return attempt(c, pathAndQuery, timeoutNanos);
        } catch (IOException e) {
            if (!reused) throw e;
            // a kept-alive connection the server had closed: one retry on a fresh connection
            return attempt(open(), pathAndQuery, timeoutNanos);
        }
    }

    /** One exchange on {@code c}; a connection that failed is closed, one that answered goes back to the pool. */
    private Response attempt(Connection c, String pathAndQuery, long timeoutNanos) throws IOException, TimeoutException {
        try {
            Response r = exchange(c, pathAndQuery, timeoutNanos);
            release(c, r.keepAlive());
            return r;
        } catch (SocketTimeoutException e) {
            c.closeQuietly();
            throw new TimeoutException("no answer from " + host + ":" + port + " within " + timeoutNanos / 1_000_000 + " ms");
        } catch (IOException e) {
            c.closeQuietly();
            throw e;
        }
    }

    private Connection open() throws IOException {
        Socket s = new Socket();
        s.setTcpNoDelay(true);
        s.connect(new InetSocketAddress(host, port), 10_000);
        return new Connection(s, new BufferedInputStream(s.getInputStream(), 8192), s.getOutputStream());
    }

    private void release(Connection c, boolean keepAlive) {
        if (!keepAlive || closed) {
            c.closeQuietly();
        } else if (idleCount.incrementAndGet() <= maxIdle) {
            idle.addFirst(c);
        } else {
            idleCount.decrementAndGet();
            c.closeQuietly();
        }
    }

    private Response exchange(Connection c, String pathAndQuery, long timeoutNanos) throws IOException {
        int timeoutMillis = timeoutNanos <= 0 ? 0 : (int) Math.max(1, Math.min(Integer.MAX_VALUE, (timeoutNanos + 999_999) / 1_000_000));
        c.socket().setSoTimeout(timeoutMillis);
        String budget = timeoutNanos <= 0 ? "" : BackendServer.BUDGET_HEADER + ": " + (timeoutNanos + 999) / 1_000 + "\r\n";
        c.out().write(("GET " + pathAndQuery + " HTTP/1.1\r\nHost: " + host + ":" + port + "\r\n" + budget + "\r\n")
                .getBytes(StandardCharsets.ISO_8859_1));
        c.out().flush();
        String statusLine = line(c.in());
        if (statusLine == null) throw new IOException("connection closed before an answer");
        String[] parts = statusLine.split(" ", 3);
        if (parts.length < 2 || !parts[0].startsWith("HTTP/1.")) throw new IOException("not an HTTP answer: " + statusLine);
        int status = Integer.parseInt(parts[1]);
        int length = -1;
        boolean close = false;
        for (String h = line(c.in()); h != null && !h.isEmpty(); h = line(c.in())) {
            int colon = h.indexOf(':');
            if (colon < 0) continue;
            String name = h.substring(0, colon).trim().toLowerCase(Locale.ROOT), value = h.substring(colon + 1).trim();
            if (name.equals("content-length")) length = Integer.parseInt(value);
            else if (name.equals("connection") && value.equalsIgnoreCase("close")) close = true;
            else if (name.equals("transfer-encoding")) throw new IOException("chunked answers are not supported");
        }
        if (length < 0) throw new IOException("answer without Content-Length");
        byte[] body = c.in().readNBytes(length);
        if (body.length < length) throw new IOException("answer cut short: " + body.length + " of " + length + " bytes");
        return new Response(status, body, !close);
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream(64);
        for (int ch = in.read(); ch >= 0; ch = in.read()) {
            if (ch == '\n') {
                byte[] bytes = b.toByteArray();
                int n = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
                return new String(bytes, 0, n, StandardCharsets.ISO_8859_1);
            }
            b.write(ch);
        }
        return b.size() == 0 ? null : b.toString(StandardCharsets.ISO_8859_1);
    }

    @Override public void close() {
        closed = true;
        for (Connection c = idle.pollFirst(); c != null; c = idle.pollFirst()) c.closeQuietly();
    }
}
