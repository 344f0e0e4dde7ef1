package dev.blocklab.model;

import dev.blocklab.backend.SimulatedBackend;
import dev.blocklab.workload.BuiltInWorkloads;
import dev.blocklab.workload.Graph;
import dev.blocklab.workload.Request;
import dev.blocklab.workload.Step;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The {@code virtual} model's own bookkeeping: the requests in flight it keeps for close, and its lone-call path. */
class VirtualThreadPerTaskModelTest {
    private static final long TEN_SECONDS = TimeUnit.SECONDS.toNanos(10);

    @Test
    void close_withRequestsStillWaiting_cancelsThemTellsTheirCallbacksAndReturnsOnceTheirThreadsEnd() throws Exception {
        Graph slow = Graph.singleCall(Step.Call.fixed("slow", TEN_SECONDS, 1L));
        List<CompletableFuture<Object>> futures = new ArrayList<>();
        try (SimulatedBackend backend = new SimulatedBackend(); VirtualThreadPerTaskModel model = new VirtualThreadPerTaskModel(backend)) {
            for (int i = 0; i < 20; i++) futures.add(model.submit(new Request(i, slow, 7, 1)));   // 10 s each, not scaled
            CompletableFuture<Throwable> heard = new CompletableFuture<>();
            model.submit(new Request(30, slow, 7, 1), (v, e) -> heard.complete(e));
            CompletableFuture<Object> done = model.submit(new Request(20, Graph.singleCall(Step.Call.fixed("fast", 0, 5L)), 7, 1));
            assertThat(done.get(5, TimeUnit.SECONDS)).isEqualTo(5L);

            long t0 = System.nanoTime();
            model.close();
            assertThat(heard).as("the callback ran before close returned").isDone();
            assertThat(System.nanoTime() - t0).as("close waited for the 10 s calls").isLessThan(TimeUnit.SECONDS.toNanos(5));
            assertThat(futures).allMatch(CompletableFuture::isCancelled);
            assertThat(heard.get(5, TimeUnit.SECONDS)).as("the callback of a request close cancelled").isInstanceOf(CancellationException.class);
            assertThatThrownBy(() -> model.submit(new Request(21, slow, 7, 1))).isInstanceOf(RejectedExecutionException.class);
            assertThat(model.tasksInFlight()).as("requests left in flight after close").isZero();
        }
    }

