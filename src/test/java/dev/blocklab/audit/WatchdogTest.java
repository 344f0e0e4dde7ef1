package dev.blocklab.audit;

import org.junit.jupiter.api.Test;

import javax.management.MBeanServerFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class WatchdogTest {
    /**
     * The thread print that names a stalled carrier's virtual thread goes through the platform MBean server, whose
     * creation costs hundreds of milliseconds; a watchdog creates it when it starts, not at its first stall, when the
     * stall may end before the print is taken. In a JVM of its own: the server is global, and other tests create it.
     */
    @Test
    void aNewWatchdog_hasCreatedThePlatformMBeanServer_beforeAnyStall() throws Exception {
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-preview", "-cp", System.getProperty("java.class.path"), Child.class.getName())
                .redirectErrorStream(true).start();
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();   // one line of output: the pipe does not fill
        String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(out.strip()).isEqualTo("MBean servers before the watchdog: 0, after: 1");
    }

    static final class Child {
        public static void main(String[] args) {
            int before = MBeanServerFactory.findMBeanServer(null).size();
            try (Watchdog ignored = new Watchdog(AuditSettings.defaults(), b -> {}, InstantSource.system(), id -> null)) {
                System.out.println("MBean servers before the watchdog: " + before + ", after: "
                        + MBeanServerFactory.findMBeanServer(null).size());
            }
        }
    }
}
