package dev.blocklab.server;

import dev.blocklab.backend.Backend;
import dev.blocklab.workload.Arrival;
import dev.blocklab.workload.CallInvocation;
import dev.blocklab.workload.Graph;
import dev.blocklab.workload.Latency;
import dev.blocklab.workload.Step;
import dev.blocklab.workload.Value;
import dev.blocklab.workload.Workload;
import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A stop honours one budget for everything the server owns: a model whose close blocks and a backend whose close
 * blocks are abandoned at the deadline and named, instead of each being waited for with bounds of its own (30 s for
 * a model's threads, without end for this backend).
 */
class StopBudgetTest {
    private static final long MS = 1_000_000L;

    /** A backend whose blocking call and close both hold their thread, deaf to interrupts, until released. */
    private static final class StuckBackend implements Backend {
        final CountDownLatch callStarted = new CountDownLatch(1);
        final CountDownLatch closeStarted = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @Override public String name() { return "stuck"; }

        @Override public Object callBlocking(CallInvocation call) {
            callStarted.countDown();
            holdUntilReleased();
            return "late";
        }

        @Override public CompletableFuture<Object> callAsync(CallInvocation call) { return new CompletableFuture<>(); }

        @Override public long callsStarted() { return callStarted.getCount() == 0 ? 1 : 0; }

        @Override public void close() {
            closeStarted.countDown();
            holdUntilReleased();
        }

        private void holdUntilReleased() {
            boolean interrupted = false;
            while (true) {
                try {
                    if (release.await(30, TimeUnit.SECONDS)) break;
                } catch (InterruptedException e) {
                    interrupted = true;   // as a call in a native read would: it ends when it ends
                }
            }
            if (interrupted) Thread.currentThread().interrupt();
        }
    }

    private static final Workload ONE_CALL = new Workload("one-call", "a single blocking call",
            new Graph(0L, List.of(new Step.Call("only", List.of(), new Latency.Fixed(10 * MS), new Value.Constant("ok"), 0, null, 0))),
            new Arrival.Batch(1));

    private static ServerSettings settings() {
        return ServerSettings.of(0, ServerProfile.parse("threads:2")).withLog(line -> {}).withAdmission(Admission.FIXED);
    }

    @Test
    @org.junit.jupiter.api.Timeout(60)
    void close_modelAndBackendThatBlock_returnsAtTheBudget_namingBoth() throws Exception {
        StuckBackend backend = new StuckBackend();
        BlocklabServer server = BlocklabServer.start(settings(), backend, List.of(ONE_CALL));
        try (Socket socket = new Socket(server.uri().getHost(), server.port())) {
            OutputStream out = socket.getOutputStream();
            out.write("GET /run/one-call/fixed:1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertThat(backend.callStarted.await(10, TimeUnit.SECONDS)).as("the model's thread is in the call").isTrue();

            long t0 = System.nanoTime();
            BlocklabServer.Stopped stopped = server.close(Duration.ofMillis(300));
            long elapsedNanos = System.nanoTime() - t0;

            // the model's close alone would wait 30 s for its thread, and this backend's close for ever
            assertThat(elapsedNanos).as("the model had the whole budget").isGreaterThanOrEqualTo(300 * MS).isLessThan(10_000 * MS);
            assertThat(stopped.complete()).isFalse();
            assertThat(stopped.budget()).isEqualTo(Duration.ofMillis(300));
            assertThat(stopped.abandoned()).contains("the model of /run/one-call/fixed:1", "the backend (stuck)");
            // the backend is asked to close at the deadline even while the model is still closing
            assertThat(backend.closeStarted.await(10, TimeUnit.SECONDS)).as("the backend's close began").isTrue();
        } finally {
            backend.release.countDown();
        }
    }

    @Test
    void close_nothingHolds_abandonsNothing_andClosesTheBackend() throws Exception {
        StuckBackend backend = new StuckBackend();
        backend.release.countDown();   // nothing holds: every part closes within the budget
        BlocklabServer server = BlocklabServer.start(settings(), backend, List.of(ONE_CALL));
        BlocklabServer.Stopped stopped = server.close(Duration.ofSeconds(10));
        assertThat(stopped.abandoned()).isEmpty();
        assertThat(stopped.complete()).isTrue();
        assertThat(backend.closeStarted.getCount()).as("the backend was closed").isZero();
    }

    /** A part whose close fails within the budget is in the answer, not thrown: the caller's next steps still run. */
    @Test
    void close_aBackendWhoseCloseFails_isAFailureInTheAnswer_andPlainCloseThrowsIt() {
        Backend failing = new Backend() {
            @Override public String name() { return "failing"; }
            @Override public Object callBlocking(CallInvocation call) { return "ok"; }
            @Override public CompletableFuture<Object> callAsync(CallInvocation call) { return CompletableFuture.completedFuture("ok"); }
            @Override public long callsStarted() { return 0; }
            @Override public void close() { throw new IllegalStateException("cannot close"); }
        };
        BlocklabServer.Stopped stopped = BlocklabServer.start(settings(), failing, List.of(ONE_CALL)).close(Duration.ofSeconds(10));
        assertThat(stopped.complete()).isTrue();
        assertThat(stopped.failures()).singleElement().extracting(Throwable::getMessage).isEqualTo("cannot close");

        BlocklabServer server = BlocklabServer.start(settings(), failing, List.of(ONE_CALL));
        org.assertj.core.api.Assertions.assertThatThrownBy(server::close).isInstanceOf(IllegalStateException.class).hasMessage("cannot close");
    }

    @Test
    void count_groupsThousands_andSaysOneInTheSingular() {
        assertThat(BlocklabServer.count(6_738, "connection")).isEqualTo("6,738 connections");
        assertThat(BlocklabServer.count(1_234_567, "connection")).isEqualTo("1,234,567 connections");
        assertThat(BlocklabServer.count(100, "connection")).isEqualTo("100 connections");
        assertThat(BlocklabServer.count(1, "running handler")).isEqualTo("1 running handler");
        assertThat(BlocklabServer.count(0, "connection")).isEqualTo("0 connections");
    }
}
