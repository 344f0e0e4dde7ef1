package dev.blocklab.model;

import dev.blocklab.backend.SimulatedBackend;
import dev.blocklab.workload.CallInvocation;
import dev.blocklab.workload.Graph;
import dev.blocklab.workload.Latency;
import dev.blocklab.workload.Request;
import dev.blocklab.workload.Step;
import dev.blocklab.workload.Value;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;

class FutureStyleTest {
    private static final long MS = 1_000_000L;

    @ParameterizedTest @ValueSource(strings = {"cf-nonblocking:2", "cf-blocking:2"})
    void submit_requestEndedFromOutside_startsNoFurtherCalls(String spec) throws Exception {
        // first, then second, then a combine: the request is failed from outside while first runs. First answers
        // only when the test says so, after the request ended (its 50 ms once passed on a loaded machine before the
        // test ended the request, and second rightly started)
        Graph g = new Graph(0L, List.of(Step.Call.fixed("first", 50 * MS, 1L),
                new Step.Call("second", List.of("first"), new Latency.Fixed(MS), new Value.Sum(0), 0, null, 0),
                new Step.Combine("answer", List.of("second"), new Value.Sum(0))));
        List<String> started = new java.util.concurrent.CopyOnWriteArrayList<>();
        CompletableFuture<Void> firstAnswers = new CompletableFuture<>();
        try (SimulatedBackend simulated = new SimulatedBackend()) {
            dev.blocklab.backend.Backend backend = new dev.blocklab.backend.Backend() {
                @Override public String name() { return "first-held"; }
                @Override public Object callBlocking(CallInvocation call) throws Exception {
                    started.add(call.call());
                    if (call.call().equals("first")) firstAnswers.get(30, java.util.concurrent.TimeUnit.SECONDS);
                    return simulated.callBlocking(call);
                }
                @Override public CompletableFuture<Object> callAsync(CallInvocation call) {
                    started.add(call.call());
                    return call.call().equals("first") ? firstAnswers.thenCompose(released -> simulated.callAsync(call))
                            : simulated.callAsync(call);
                }
                @Override public long callsStarted() { return simulated.callsStarted(); }
                @Override public void close() {}
            };
            try (Model model = Models.create(spec, new ModelContext(backend))) {
                CompletableFuture<Object> f = model.submit(new Request(0, g, 1, 1));
                f.completeExceptionally(new TimeoutException("request timed out"));
                firstAnswers.complete(null);
                Thread.sleep(200);   // time for second to start, were the ended request's next call made
            }
        }
        // first may not even have started (its hand-off to the pool can lose the race with the cancellation)
        assertThat(started).doesNotContain("second");
    }

    @org.junit.jupiter.api.Test
    void submit_callStartsOnTheThreadThatMadeItsInputsReady() throws Exception {
        // first, then second from first's value: first starts in submit, second on the thread that completes first.
        // The test completes first itself, from a thread of its own, after submit has returned: a timer completing
        // it could fire before submit attached its continuation on a busy machine, and second would then start in submit.
        Graph g = new Graph(0L, List.of(Step.Call.fixed("first", 5 * MS, 1L),
                new Step.Call("second", List.of("first"), new Latency.Fixed(MS), new Value.Sum(1), 0, null, 0)));
        java.util.Map<String, String> startedOn = new java.util.concurrent.ConcurrentHashMap<>();
        CompletableFuture<Object> first = new CompletableFuture<>();
        try (SimulatedBackend simulated = new SimulatedBackend()) {
            dev.blocklab.backend.Backend backend = new dev.blocklab.backend.Backend() {
                @Override public String name() { return "recording"; }
                @Override public Object callBlocking(CallInvocation call) throws Exception { return simulated.callBlocking(call); }
                @Override public CompletableFuture<Object> callAsync(CallInvocation call) {
                    startedOn.put(call.call(), Thread.currentThread().getName());
                    return call.call().equals("first") ? first : simulated.callAsync(call);
                }
                @Override public long callsStarted() { return simulated.callsStarted(); }
                @Override public void close() {}
            };
            try (Model model = Models.create("cf-nonblocking:2", new ModelContext(backend))) {
                CompletableFuture<Object> answer = model.submit(new Request(0, g, 1, 1));
                assertThat(startedOn).containsOnlyKeys("first");
                Thread completer = new Thread(() -> first.complete(1L), "test-completer");
                completer.start();
                completer.join();
                assertThat(answer.get(5, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo(2L);
            }
        }
        assertThat(startedOn.get("first")).isEqualTo(Thread.currentThread().getName());
        assertThat(startedOn.get("second")).isEqualTo("test-completer");
    }
}
