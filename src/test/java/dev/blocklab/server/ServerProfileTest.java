package dev.blocklab.server;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ServerProfileTest {

    @Test void parse_knownForms() {
        assertThat(ServerProfile.parse("threads:200")).isEqualTo(new ServerProfile.Threads(200));
        assertThat(ServerProfile.parse("virtual")).isEqualTo(new ServerProfile.Virtual());
        assertThat(ServerProfile.parse("event-loop")).isEqualTo(new ServerProfile.EventLoop());
        assertThat(ServerProfile.parse("play-2.5")).isInstanceOf(ServerProfile.Play25.class);
        assertThat(ServerProfile.parse("play-2.5").queues()).isTrue();
        assertThat(ServerProfile.parse("virtual").queues()).isFalse();
    }

    @Test void parallelismFor_clampsBetween8And24() {
        assertThat(ServerProfile.Play25.parallelismFor(2)).isEqualTo(8);
        assertThat(ServerProfile.Play25.parallelismFor(8)).isEqualTo(8);
        assertThat(ServerProfile.Play25.parallelismFor(16)).isEqualTo(16);
        assertThat(ServerProfile.Play25.parallelismFor(64)).isEqualTo(24);
    }

    @Test void parse_badInput_namesTheFlag() {
        assertThatThrownBy(() -> ServerProfile.parse("threads:x")).hasMessageContaining("--profile").hasMessageContaining("threads:200");
        assertThatThrownBy(() -> ServerProfile.parse("threads:0")).hasMessageContaining("1..100000");
        assertThatThrownBy(() -> ServerProfile.parse("tomcat")).hasMessageContaining("unknown profile 'tomcat'");
    }

    @Test void describeAndThreadsHeld_eachProfileSaysItself() {
        assertThat(ServerProfile.parse("play-2.5", 64).threadsHeld()).isEqualTo(24);
        assertThat(ServerProfile.parse("play-2.5", 64).describe()).isEqualTo("play-2.5 (ForkJoinPool of 24 threads, LIFO)");
        assertThat(ServerProfile.parse("threads:8").threadsHeld()).isEqualTo(8);
        assertThat(ServerProfile.parse("threads:8").describe()).isEqualTo("threads:8 (fixed pool of 8 platform threads, FIFO queue)");
        assertThat(ServerProfile.parse("virtual").threadsHeld()).isEqualTo(ServerProfile.NO_POOL);
        assertThat(ServerProfile.parse("event-loop").threadsHeld()).isEqualTo(ServerProfile.NO_POOL);
        assertThat(ServerProfile.parse("event-loop").describe()).startsWith("event-loop (handlers on the Vert.x event loops");
    }
}
