package dev.blocklab.audit;

import org.junit.jupiter.api.Test;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A carrier held by a virtual thread in a native call, while a thousand other virtual threads mount and unmount
 * on the other carriers: the watchdog names the stuck virtual thread's line. It is the kind of case in which the
 * JDK's JSON thread dump, which the watchdog used to read, could crash JDK 25.0.3 (docs/audit.md, "Limits"); that
 * crash comes about once in 35 dumps there, and an episode takes one to three, so this test checks the finding
 * (it fails when the mounted thread is not found), not the crash: five runs with the old dump all passed.
 */
class StalledCarrierAuditTest {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle USLEEP = LINKER.downcallHandle(LINKER.defaultLookup().find("usleep").orElseThrow(),
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
    /** Above the churning threads' 1 ms sleeps, so JFR records none of them. */
    private static final AuditSettings SETTINGS = new AuditSettings(50_000_000, 200_000_000, 20_000_000);

    @Test
    void aCarrierHeldInNativeCode_amongChurningVirtualThreads_isReportedAtTheNativeCallersLine() throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> churn = new ArrayList<>();
        AuditResult audited;
        try (Auditor auditor = Auditor.start(SETTINGS)) {
            auditor.during("stall", () -> {
                for (int i = 0; i < 1_000; i++) churn.add(Thread.ofVirtual().start(() -> churn(stop)));
                Thread stuck = Thread.ofVirtual().start(StalledCarrierAuditTest::holdTheCarrier);
                stuck.join(10_000);
                return null;
            });
            stop.set(true);
            for (Thread t : churn) t.join(10_000);
            audited = auditor.finish();
        }
        assertThat(audited.of("stall")).filteredOn(f -> f.rule() == Rule.STALLED_CARRIER)
                .as("the stalled carrier, at the line of the virtual thread mounted on it").isNotEmpty()
                .allSatisfy(f -> assertThat(f.culprit()).isNotNull()
                        .satisfies(c -> assertThat(c.method()).isEqualTo("holdTheCarrier")));
    }

    /** 600 ms in libc's usleep: the virtual thread cannot unmount, so its carrier stalls (3 x the threshold). */
    private static void holdTheCarrier() {
        try {
            int ignored = (int) USLEEP.invokeExact(600_000);
        } catch (Throwable t) {
            throw new IllegalStateException("usleep failed", t);
        }
    }

    /** Mounts and unmounts every millisecond until stopped (at most 30 s: bounded). */
    private static void churn(AtomicBoolean stop) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!stop.get() && System.nanoTime() < deadline) {
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                return;
            }
        }
    }
}
