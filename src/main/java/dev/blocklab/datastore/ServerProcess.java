package dev.blocklab.datastore;

import java.io.IOException;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A server process the lab started (PostgreSQL or Redis), with its output in a log file, stopped on every exit
 * path: {@link #close()}, or the JVM's shutdown hook when the lab is interrupted (Ctrl-C) or exits without
 * closing. Stopping sends {@code stopSignal} (SIGINT is PostgreSQL's fast shutdown), waits up to 10 s, then kills.
 * A JVM killed with SIGKILL cannot stop its children; nothing can.
 */
final class ServerProcess implements AutoCloseable {
    static final int SIGINT = 2;
    static final int SIGTERM = 15;
    private static final MethodHandle KILL = lookupKill();

    private final String name;
    private final List<String> command;
    private final String readyLine;
    private Process process;
    private final Path log;
    private final int stopSignal;
    private final Runnable afterStop;
    private final Thread hook;
    private boolean closed;

    private ServerProcess(String name, List<String> command, String readyLine, Process process, Path log, int stopSignal, Runnable afterStop) {
        this.name = name;
        this.command = command;
        this.readyLine = readyLine;
        this.process = process;
        this.log = log;
        this.stopSignal = stopSignal;
        this.afterStop = afterStop;
        this.hook = new Thread(this::stopOnShutdown, "blocklab-stop-" + name);
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** Work still using the servers when the JVM shuts down (a run stopping on Ctrl-C): their hooks wait for it. */
    private static final java.util.Set<java.util.concurrent.CountDownLatch> USERS = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** The longest a server's shutdown hook waits for its users. */
    private static final long USERS_WAIT_MILLIS = 20_000;

    /**
     * Keeps every server up during a shutdown until {@code done} opens (or {@value #USERS_WAIT_MILLIS} ms pass):
     * a run stopped by Ctrl-C keeps what it completed, and its requests in flight would otherwise fail against a
     * server stopped under them. Call {@link #released} once the work is over.
     */
    static void keepUpUntil(java.util.concurrent.CountDownLatch done) { USERS.add(done); }

    /** Forgets {@code done}, registered by {@link #keepUpUntil}. */
    static void released(java.util.concurrent.CountDownLatch done) { USERS.remove(done); }

    private void stopOnShutdown() {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(USERS_WAIT_MILLIS);
        try {
            for (var done : USERS) done.await(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        stop();
    }

    /**
     * The command in a session of its own ({@code setsid}, where there is one): a terminal's Ctrl-C goes to the
     * whole foreground process group, and would stop a server the lab started before the lab is done with it. The
     * lab's shutdown hook stops it instead.
     */
    static List<String> ownSession(List<String> command) {
        if (!java.nio.file.Files.isExecutable(Path.of("/usr/bin/setsid"))) return command;
        List<String> wrapped = new java.util.ArrayList<>(List.of("/usr/bin/setsid"));
        wrapped.addAll(command);
        return wrapped;
    }

    /**
     * Starts {@code command}, its standard output and error appended to {@code log}, and waits until a line of
     * the log contains {@code readyLine}.
     *
     * @param afterStop runs once the process has exited (removes its data); also on a failed start
     * @throws IllegalStateException when the process exits or stays silent for {@code timeoutSeconds}, with the
     *                               log's last lines
     */
    static ServerProcess start(String name, List<String> command, Path log, String readyLine, int stopSignal,
                               int timeoutSeconds, Runnable afterStop) {
        Process process;
        try {
            process = new ProcessBuilder(ownSession(command)).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        } catch (IOException e) {
            afterStop.run();
            throw new IllegalStateException("cannot start " + name + " (" + command.getFirst() + "): " + e.getMessage(), e);
        }
        ServerProcess server;
        try {
            server = new ServerProcess(name, command, readyLine, process, log, stopSignal, afterStop);
        } catch (IllegalStateException shuttingDown) {
            // Ctrl-C came while it was starting: no hook can be added, so nothing would ever stop it
            process.destroyForcibly();
            afterStop.run();
            throw new IllegalStateException("the JVM is shutting down: " + name + " stopped as it started", shuttingDown);
        }
        server.awaitReady(0, timeoutSeconds);
        return server;
    }

    /**
     * Starts the same command again after the process died (a crash, {@link #kill()}), with the same data, and
     * waits until it is ready; for fault tests.
     */
    synchronized void restart(int timeoutSeconds) {
        if (process.isAlive()) throw new IllegalStateException(name + " is still running");
        long readyBefore = countInLog(readyLine);
        try {
            process = new ProcessBuilder(ownSession(command)).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot restart " + name + ": " + e.getMessage(), e);
        }
        awaitReady(readyBefore, timeoutSeconds);
    }

    /** Waits until the log holds more than {@code readyBefore} ready lines; stops the process on failure. */
    private void awaitReady(long readyBefore, int timeoutSeconds) {
        ServerProcess server = this;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        try {
            while (server.countInLog(readyLine) <= readyBefore) {
                if (!process.isAlive())
                    throw new IllegalStateException(name + " exited with code " + process.exitValue() + " while starting: " + server.tail());
                if (System.nanoTime() > deadline)
                    throw new IllegalStateException(name + " not ready after " + timeoutSeconds + " s: " + server.tail());
                Thread.sleep(10);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            server.close();
            throw new IllegalStateException("interrupted while starting " + name, e);
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
    }

    long pid() { return process.pid(); }

    boolean isAlive() { return process.isAlive(); }

    /** Kills the process at once (SIGKILL), as a crash would; for fault tests. Data is kept until close. */
    synchronized void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    /** The last lines of the log, on one line. */
    String tail() {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join(" | ", lines.subList(Math.max(0, lines.size() - 4), lines.size()));
        } catch (IOException e) {
            return "(no log: " + dev.blocklab.TextFiles.reason(e) + ")";
        }
    }

    @Override public synchronized void close() {
        if (closed) return;
        closed = true;
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or about to; stop() is idempotent
        }
        stop();
    }

    private synchronized void stop() {
        try {
            if (process.isAlive()) {
                signal(process.pid(), stopSignal);
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    process.waitFor(10, TimeUnit.SECONDS);
                }
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        } finally {
            afterStop.run();
        }
    }

    /** The first line of the log that contains {@code text}. */
    java.util.Optional<String> firstLogLine(String text) {
        try (Stream<String> lines = Files.lines(log, StandardCharsets.UTF_8)) {
            return lines.filter(l -> l.contains(text)).findFirst();
        } catch (IOException | java.io.UncheckedIOException e) {
            return java.util.Optional.empty();
        }
    }

    private long countInLog(String text) {
        try (Stream<String> lines = Files.lines(log, StandardCharsets.UTF_8)) {
            return lines.filter(l -> l.contains(text)).count();
        } catch (IOException | java.io.UncheckedIOException e) {
            return 0;
        }
    }

    /** Sends a signal with libc's kill(2); falls back to SIGTERM through {@link Process#destroy()}. */
    private void signal(long pid, int signal) {
        if (KILL != null) {
            try {
                if ((int) KILL.invokeExact((int) pid, signal) == 0) return;
            } catch (Throwable ignored) {
                // fall back below
            }
        }
        process.destroy();
    }

    private static MethodHandle lookupKill() {
        try {
            Linker linker = Linker.nativeLinker();
            return linker.defaultLookup().find("kill").map(address -> linker.downcallHandle(address,
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT))).orElse(null);
        } catch (RuntimeException | LinkageError e) {
            return null;   // without native access: Process.destroy (SIGTERM)
        }
    }

    /** A TCP port free on 127.0.0.1 a moment ago. */
    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free port on 127.0.0.1: " + e.getMessage(), e);
        }
    }

    /** Deletes a directory tree; what cannot be deleted is left. */
    static void deleteTree(Path root) {
        if (root == null || !Files.exists(root)) return;
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException ignored) {
                    // best effort
                }
            });
        } catch (IOException | java.io.UncheckedIOException ignored) {
            // best effort
        }
    }
}
