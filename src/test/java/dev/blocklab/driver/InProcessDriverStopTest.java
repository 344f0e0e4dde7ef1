package dev.blocklab.driver;

import dev.blocklab.model.Demand;
import dev.blocklab.model.Model;
import dev.blocklab.model.Prediction;
import dev.blocklab.report.Deviation;
import dev.blocklab.result.RunResult;
import dev.blocklab.workload.Arrival;
import dev.blocklab.workload.BuiltInWorkloads;
import dev.blocklab.workload.Request;
import dev.blocklab.workload.RequestTimes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link InProcessDriver#stop}: what a run stopped partway (Ctrl-C) keeps. */
class InProcessDriverStopTest {
    private static final long S = 1_000_000_000L;
    private final InProcessDriver driver = new InProcessDriver();
    private final RunSettings once = RunSettings.DEFAULTS.withTimeScale(100).withRuns(0, 1);

    /**
     * A model that answers its first {@code answered} requests at once and holds every later one until it is
     * closed (then fails it), and asks the driver to stop when request {@code stopAt} arrives.
     */
    private final class Holding implements Model {
        final int answered;
        final long stopAt;
        final List<CompletableFuture<Object>> held = new CopyOnWriteArrayList<>();

        Holding(int answered, long stopAt) {
            this.answered = answered;
            this.stopAt = stopAt;
        }

        @Override public String name() { return "holding"; }
        @Override public CompletableFuture<Object> submit(Request request) {
            if (request.id() == stopAt) driver.stop();
            if (request.id() < answered) return CompletableFuture.completedFuture("done");
            CompletableFuture<Object> f = new CompletableFuture<>();
            held.add(f);
            return f;
        }
        @Override public Prediction predict(Demand d) { return new Prediction(10_000_000L, "10 ms", RequestTimes.Path.CRITICAL); }
        @Override public void close() { held.forEach(f -> f.completeExceptionally(new IllegalStateException("closed"))); }
    }

    @Test @Timeout(30)
    void stoppedBatch_keepsTheRequestsThatCompleted_marksTheRun_andIsNotComparedWithItsPrediction() {
        Holding model = new Holding(3, 5);
        long start = System.nanoTime();
        RunResult r = driver.run(BuiltInWorkloads.hundredCalls().withArrival(new Arrival.Batch(100)), "holding", c -> model, once, Progress.NONE);
        assertThat((System.nanoTime() - start) / 1e9).as("seconds: the grace, not the held requests").isLessThan(20);
        assertThat(r.interrupted()).isNotNull();
        assertThat(r.interrupted().requestsSent()).as("sending stops at the stop: request 5 was the last").isEqualTo(6);
        assertThat(r.interrupted().requestsPlanned()).isEqualTo(100);
        assertThat(r.counts().requests()).as("the 3 answered; the 3 held, failed when the model closed, are not counted").isEqualTo(3);
        assertThat(r.counts().failures()).isZero();
        assertThat(Deviation.of(r).ratio()).isNaN();
        assertThat(Deviation.of(r).cause()).isEqualTo("stopped early");
        assertThat(r.interrupted().sentText()).isEqualTo("6 of 100 requests sent");
    }

    @Test @Timeout(30)
    void stoppedOpenSchedule_stopsSending_andSaysHowManyWereDue() {
        Holding model = new Holding(Integer.MAX_VALUE, 20);   // answers all; the stop comes with the 21st
        // 100/s for 100 s, at delays / 100: 10,000 requests due over 1 s
        RunResult r = driver.run(BuiltInWorkloads.hundredCalls().withArrival(new Arrival.Open(100, 100 * S)), "holding", c -> model,
                once, Progress.NONE);
        assertThat(r.interrupted()).isNotNull();
        assertThat(r.interrupted().requestsPlanned()).isEqualTo(10_000);
        assertThat(r.interrupted().requestsSent()).isBetween(21L, 9_999L);
        assertThat(r.counts().requests()).isEqualTo(r.interrupted().requestsSent());
    }

    @Test @Timeout(30)
    void stopDuringAWarmUp_measuresNothing_andSaysSo() {
        Holding model = new Holding(3, 5);
        assertThatThrownBy(() -> driver.run(BuiltInWorkloads.hundredCalls().withArrival(new Arrival.Batch(100)), "holding", c -> model,
                once.withRuns(1, 1), Progress.NONE))
                .isInstanceOf(InProcessDriver.Stopped.class)
                .hasMessage("stopped during holding's warm-up 1/1; nothing of it was measured");
    }

    @Test @Timeout(30)
    void stopBeforeAnyRequestCompleted_measuresNothing() {
        Holding model = new Holding(0, 5);
        assertThatThrownBy(() -> driver.run(BuiltInWorkloads.hundredCalls().withArrival(new Arrival.Batch(100)), "holding", c -> model,
                once, Progress.NONE))
                .isInstanceOf(InProcessDriver.Stopped.class)
                .hasMessage("stopped during holding's run 1/1 before any request completed");
    }

    @Test @Timeout(30)
    void stopInALaterRepeat_keepsTheRepeatsThatEnded_whole() {
        List<Holding> made = new CopyOnWriteArrayList<>();
        RunResult r = driver.run(BuiltInWorkloads.hundredCalls().withArrival(new Arrival.Batch(10)), "holding", c -> {
            Holding m = made.isEmpty() ? new Holding(10, -1) : new Holding(3, 5);   // the first repeat runs to its end
            made.add(m);
            return m;
        }, once.withRuns(0, 3), Progress.NONE);
        assertThat(made).as("the third repeat is not begun").hasSize(2);
        assertThat(r.interrupted()).isNull();
        assertThat(r.counts().requests()).isEqualTo(10);
        assertThat(r.repeats().count()).isEqualTo(1);
    }

    @Test @Timeout(30)
    void stoppedClosedUsers_stopAfterTheirRequest() {
        Holding model = new Holding(Integer.MAX_VALUE, 50);
        RunResult r = driver.run(BuiltInWorkloads.hundredCalls().withArrival(new Arrival.Closed(2, 1_000 * S)), "holding", c -> model,
                once, Progress.NONE);   // 10 s at delays / 100, stopped at the 51st request
        assertThat(r.interrupted()).isNotNull();
        assertThat(r.interrupted().requestsPlanned()).as("users name no count").isZero();
        assertThat(r.counts().requests()).isBetween(51L, 60L);
        assertThat(r.timing().wallMillis()).isLessThan(5_000.0);
    }
}
