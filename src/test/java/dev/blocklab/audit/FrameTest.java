package dev.blocklab.audit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FrameTest {
    @Test
    void parse_stackTraceAndThreadDumpLines() {
        assertThat(Frame.parse("java.base/java.lang.Thread.sleep(Thread.java:509)")).isEqualTo(new Frame("java.lang.Thread", "sleep", 509));
        assertThat(Frame.parse("java.base\\/jdk.internal.vm.Continuation.run(Continuation.java:251)"))
                .isEqualTo(new Frame("jdk.internal.vm.Continuation", "run", 251));
        assertThat(Frame.parse("a.b.C$D.lambda$run$0(C.java:41)")).isEqualTo(new Frame("a.b.C$D", "lambda$run$0", 41));
        assertThat(Frame.parse("a.B.m(Native Method)")).isEqualTo(new Frame("a.B", "m", -1));
        assertThat(Frame.parse("a.B.<clinit>(B.java:12)").method()).isEqualTo("<clinit>");
        assertThatThrownBy(() -> Frame.parse("not a frame")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a frame");
    }

    @Test
    void fileAndText_fromTheOutermostClass() {
        Frame f = new Frame("dev.blocklab.misuse.EventLoopSleep$1", "handle", 33);
        assertThat(f.file()).isEqualTo("EventLoopSleep.java");
        assertThat(f).hasToString("dev.blocklab.misuse.EventLoopSleep$1.handle(EventLoopSleep.java:33)");
        assertThat(new Frame("Top", "m", -1)).hasToString("Top.m(Top.java)");
    }
}
