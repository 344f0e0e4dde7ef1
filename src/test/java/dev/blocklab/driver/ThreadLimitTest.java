package dev.blocklab.driver;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class ThreadLimitTest {
    @TempDir Path dir;

    private Path proc() { return dir.resolve("proc"); }

    private Path cgroup() { return dir.resolve("cgroup"); }

    private void write(String file, String text) throws IOException {
        Path path = dir.resolve(file.startsWith("cgroup/") ? file : "proc/" + file);
        Files.createDirectories(path.getParent());
        Files.writeString(path, text);
    }

    private java.util.Optional<ThreadLimit> read() { return ThreadLimit.read(proc(), cgroup()); }

    @Test void theLowestOfTheKernelsLimits_lessWhatRuns() throws IOException {
        write("loadavg", "3.17 2.81 2.21 8/135 32117\n");
        write("sys/kernel/pid_max", "32768\n");
        write("sys/kernel/threads-max", "192731\n");
        write("self/limits", "Limit                     Soft Limit           Hard Limit           Units     \n"
                + "Max processes             96365                96365                processes \n");
        ThreadLimit limit = read().orElseThrow();
        assertThat(limit).isEqualTo(new ThreadLimit(32768, "kernel.pid_max", 135));
        assertThat(limit.spare()).isEqualTo(32768 - 135 - ThreadLimit.HEADROOM);
        assertThat(limit.text()).isEqualTo("this machine lets a process start about 31,633 more platform threads (kernel.pid_max 32,768, 135 running now)");
    }

    @Test void aLowerUlimit_isTheLimit_andUnlimitedIsNone() throws IOException {
        write("loadavg", "0.1 0.1 0.1 1/400 99\n");
        write("sys/kernel/pid_max", "4194304\n");
        write("self/limits", "Max processes             4096                 unlimited            processes \n");
        assertThat(read().orElseThrow().source()).isEqualTo("the limit on processes (ulimit -u)");
        assertThat(read().orElseThrow().spare()).isEqualTo(4096 - 400 - ThreadLimit.HEADROOM);
        write("self/limits", "Max processes             unlimited            unlimited            processes \n");
        assertThat(read().orElseThrow().source()).isEqualTo("kernel.pid_max");
    }

    @Test void ulimit_countsTheUsersOwnThreads_notTheMachines() throws IOException {
        write("loadavg", "0.1 0.1 0.1 1/4000 99\n");
        write("sys/kernel/pid_max", "4194304\n");
        write("self/limits", "Max processes             4096                 unlimited            processes \n");
        write("self/status", "Name:\tjava\nUid:\t1000\t1000\t1000\t1000\nThreads:\t40\n");
        write("17/status", "Name:\tjava\nUid:\t1000\t1000\t1000\t1000\nThreads:\t40\n");
        write("18/status", "Name:\tbash\nUid:\t1000\t0\t1000\t1000\nThreads:\t1\n");
        write("1/status", "Name:\tinit\nUid:\t0\t0\t0\t0\nThreads:\t3000\n");   // another user's: not held to this ulimit
        write("19/status", "Name:\tgone\n");                                          // ended while read: counts nothing
        ThreadLimit limit = read().orElseThrow();
        assertThat(limit).isEqualTo(new ThreadLimit(4096, "the limit on processes (ulimit -u)", 41));
        assertThat(limit.spare()).isEqualTo(4096 - 41 - ThreadLimit.HEADROOM);
    }

    @Test void root_isNotHeldToUlimit_butAContainersPidsMaxCounts() throws IOException {
        write("loadavg", "0.1 0.1 0.1 1/400 99\n");
        write("sys/kernel/pid_max", "4194304\n");
        write("self/limits", "Max processes             4096                 4096                 processes \n");
        write("self/status", "Name:\tjava\nUid:\t0\t0\t0\t0\n");
        assertThat(read().orElseThrow().source()).isEqualTo("kernel.pid_max");
        write("cgroup/pids.max", "2048\n");
        write("cgroup/pids.current", "300\n");
        ThreadLimit container = read().orElseThrow();
        assertThat(container).isEqualTo(new ThreadLimit(2048, "the container's pids.max", 300));
        assertThat(container.spare()).isEqualTo(2048 - 300 - ThreadLimit.HEADROOM);
        write("cgroup/pids.max", "max\n");   // no limit
        assertThat(read().orElseThrow().source()).isEqualTo("kernel.pid_max");
    }

    @Test void nothingKnown_withoutProc() throws IOException {
        assertThat(read()).isEmpty();                  // no /proc at all (another OS)
        write("sys/kernel/pid_max", "32768\n");
        assertThat(read()).isEmpty();                  // no count of what runs: no spare to give
        write("loadavg", "0.1 0.1 0.1 1/400 99\n");
        assertThat(read()).isPresent();
        assertThat(new ThreadLimit(500, "kernel.pid_max", 400).spare()).isZero();   // never negative
    }
}
