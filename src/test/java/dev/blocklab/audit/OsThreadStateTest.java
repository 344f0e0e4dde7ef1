package dev.blocklab.audit;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OsThreadStateTest {
    @Test
    void of_readsTheLetterAfterTheLastParenthesis() throws Exception {
        assertThat(OsThreadState.of("4242 (ForkJoinPool-1-) S 1 4200 4200 0 -1")).isEqualTo('S');
        assertThat(OsThreadState.of("4243 (a) b (c)) R 1 2 3")).isEqualTo('R');
        assertThatThrownBy(() -> OsThreadState.of("garbage")).isInstanceOf(IllegalArgumentException.class);
        Path self = Path.of("/proc/thread-self/stat");
        if (Files.isReadable(self)) assertThat(OsThreadState.of(Files.readString(self))).as("this thread runs").isEqualTo('R');
    }

    @Test
    void withoutTheOsState_onlyAThreadRunnableInJavaCode_countsAsWaitingForACpu() {
        StackTraceElement java = new StackTraceElement("com.fasterxml.jackson.core.json.ReaderBasedJsonParser", "nextToken", "ReaderBasedJsonParser.java", 700);
        StackTraceElement nativeRead = new StackTraceElement("sun.nio.ch.SocketDispatcher", "read0", null, -2);
        StackTraceElement continuation = new StackTraceElement("jdk.internal.vm.Continuation", "run", "Continuation.java", 251);
        assertThat(Watchdog.inJavaCode(Thread.State.RUNNABLE, new StackTraceElement[] {java})).as("computing, starved of CPU").isTrue();
        assertThat(Watchdog.inJavaCode(Thread.State.RUNNABLE, new StackTraceElement[] {nativeRead, java})).as("blocked in native code").isFalse();
        assertThat(Watchdog.inJavaCode(Thread.State.WAITING, new StackTraceElement[] {continuation})).as("a carrier whose virtual thread blocks").isFalse();
        assertThat(Watchdog.inJavaCode(Thread.State.TIMED_WAITING, new StackTraceElement[] {java})).as("sleeping").isFalse();
        assertThat(Watchdog.inJavaCode(Thread.State.RUNNABLE, new StackTraceElement[0])).as("no stack: unknown").isFalse();
    }
}
