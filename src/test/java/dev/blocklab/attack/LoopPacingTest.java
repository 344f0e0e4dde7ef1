package dev.blocklab.attack;

import dev.blocklab.load.Pacer;
import dev.blocklab.load.Shard;
import dev.blocklab.result.AttackResult;
import dev.blocklab.workload.Arrival;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The attack paces an open schedule on the client's event loops: a client made of two single-thread loops (no
 * sockets; every request answered 200 at once on the loop that sent it) sees each request sent once, on a loop's
 * own thread, the loops taking turns, and nothing handed over through {@link Transport#send}.
 */
class LoopPacingTest {
    private static final long MS = 1_000_000L;

    /** A client of {@code n} single-thread loops that counts sends made off their loop's thread and through {@code send()}. */
    static final class LoopsTransport implements Transport {
        final List<FakeLoop> loops = new ArrayList<>();
        final AtomicInteger handedOver = new AtomicInteger();
        final AtomicInteger offThread = new AtomicInteger();
        final boolean failing;
        /** Each loop refuses to schedule anything after this many schedules (a loop shut down under the attack). */
        volatile int rejectAfter = Integer.MAX_VALUE;

        LoopsTransport(int n, boolean failing) {
            this.failing = failing;
            for (int i = 0; i < n; i++) loops.add(new FakeLoop(i));
        }

        final class FakeLoop implements EventLoop {
            final int id;
            final ScheduledExecutorService thread;
            final AtomicInteger schedules = new AtomicInteger();
            volatile Thread self;

            FakeLoop(int id) {
                this.id = id;
                this.thread = Executors.newSingleThreadScheduledExecutor(r -> self = Thread.ofPlatform().daemon().name("fake-loop-" + id).unstarted(r));
            }

            @Override public void schedule(Runnable task, long delayNanos) {
                if (schedules.incrementAndGet() > rejectAfter) throw new java.util.concurrent.RejectedExecutionException("loop " + id + " is shut down");
                thread.schedule(task, Math.max(0, delayNanos), TimeUnit.NANOSECONDS);
            }

            @Override public void sendHere(Target target, Completion completion) {
                if (Thread.currentThread() != self) offThread.incrementAndGet();
                if (failing) throw new IllegalStateException("a loop's send blew up");
                long now = System.nanoTime();
                completion.complete(now, 0, 200, 2, null);
            }
        }

        @Override public void send(Target target, Completion completion) {
            handedOver.incrementAndGet();
            completion.complete(System.nanoTime(), 0, 200, 2, null);
        }

        @Override public List<EventLoop> eventLoops() { return List.copyOf(loops); }

        @Override public void close() { for (FakeLoop l : loops) l.thread.shutdownNow(); }
    }

    private static AttackSettings settings(int ratePerSecond, long durationNanos) {
        return AttackSettings.of(List.of(Target.get("http://127.0.0.1:9/")), new Arrival.Open(new Pacer.Constant(ratePerSecond), durationNanos))
                .withWarmupNanos(0);
    }

    @Test
    void openSchedule_isSentByTheLoopsInTurn_eachRequestOnceOnItsLoopsThread() {
        LoopsTransport t = new LoopsTransport(2, false);
        List<Long> indexes = java.util.Collections.synchronizedList(new ArrayList<>());
        AttackResult r = new Attack(settings(1000, 300 * MS), Shard.WHOLE, null, s -> t)
                .run(line -> {}, new AttackListener() {
                    @Override public void onHit(Hit hit) { indexes.add(hit.index()); }
                });

        assertThat(r.requests() + r.unsent()).isEqualTo(300);
        assertThat(r.requests()).as("a busy machine may leave some unsent (a pause of a few hundred ms, most)").isPositive();
        assertThat(r.successRatio()).isEqualTo(1.0);
        assertThat(t.handedOver).as("nothing passes through send()").hasValue(0);
        assertThat(t.offThread).as("every send on its own loop's thread").hasValue(0);
        assertThat(indexes).doesNotHaveDuplicates().hasSize((int) r.requests());
        assertThat(indexes).allMatch(i -> i >= 0 && i < 300);
    }

    @Test
    void theLoopsShares_interleave_requestIOfNGoesToLoopIModN() {
        LoopsTransport t = new LoopsTransport(3, false);
        Map<Long, String> threadOfIndex = new ConcurrentHashMap<>();
        new Attack(settings(600, 200 * MS), Shard.WHOLE, null, s -> t).run(line -> {}, new AttackListener() {
            @Override public void onHit(Hit hit) { threadOfIndex.put(hit.index(), Thread.currentThread().getName()); }
        });
        assertThat(threadOfIndex).isNotEmpty();
        threadOfIndex.forEach((index, thread) -> assertThat(thread).as("request %d", index).isEqualTo("fake-loop-" + index % 3));
    }

    @Test
    void aShardOfTheSchedule_isSplitAmongTheLoops_andOnlyItsRequestsAreSent() {
        LoopsTransport t = new LoopsTransport(2, false);
        List<Long> indexes = java.util.Collections.synchronizedList(new ArrayList<>());
        AttackResult r = new Attack(settings(1000, 200 * MS), new Shard(1, 2), null, s -> t).run(line -> {}, new AttackListener() {
            @Override public void onHit(Hit hit) { indexes.add(hit.index()); }
        });
        assertThat(r.requests() + r.unsent()).isEqualTo(100);
        assertThat(indexes).isNotEmpty().allMatch(i -> i % 2 == 1).doesNotHaveDuplicates();
    }

    @Test
    void aClientWithoutLoops_isFedByTheSendLoopThroughSend() {
        Transport plain = new Transport() {
            final AtomicInteger sent = new AtomicInteger();
            @Override public void send(Target target, Completion completion) {
                sent.incrementAndGet();
                completion.complete(System.nanoTime(), 0, 200, 2, null);
            }
            @Override public void close() {}
        };
        AttackResult r = new Attack(settings(500, 200 * MS), Shard.WHOLE, null, s -> plain).run(line -> {}, AttackListener.NONE);
        assertThat(r.requests() + r.unsent()).isEqualTo(100);
        assertThat(r.requests()).isPositive();
        assertThat(r.successRatio()).isEqualTo(1.0);
    }

    @Test
    void aLoopWhoseSendThrows_recordsTheErrorsAndTheAttackStillEnds() {
        LoopsTransport t = new LoopsTransport(2, true);
        AttackResult r = new Attack(settings(500, 200 * MS), Shard.WHOLE, null, s -> t).run(line -> {}, AttackListener.NONE);
        assertThat(r.requests()).isPositive();
        assertThat(r.successRatio()).isZero();
        assertThat(r.errors().keySet()).anyMatch(e -> e.contains("a loop's send blew up"));
    }

    @Test
    void aLoopThatCannotScheduleItsNextStep_failsTheAttackInsteadOfHanging() {
        LoopsTransport t = new LoopsTransport(2, false);
        t.rejectAfter = 5;
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(30), () ->
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> new Attack(settings(100, 60_000 * MS), Shard.WHOLE, null, s -> t)
                                .run(line -> {}, AttackListener.NONE))
                        .isInstanceOf(java.util.concurrent.RejectedExecutionException.class)
                        .hasMessageContaining("is shut down"));
    }
}
