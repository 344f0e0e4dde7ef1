package dev.blocklab.driver;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The driver's accounting of threads it does not own. */
class DriverHardeningTest {
    @Test void theVirtualThreadSchedulersTimer_isTheJvms_notALeftoverOfTheModel() throws Exception {
        // the first sleeping virtual thread in a JVM starts the scheduler's delay thread (JDK 25), which stays
        Thread.ofVirtual().start(() -> {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }).join();
        var delaySchedulers = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getClass().getName().equals("java.util.concurrent.DelayScheduler")).toList();
        assertThat(delaySchedulers).isNotEmpty().allMatch(InProcessDriver::jvmOwned);
        assertThat(InProcessDriver.jvmOwned(new Thread(() -> {}, "pool-1-thread-1"))).isFalse();
    }
}