    @Test
    void close_calledFromARequestsOwnCallback_waitsForTheOthersButNotForThatRequest() throws Exception {
        Graph slow = Graph.singleCall(Step.Call.fixed("slow", TEN_SECONDS, 1L));
        try (SimulatedBackend backend = new SimulatedBackend(); VirtualThreadPerTaskModel model = new VirtualThreadPerTaskModel(backend)) {
            List<CompletableFuture<Throwable>> others = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                CompletableFuture<Throwable> heard = new CompletableFuture<>();
                others.add(heard);
                model.submit(new Request(i, slow, 7, 1), (v, e) -> heard.complete(e));
            }
            CompletableFuture<Long> closedIn = new CompletableFuture<>();
            CompletableFuture<Boolean> othersHeardFirst = new CompletableFuture<>();
            model.submit(new Request(20, Graph.singleCall(Step.Call.fixed("fast", 0, 5L)), 7, 1), (v, e) -> {
                long t0 = System.nanoTime();
                model.close();   // on this request's own thread: used to wait 30 s for its own slot, then throw
                othersHeardFirst.complete(others.stream().allMatch(CompletableFuture::isDone));
                closedIn.complete(System.nanoTime() - t0);
            });
            assertThat(closedIn.get(20, TimeUnit.SECONDS)).as("close from a callback").isLessThan(TimeUnit.SECONDS.toNanos(10));
            assertThat(othersHeardFirst.get()).as("the other requests' callbacks ran before close returned").isTrue();
            assertThat(others.getFirst().get()).isInstanceOf(CancellationException.class);
        }
    }

    @Test
    void submitRacingClose_eitherIsRefusedOrItsCallbackRunsBeforeCloseReturns() throws Exception {
        Graph job = Graph.singleCall(Step.Call.fixed("job", 0, 1L));
        for (int round = 0; round < 200; round++) {
            try (SimulatedBackend backend = new SimulatedBackend()) {
                VirtualThreadPerTaskModel model = new VirtualThreadPerTaskModel(backend);
                AtomicBoolean closeReturned = new AtomicBoolean();
                AtomicInteger accepted = new AtomicInteger();
                AtomicInteger heard = new AtomicInteger();
                AtomicInteger late = new AtomicInteger();
                CountDownLatch submitting = new CountDownLatch(1);
                Thread submitter = Thread.ofPlatform().start(() -> {
                    for (long id = 0; ; id++) {
                        if (id == 16) submitting.countDown();
                        try {
                            model.submit(new Request(id, job, 7, 1), (v, e) -> {
                                if (closeReturned.get()) late.incrementAndGet();
                                heard.incrementAndGet();
                            });
                            accepted.incrementAndGet();
                        } catch (RejectedExecutionException refused) {
                            return;
                        }
                    }
                });
                submitting.await();
                model.close();
                closeReturned.set(true);
                submitter.join(TimeUnit.SECONDS.toMillis(10));
                assertThat(submitter.isAlive()).as("the submitter was refused after close").isFalse();
                assertThat(late.get()).as("callbacks run after close returned, round " + round).isZero();
                assertThat(heard.get()).as("every accepted request's callback ran by close, round " + round).isEqualTo(accepted.get());
            }
        }
    }

    @Test
    void inFlight_tasksStillRunningDoNotKeepTheFinishedOnes() throws Exception {
        Graph slow = Graph.singleCall(Step.Call.fixed("slow", TEN_SECONDS, 1L));
        Graph fast = Graph.singleCall(Step.Call.fixed("fast", 0, 5L));
        try (SimulatedBackend backend = new SimulatedBackend(); VirtualThreadPerTaskModel model = new VirtualThreadPerTaskModel(backend)) {
            List<CompletableFuture<Object>> slowOnes = new ArrayList<>();
            for (int i = 0; i < 8; i++) slowOnes.add(model.submit(new Request(i, slow, 7, 1)));   // the oldest of every list
            for (int i = 8; i < 4_008; i++) assertThat(model.submit(new Request(i, fast, 7, 1)).get(5, TimeUnit.SECONDS)).isEqualTo(5L);
            assertThat(model.tasksInFlight()).as("8 tasks running and 4,000 finished").isBetween(8, 100);   // a finished task must not stay kept
            assertThat(slowOnes).noneMatch(CompletableFuture::isDone);
        }
    }

    @Test
    void inFlight_aModelLeftIdleAfterABurstLetsGoOfItsFinishedTasks() throws Exception {
        Graph job = Graph.singleCall(Step.Call.fixed("job", TimeUnit.MILLISECONDS.toNanos(50), 1L));
        int burst = 8_000;
        try (SimulatedBackend backend = new SimulatedBackend(); VirtualThreadPerTaskModel model = new VirtualThreadPerTaskModel(backend)) {
            CountDownLatch done = new CountDownLatch(burst);
            for (int i = 0; i < burst; i++) model.submit(new Request(i, job, 7, 1), (v, e) -> done.countDown());
            assertThat(done.await(60, TimeUnit.SECONDS)).as("the burst ended").isTrue();
            long deadline = System.nanoTime() + TEN_SECONDS;
            while (model.tasksInFlight() > burst / 8 && System.nanoTime() < deadline) Thread.sleep(10);
            assertThat(model.tasksInFlight()).as("finished tasks still kept with no request submitted since the burst").isLessThanOrEqualTo(burst / 8);
        }
    }

    @Test
    void inFlightChunks_dropOnceClearAndALongRequestKeepsOnlyItsOwn() throws Exception {
        Graph slow = Graph.singleCall(Step.Call.fixed("slow", TEN_SECONDS, 1L));
        Graph fast = Graph.singleCall(Step.Call.fixed("fast", 0, 5L));
        try (SimulatedBackend backend = new SimulatedBackend(); VirtualThreadPerTaskModel model = new VirtualThreadPerTaskModel(backend)) {
            for (int i = 0; i < 8; i++) model.submit(new Request(i, slow, 7, 1));   // pins the first chunk of every stripe
            long id = 8;
            for (int wave = 0; wave < 13; wave++) {   // 13 x 8,192: 13 chunks a stripe are filled in all
                CountDownLatch done = new CountDownLatch(8_192);
                for (int i = 0; i < 8_192; i++) model.submit(new Request(id++, fast, 7, 1), (v, e) -> done.countDown());
                assertThat(done.await(60, TimeUnit.SECONDS)).as("wave %d ended", wave).isTrue();
            }
            assertThat(model.chunks()).as("chunks kept after 106,504 requests, 8 of them still running").isBetween(8, 40);
            long deadline = System.nanoTime() + TEN_SECONDS;   // a task clears its slot just after its callback
            while (model.tasksInFlight() > 8 && System.nanoTime() < deadline) Thread.sleep(10);
            assertThat(model.tasksInFlight()).as("tasks in flight").isEqualTo(8);
        }
    }

    @Test
    void loneCallOnce_onlyForAGraphOfOneCallMadeOnce() {
        Step.Call once = Step.Call.fixed("job", 1_000, 1L);
        assertThat(DirectStyle.isLoneCallOnce(BuiltInWorkloads.tenThousandJobs().graph())).isTrue();
        assertThat(DirectStyle.isLoneCallOnce(Graph.singleCall(once))).isTrue();
        assertThat(DirectStyle.isLoneCallOnce(Graph.singleCall(once.withAttempts(new Step.Attempts.Retry(3, 1_000))))).isFalse();
        assertThat(DirectStyle.isLoneCallOnce(Graph.singleCall(once.withAttempts(new Step.Attempts.Hedge(1_000))))).isFalse();
        assertThat(DirectStyle.isLoneCallOnce(BuiltInWorkloads.taskGraph(false).graph())).isFalse();
    }

    @Test
    void loneCall_isTheInvocationTheGraphWalkerMakes() throws Exception {
        Request request = new Request(42, BuiltInWorkloads.tenThousandJobs().graph(), 7, 100);
        List<Object> seen = new ArrayList<>();
        DirectStyle.evaluate(request, call -> { seen.add(call); return null; });
        // the virtual model hands the backend the request and step (work()); a recording backend builds the invocation
        try (var recording = new dev.blocklab.backend.SimulatedBackend(true)) {
            Object viaStep = recording.callBlocking(request, 0, request.inputsOf(0, DirectStyle.NO_VALUES));
            assertThat(viaStep).isEqualTo(DirectStyle.evaluate(request, recording::callBlocking));
            assertThat(recording.recordedCalls()).hasSize(2).allMatch(c -> c.equals(seen.getFirst()));
        }
    }
}
