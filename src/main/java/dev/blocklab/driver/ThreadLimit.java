package dev.blocklab.driver;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * How many more platform threads this machine lets a process start: the lowest of the kernel's limits on tasks
 * ({@code kernel.pid_max}, {@code kernel.threads-max}, this process's {@code RLIMIT_NPROC} unless it runs as root,
 * which the kernel does not hold to it) less the tasks that already run on the machine, and a container's
 * ({@code pids.max} of its cgroup) less the tasks in it. A platform thread takes one of them; a virtual thread does
 * not. {@code RLIMIT_NPROC} counts the tasks of the process's real user only, so against it the user's own tasks
 * are subtracted (the {@code Threads:} of every {@code /proc/PID/status} whose real {@code Uid:} is this process's),
 * or the machine's when those cannot be read, which errs on the side of refusing. Read from Linux's {@code /proc}
 * and {@code /sys/fs/cgroup}; elsewhere nothing is known and nothing is refused.
 *
 * @param limit   the lowest limit
 * @param source  which limit it is, e.g. {@code kernel.pid_max}
 * @param running the tasks counted against that limit now: every thread of every process on the machine, in the
 *                container for its {@code pids.max}, or of the user for {@code ulimit -u}
 */
public record ThreadLimit(long limit, String source, long running) {
    /** Threads kept free for the JVM's own and the rest of the machine's. */
    static final long HEADROOM = 1_000;

    /** Platform threads a run may start at once, at most. */
    public long spare() { return Math.max(0, limit - running - HEADROOM); }

    /**
     * {@code "this machine lets a process start about 31,633 more platform threads (kernel.pid_max 32,768, 135
     * running now)"}.
     */
    public String text() {
        return String.format(Locale.ROOT, "this machine lets a process start about %,d more platform threads (%s %,d, %,d running now)",
                spare(), source, limit, running);
    }

    /** This machine's limit, when {@code /proc} tells it. */
    public static Optional<ThreadLimit> current() { return read(Path.of("/proc"), Path.of("/sys/fs/cgroup")); }

    static Optional<ThreadLimit> read(Path proc, Path cgroup) {
        List<ThreadLimit> limits = new ArrayList<>();
        long running = runningTasks(proc);
        if (running >= 0) {
            number(proc.resolve("sys/kernel/pid_max")).ifPresent(n -> limits.add(new ThreadLimit(n, "kernel.pid_max", running)));
            number(proc.resolve("sys/kernel/threads-max")).ifPresent(n -> limits.add(new ThreadLimit(n, "kernel.threads-max", running)));
            long uid = realUid(proc);
            if (uid != 0)
                maxProcesses(proc.resolve("self/limits")).ifPresent(n -> limits.add(new ThreadLimit(n,
                        "the limit on processes (ulimit -u)", uid < 0 ? running : userTasks(proc, uid).orElse(running))));
        }
        number(cgroup.resolve("pids.max")).ifPresent(max -> number(cgroup.resolve("pids.current"))   // "max" (no limit) is no number
                .ifPresent(current -> limits.add(new ThreadLimit(max, "the container's pids.max", current))));
        return limits.stream().min(java.util.Comparator.comparingLong(ThreadLimit::spare));
    }

    /** This process's real user id (the first of {@code Uid:} in {@code /proc/self/status}), or -1 when not known. */
    private static long realUid(Path proc) {
        return statusField(proc.resolve("self/status"), "Uid:");
    }

    /** The first number of a {@code /proc/PID/status} field ({@code "Uid:"}, {@code "Threads:"}), or -1. */
    private static long statusField(Path status, String field) {
        try {
            for (String line : Files.readAllLines(status))
                if (line.startsWith(field)) return Long.parseLong(line.substring(field.length()).trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            // gone (a process that ended), or not known
        }
        return -1;
    }

    /** The threads of every process whose real user is {@code uid}, or empty when {@code /proc} cannot be listed. */
    private static java.util.OptionalLong userTasks(Path proc, long uid) {
        try (var processes = Files.list(proc)) {
            return java.util.OptionalLong.of(processes
                    .filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit))
                    .map(p -> p.resolve("status"))
                    .filter(status -> statusField(status, "Uid:") == uid)
                    .mapToLong(status -> Math.max(0, statusField(status, "Threads:")))
                    .sum());
        } catch (IOException | RuntimeException e) {
            return java.util.OptionalLong.empty();
        }
    }

    /** The total of {@code /proc/loadavg}'s fourth field ({@code runnable/total}), or -1. */
    private static long runningTasks(Path proc) {
        try {
            String[] fields = firstLine(proc.resolve("loadavg")).trim().split("\\s+");
            return Long.parseLong(fields[3].substring(fields[3].indexOf('/') + 1));
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static Optional<Long> number(Path file) {
        try {
            return Optional.of(Long.parseLong(firstLine(file).trim()));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * A file's first line, read line by line: {@code Files.readString} on a {@code /proc/sys} file, which reports a
     * size of 0, returned its first byte only ("1" for 192731).
     */
    private static String firstLine(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file);
        if (lines.isEmpty()) throw new IOException(file + " is empty");
        return lines.getFirst();
    }

    /** The soft limit of {@code Max processes} in {@code /proc/self/limits}, unless unlimited. */
    private static Optional<Long> maxProcesses(Path limits) {
        try {
            for (String line : Files.readAllLines(limits)) {
                if (!line.startsWith("Max processes")) continue;
                String soft = line.substring("Max processes".length()).trim().split("\\s+")[0];
                return soft.equals("unlimited") ? Optional.empty() : Optional.of(Long.parseLong(soft));
            }
        } catch (IOException | RuntimeException e) {
            // no such file, or a format this reader does not know: no limit known from it
        }
        return Optional.empty();
    }
}
