package dev.blocklab.datastore;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * A {@code redis-server} from the {@code PATH}, started by the lab on a free port of 127.0.0.1 with persistence
 * off (no RDB snapshots, no append-only file) and its working directory in a temporary directory removed when it
 * stops, on {@link #close()} or at JVM exit.
 */
public final class EmbeddedRedis implements AutoCloseable {
    public static final String INSTALL_HINT = "redis-server is not on the PATH: install it (Debian/Ubuntu: apt-get install redis-server;"
            + " macOS: brew install redis) or pass --redis-url redis://HOST:PORT";

    private final ServerProcess process;
    private final int port;
    private final long startupNanos;

    private EmbeddedRedis(ServerProcess process, int port, long startupNanos) {
        this.process = process;
        this.port = port;
        this.startupNanos = startupNanos;
    }

    /**
     * Starts a server; returns once it accepts connections.
     *
     * @throws IllegalStateException when redis-server is missing (saying how to install it) or fails to start
     */
    public static EmbeddedRedis start() {
        long startNanos = System.nanoTime();
        Path executable = find("redis-server").orElseThrow(() -> new IllegalStateException(INSTALL_HINT));
        Path dir;
        try {
            dir = Files.createTempDirectory("blocklab-redis-");
            Files.createFile(dir.resolve("redis.log"));
        } catch (IOException e) {
            throw new IllegalStateException("cannot create Redis's directory: " + dev.blocklab.TextFiles.reason(e), e);
        }
        int port = ServerProcess.freePort();
        // --hz 100: Redis checks blocked commands' timeouts hz times a second; at its default of 10 a 50 ms BLPOP on an
        // empty list answers after about 100 ms, so timeouts below 100 ms could not be measured against their value
        List<String> command = List.of(executable.toString(), "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--dir", dir.toString(), "--daemonize", "no", "--protected-mode", "yes", "--hz", "100");
        ServerProcess process = ServerProcess.start("redis-server", command, dir.resolve("redis.log"),
                "Ready to accept connections", ServerProcess.SIGTERM, 30, () -> ServerProcess.deleteTree(dir));
        return new EmbeddedRedis(process, port, System.nanoTime() - startNanos);
    }

    /** True when {@code redis-server} is on the PATH. */
    public static boolean available() { return find("redis-server").isPresent(); }

    /** {@code redis://127.0.0.1:PORT}, as {@code --redis-url} takes it. */
    public String url() { return "redis://127.0.0.1:" + port; }

    public int port() { return port; }

    public long startupNanos() { return startupNanos; }

    /** Kills the server at once, as a crash would (for fault tests). */
    public void kill() throws InterruptedException { process.kill(); }

    /** Starts the server again on the same port with the same data after {@link #kill()}; for fault tests. */
    public void restart() { process.restart(60); }

    @Override public void close() { process.close(); }

    private static java.util.Optional<Path> find(String program) {
        String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
        try (Stream<String> dirs = Stream.concat(Stream.of(path.split(java.io.File.pathSeparator)), Stream.of("/usr/bin", "/usr/local/bin", "/usr/sbin"))) {
            return dirs.filter(d -> !d.isEmpty()).map(d -> Path.of(d, program)).filter(Files::isExecutable).findFirst();
        }
    }
}
