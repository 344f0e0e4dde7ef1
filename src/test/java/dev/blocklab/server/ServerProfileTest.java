package dev.blocklab.server;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ServerProfileTest {

    @Test void parse_knownForms() {
        assertThat(ServerProfile.parse("threads:200")).isEqualTo(new ServerProfile.Threads(200));
        assertThat(ServerProfile.parse("virtual")).isEqualTo(new ServerProfile.Virtual());
        assertThat(ServerProfile.parse("event-loop", 4)).isEqualTo(new ServerProfile.EventLoop(8));
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
        assertThatThrownBy(() -> ServerProfile.parse("play-25")).hasMessageContaining("unknown profile 'play-25'; did you mean 'play-2.5'?");
    }

    @Test void describeAndThreadsHeld_eachProfileSaysItself() {
        assertThat(ServerProfile.parse("play-2.5", 64).threadsHeld()).isEqualTo(24);
        assertThat(ServerProfile.parse("play-2.5", 64).describe()).isEqualTo("play-2.5 (ForkJoinPool of 24 threads, LIFO)");
        assertThat(ServerProfile.parse("threads:8").threadsHeld()).isEqualTo(8);
        assertThat(ServerProfile.parse("threads:8").describe()).isEqualTo("threads:8 (fixed pool of 8 platform threads, FIFO queue)");
        assertThat(ServerProfile.parse("virtual").threadsHeld()).isEqualTo(ServerProfile.NO_POOL);
        assertThat(ServerProfile.parse("event-loop", 4).threadsHeld()).as("a blocking handler holds one of 2 x cores event loops").isEqualTo(8);
        assertThat(ServerProfile.parse("event-loop").describe()).startsWith("event-loop (handlers on the Vert.x event loops");
    }

    @Test void executor_eachProfileMakesItsOwn_countingItsPlatformThreads() throws Exception {
        java.util.concurrent.atomic.AtomicInteger live = new java.util.concurrent.atomic.AtomicInteger();
        ServerProfile.ThreadCount count = new ServerProfile.ThreadCount() {
            @Override public void starting() { live.incrementAndGet(); }
            @Override public void ended() { live.decrementAndGet(); }
        };
        assertThat(ServerProfile.parse("event-loop").onEventLoop()).isTrue();
        assertThat(ServerProfile.parse("event-loop").executor(count)).isEmpty();
        for (String profile : java.util.List.of("play-2.5", "threads:2", "virtual")) {
            ServerProfile p = ServerProfile.parse(profile, 2);
            assertThat(p.onEventLoop()).isFalse();
            java.util.concurrent.ExecutorService executor = p.executor(count).orElseThrow();
            String thread = executor.submit(() -> Thread.currentThread().getName()).get(10, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(thread).startsWith(profile.equals("play-2.5") ? "play-2.5-" : profile.equals("virtual") ? "http-virtual-" : "http-");
            if (profile.equals("virtual")) assertThat(live.get()).as("virtual threads are not counted").isZero();
            else assertThat(live.get()).as(profile).isPositive();
            executor.shutdownNow();
            assertThat(executor.awaitTermination(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            for (int i = 0; i < 1_000 && live.get() > 0; i++) Thread.sleep(10);   // a worker reports its end after termination
            assertThat(live.get()).as(profile + " after shutdown").isZero();
        }
    }
}
