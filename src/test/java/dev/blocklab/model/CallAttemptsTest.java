package dev.blocklab.model;

import dev.blocklab.backend.Backend;
import dev.blocklab.backend.SimulatedBackend;
import dev.blocklab.result.Outcome;
import dev.blocklab.workload.CallInvocation;
import dev.blocklab.workload.Graph;
import dev.blocklab.workload.Latency;
import dev.blocklab.workload.Request;
import dev.blocklab.workload.Step;
import dev.blocklab.workload.Value;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Retries and hedged requests ({@link Step.Attempts}), the same under every model: every attempt's outcome is drawn
 * from (seed, request, step, attempt), so the call's outcome and the number of backend calls per request follow
 * from the draws alone ({@link #expectedRetry}, {@link #expectedHedge}); a hedge sends its second call only after
 * its delay and cancels the loser.
 */
class CallAttemptsTest {
    private static final long SCALE = 10;
    private static final long SEED = 5;
    private static final long S = 1_000_000_000L;
    private static final int REQUESTS = 16;

    /** Pools of twice the requests: a hedge's second attempt needs a thread of its own in cf-blocking's pool. */
    static Stream<String> models() {
        return Models.catalog().stream().map(i -> i.needsSize() ? i.family() + ":" + 2 * REQUESTS : i.family());
    }

    /** One call that fails a third of the time and times out when slow, retried up to 3 times; a combine reads it. */
    static Graph retried() {
        Step.Call call = new Step.Call("flaky", List.of(), new Latency.Uniform(S / 10, S), new Value.Constant(7L), 0.35,
                new Step.FailureSpec("java.io.IOException", "flaky failed"), 8 * S / 10, null, new Step.Attempts.Retry(3, S / 5));
        return new Graph(0L, List.of(call, new Step.Combine("out", List.of("flaky"), new Value.Sum(1))));
    }

    /** One call of 0.1 to 10 s hedged after 2 s; a combine reads it. */
    static Graph hedged() {
        Step.Call call = new Step.Call("slow", List.of(), new Latency.Uniform(S / 10, 10 * S), new Value.Constant(7L), 0,
                null, 0, null, new Step.Attempts.Hedge(2 * S));
        return new Graph(0L, List.of(call, new Step.Combine("out", List.of("slow"), new Value.Sum(1))));
    }

    /** What a retried call ends with, and how many calls it makes: attempts in turn until one succeeds, at most 3. */
    static Expected expectedRetry(long id) {
        Request r = new Request(id, retried(), SEED, SCALE);
        for (int k = 0; ; k++) {
            CallInvocation call = r.invocation(0, List.of(), k);
            boolean fails = call.timesOut() || call.failure() != null;
            if (!fails) return new Expected("success 8", k + 1, -1, false);
            if (k == 2) return new Expected(FailureSemanticsTest.key(Outcome.of(null, call.newFailure())), 3, -1, false);
        }
    }

    /**
     * What a hedged call makes: a second call when the first is still running after 2 s; the first answer wins (its
     * attempt), the other is the loser. {@code clear} is false when two moments lie within 1 s (100 ms at scale
     * 1/10) of each other, too close to tell on a busy machine.
     */
    static Expected expectedHedge(long id) {
        Request r = new Request(id, hedged(), SEED, SCALE);
        long after = 2 * S / SCALE, margin = S / SCALE;
        long first = r.invocation(0, List.of(), 0).delayNanos();
        if (first <= after) return new Expected("success 8", 1, 0, Math.abs(first - after) > margin);
        long second = after + r.invocation(0, List.of(), 1).delayNanos();
        return new Expected("success 8", 2, second < first ? 1 : 0,
                Math.abs(first - after) > margin && Math.abs(first - second) > margin);
    }

    record Expected(String outcome, int calls, int winner, boolean clear) {}

    @Test
    void expected_retryRecoversSomeFirstFailures_hedgeSendsSomeSecondCalls() {
        List<Long> recovered = new ArrayList<>();
        for (long id = 0; id < REQUESTS; id++) {
            Request r = new Request(id, retried(), SEED, SCALE);
            CallInvocation first = r.invocation(0, List.of(), 0);
            if ((first.failure() != null || first.timesOut()) && expectedRetry(id).outcome().equals("success 8")) recovered.add(id);
        }
        assertThat(recovered).as("requests whose first attempt fails and a retry succeeds").hasSizeGreaterThanOrEqualTo(2);
        assertThat(Stream.iterate(0L, i -> i + 1).limit(REQUESTS).map(CallAttemptsTest::expectedRetry))
                .anyMatch(e -> e.outcome().startsWith("failure") || e.outcome().startsWith("timeout"))
                .anyMatch(e -> e.calls() == 1);
        assertThat(Stream.iterate(0L, i -> i + 1).limit(REQUESTS).map(CallAttemptsTest::expectedHedge).filter(Expected::clear))
                .anyMatch(e -> e.calls() == 1).anyMatch(e -> e.calls() == 2 && e.winner() == 1).anyMatch(e -> e.calls() == 2 && e.winner() == 0);
    }

    @Test
    void invocation_firstAttemptDrawsAsWithoutRetry_laterAttemptsDrawAnew() {
        Step.Call plain = ((Step.Call) retried().steps().getFirst()).withAttempts(Step.Attempts.ONCE);
        Graph once = new Graph(0L, List.of(plain));
        for (long id = 0; id < REQUESTS; id++) {
            CallInvocation a = new Request(id, retried(), SEED, SCALE).invocation(0, List.of(), 0);
            CallInvocation b = new Request(id, once, SEED, SCALE).invocation(0, List.of());
            assertThat(a.delayNanos()).isEqualTo(b.delayNanos());
            assertThat(a.failure()).isEqualTo(b.failure());
            assertThat(a.rescuable()).isTrue();
            assertThat(new Request(id, retried(), SEED, SCALE).invocation(0, List.of(), 2).rescuable()).isFalse();
        }
        assertThat(Stream.iterate(0L, i -> i + 1).limit(REQUESTS).map(id -> new Request(id, retried(), SEED, SCALE))
                .filter(r -> r.invocation(0, List.of(), 0).delayNanos() != r.invocation(0, List.of(), 1).delayNanos())).isNotEmpty();
    }

    @ParameterizedTest @MethodSource("models")
    void submit_retriedCall_sameOutcomeAndCallsPerRequestAsTheDraws(String spec) {
        Map<Long, String> expected = new TreeMap<>(), actual = new TreeMap<>();
        Map<Long, Integer> expectedCalls = new TreeMap<>(), actualCalls = new TreeMap<>();
        try (Recording backend = new Recording(); Model model = create(spec, backend)) {
            List<CompletableFuture<Object>> futures = new ArrayList<>();
            for (long id = 0; id < REQUESTS; id++) futures.add(model.submit(new Request(id, retried(), SEED, SCALE)));
            for (int i = 0; i < REQUESTS; i++) {
                actual.put((long) i, FailureSemanticsTest.outcomeOf(futures.get(i)));
                expected.put((long) i, expectedRetry(i).outcome());
                expectedCalls.put((long) i, expectedRetry(i).calls());
            }
            for (long id = 0; id < REQUESTS; id++) actualCalls.put(id, backend.callsOf(id).size());
        }
        assertThat(actual).isEqualTo(expected);
        assertThat(actualCalls).as("backend calls per request").isEqualTo(expectedCalls);
    }

    @ParameterizedTest @MethodSource("models")
    void submit_hedgedCall_secondCallOnlyAfterTheDelay_firstAnswerWins_loserCancelled(String spec) {
        assumeTrue(!spec.equals("sequential"), "sequential runs one request at a time: 16 hedged requests take too long");
        try (Recording backend = new Recording(); Model model = create(spec, backend)) {
            List<CompletableFuture<Object>> futures = new ArrayList<>();
            long submitted = System.nanoTime();
            for (long id = 0; id < REQUESTS; id++) futures.add(model.submit(new Request(id, hedged(), SEED, SCALE)));
            for (long id = 0; id < REQUESTS; id++) assertThat(FailureSemanticsTest.outcomeOf(futures.get((int) id))).isEqualTo("success 8");
            assertThat(FailureSemanticsTest.awaitInFlight(backend.simulated, n -> n == 0)).as("calls in flight after the last answer").isZero();
            for (long id = 0; id < REQUESTS; id++) {
                Expected e = expectedHedge(id);
                List<Recording.Call> calls = backend.callsOf(id);
                if (calls.size() == 2)
                    assertThat(calls.get(1).startNanos() - submitted).as("request %d: the hedge waits its delay", id)
                            .isGreaterThanOrEqualTo(2 * S / SCALE);
                if (!e.clear()) continue;
                assertThat(calls).as("request %d: backend calls", id).hasSize(e.calls());
                for (Recording.Call c : calls)
                    assertThat(c.ending()).as("request %d attempt %d", id, c.attempt())
                            .isEqualTo(c.attempt() == e.winner() ? "answered" : "cancelled");
            }
        }
    }

    private static Model create(String spec, Backend backend) {
        ModelEntry info = Models.parse(spec).entry();
        assumeTrue(info.unavailable().isEmpty(), () -> spec + " unavailable: " + info.unavailable().orElse(""));
        return Models.create(spec, new ModelContext(backend, 8));
    }

    /** The simulated backend, recording every call's start and how it ended: answered, failed or cancelled. */
    static final class Recording implements Backend {
        record Call(long requestId, int attempt, long startNanos, String ending) {}

        final SimulatedBackend simulated = new SimulatedBackend();
        private final Queue<Call> ended = new ConcurrentLinkedQueue<>();
        private final Queue<CallInvocation> started = new ConcurrentLinkedQueue<>();

        @Override public String name() { return "recording"; }

        @Override public Object callBlocking(CallInvocation call) throws Exception {
            long start = begin(call);
            try {
                Object v = simulated.callBlocking(call);
                end(call, start, "answered");
                return v;
            } catch (InterruptedException e) {
                end(call, start, "cancelled");
                throw e;
            } catch (Exception e) {
                end(call, start, "failed");
                throw e;
            }
        }

        @Override public CompletableFuture<Object> callAsync(CallInvocation call) {
            long start = begin(call);
            CompletableFuture<Object> f = simulated.callAsync(call);
            f.whenComplete((v, e) -> end(call, start, e == null ? "answered"
                    : e instanceof CancellationException || e instanceof CompletionException && e.getCause() instanceof CancellationException
                    ? "cancelled" : "failed"));
            return f;
        }

        private long begin(CallInvocation call) {
            started.add(call);
            return System.nanoTime();
        }

        private void end(CallInvocation call, long start, String how) { ended.add(new Call(call.requestId(), call.attempt(), start, how)); }

        /** The calls request {@code id} made, by attempt (waits up to 5 s for every started call to end). */
        List<Call> callsOf(long id) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (ended.size() < started.size() && System.nanoTime() < deadline) java.util.concurrent.locks.LockSupport.parkNanos(2_000_000L);
            return ended.stream().filter(c -> c.requestId() == id).sorted(java.util.Comparator.comparingInt(Call::attempt)).toList();
        }

        @Override public long callsStarted() { return simulated.callsStarted(); }

        @Override public void close() { simulated.close(); }
    }
}
