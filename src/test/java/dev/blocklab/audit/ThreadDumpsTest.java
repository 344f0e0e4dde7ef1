package dev.blocklab.audit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ThreadDumpsTest {
    /** The shape of JDK 25's {@code HotSpotDiagnosticMXBean.dumpThreads(.., JSON)}, cut down. */
    static final String DUMP = """
            {"threadDump": {"processId": "1", "threadContainers": [
              {"container": "<root>", "threads": [{"tid": "3", "name": "main", "stack": ["a.Main.main(Main.java:1)"]}]},
              {"container": "java.util.concurrent.ThreadPerTaskExecutor@1", "threads": [
                {"tid": "40", "name": "", "state": "RUNNABLE",
                 "stack": ["dev.blocklab.misuse.NativeBlocking.lambda$run$0(NativeBlocking.java:41)",
                           "java.base\\/java.lang.VirtualThread.run(VirtualThread.java:460)"],
                 "carrier": "24"}]}]}}
            """;

    @Test
    void mountedOn_findsTheVirtualThreadByItsCarrier() throws Exception {
        assertThat(ThreadDumps.mountedOn(DUMP, 24)).hasValueSatisfying(m -> {
            assertThat(m.stack()).first().isEqualTo(new Frame("dev.blocklab.misuse.NativeBlocking", "lambda$run$0", 41));
            assertThat(m.stack()).hasSize(2);
        });
        assertThat(ThreadDumps.mountedOn(DUMP, 25)).isEmpty();
    }
}
