package dev.blocklab.recorder;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class ProcStatusTest {
    @Test
    void refresh_readsThreadsAndRss_asTheFileSaysThem_withoutAllocating() throws Exception {
        Assumptions.assumeTrue(Files.isReadable(Path.of("/proc/self/status")), "Linux only");
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        try (ProcStatus status = new ProcStatus()) {
            assertThat(status.refresh()).isTrue();
            String text = Files.readString(Path.of("/proc/self/status"));
            long rssKib = Long.parseLong(text.lines().filter(l -> l.startsWith("VmRSS:")).findFirst().orElseThrow()
                    .replaceAll("[^0-9]", ""));
            assertThat(status.rssBytes()).as("VmRSS in bytes, within 64 MiB of a read a moment later")
                    .isBetween((rssKib - 65_536) * 1024, (rssKib + 65_536) * 1024).isPositive();
            assertThat(status.osThreads()).isGreaterThan(1);   // main and at least the JVM's own
            for (int i = 0; i < 200; i++) status.refresh();   // warm
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 1_000; i++) {
                status.refresh();
                status.osThreads();
                status.rssBytes();
            }
            long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            // Files.readAllLines twice a sample allocated tens of KB each time: tens of MB for a thousand
            assertThat(allocated).as("bytes allocated by 1,000 samples").isLessThan(256 * 1024);
        }
    }

    @Test
    void fields_readMinusOne_whenTheFileWasNotRead() {
        try (ProcStatus status = new ProcStatus()) {
            assertThat(status.osThreads()).isEqualTo(-1);
            assertThat(status.rssBytes()).isEqualTo(-1);
        }
    }
}
