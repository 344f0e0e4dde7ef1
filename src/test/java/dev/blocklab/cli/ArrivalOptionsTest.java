package dev.blocklab.cli;

import dev.blocklab.workload.Arrival;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ArrivalOptionsTest {
    private static final long GIB = 1L << 30;

    @Test void batchFits_refusesOneNoModelCanHold_andOneTooLargeForAThreadPerRequest() {
        // 100,000,000 x 150 B = 14 GiB: more than a 5.9 GiB heap under any model
        assertThatThrownBy(() -> ArrivalOptions.checkBatchFits(new Arrival.Batch(100_000_000), "--requests 100000000", 6 * GIB, List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--requests 100000000: a batch keeps every request in flight at once")
                .hasMessageContaining("14.0 GiB").hasMessageContaining("at most 6.0 GiB");
        // 10,000,000: 1.4 GiB on pools, 10.2 GiB with a thread each
        assertThatCode(() -> ArrivalOptions.checkBatchFits(new Arrival.Batch(10_000_000), "--requests 10000000", 6 * GIB, List.of()))
                .doesNotThrowAnyException();
        assertThatThrownBy(() -> ArrivalOptions.checkBatchFits(new Arrival.Batch(10_000_000), "--requests 10000000", 6 * GIB,
                List.of("virtual", "frameworks-virtual")))
                .hasMessage("--requests 10000000: a batch keeps every request in flight at once, and virtual, frameworks-virtual"
                        + " start a thread for each, at least 1100 B a request (10.2 GiB), and this JVM's heap is at most 6.0 GiB"
                        + " (more: BLOCKLAB_JAVA_OPTS=-Xmx...); send fewer, run a pool model, or an open --rate or closed --users for a duration");
        // a million, seed 004's scale, fits with a virtual thread each (1.0 GiB)
        assertThatCode(() -> ArrivalOptions.checkBatchFits(new Arrival.Batch(1_000_000), "--requests 1000000", 6 * GIB, List.of("virtual")))
                .doesNotThrowAnyException();
        assertThatCode(() -> ArrivalOptions.checkBatchFits(new Arrival.Closed(100_000_000, 1_000_000_000L), "x", GIB, List.of("virtual")))
                .doesNotThrowAnyException();
    }

    @Test void threadsFit_refusesAPlatformThreadPerRequestBeyondTheMachinesLimit() {
        var limit = java.util.Optional.of(new dev.blocklab.driver.ThreadLimit(32_768, "kernel.pid_max", 135));   // 31,633 spare
        List<dev.blocklab.model.ModelSpec> specs = List.of("virtual", "fixed:8", "cached").stream().map(dev.blocklab.registry.Registry::parse).toList();
        assertThatThrownBy(() -> ArrivalOptions.checkThreadsFit(new Arrival.Batch(40_000), "--requests 40000", specs, limit))
                .hasMessage("--requests 40000: cached (40,000) would start that many platform threads at once, and this machine lets a"
                        + " process start about 31,633 more platform threads (kernel.pid_max 32,768, 135 running now); send fewer, run"
                        + " virtual, or a smaller pool");
        assertThatThrownBy(() -> ArrivalOptions.checkThreadsFit(new Arrival.Closed(40_000, 1_000_000_000L), "--users 40000",
                List.of(dev.blocklab.registry.Registry.parse("fixed:35000")), limit)).hasMessageStartingWith("--users 40000: fixed:35000 (35,000)");
        // below the limit, or models that start no thread per request, or an open rate (its concurrency is not known before)
        assertThatCode(() -> ArrivalOptions.checkThreadsFit(new Arrival.Batch(30_000), "x", specs, limit)).doesNotThrowAnyException();
        assertThatCode(() -> ArrivalOptions.checkThreadsFit(new Arrival.Batch(1_000_000), "x",
                List.of(dev.blocklab.registry.Registry.parse("virtual"), dev.blocklab.registry.Registry.parse("fixed:8")), limit)).doesNotThrowAnyException();
        assertThatCode(() -> ArrivalOptions.checkThreadsFit(new Arrival.Batch(40_000), "x", specs, java.util.Optional.empty())).doesNotThrowAnyException();
    }

    @Test void run_refusesABatchTooLargeForAThreadPerRequest_namingTheModel(@TempDir Path dir) {
        // one request more than this JVM's heap holds with a thread each: it would fit on a pool (at 150 B a request)
        long requests = Runtime.getRuntime().maxMemory() / ArrivalOptions.THREAD_BYTES_PER_WAITING_REQUEST + 1;
        assertThat(requests * ArrivalOptions.LEAST_BYTES_PER_WAITING_REQUEST).isLessThan(Runtime.getRuntime().maxMemory());
        Cli.Run o = Cli.run("run", "--workload", "hundred-calls", "--model", "fixed:8", "--model", "virtual", "--requests", "" + requests,
                "--save", dir.resolve("r.jsonl").toString());
        assertThat(o.exit()).as(o.err()).isEqualTo(Main.EXIT_USAGE);
        assertThat(o.err().lines().toList()).singleElement().asString()
                .startsWith("blocklab: --requests " + requests + ": a batch keeps every request in flight at once, and virtual starts a thread for each");
        assertThat(dir.resolve("r.jsonl")).doesNotExist();
    }

    @Test void run_refusesAHugeBatch_beforeStartingAnything(@TempDir Path dir) {
        Cli.Run o = Cli.run("run", "--workload", "hundred-calls", "--model", "virtual", "--requests", "2000000000",
                "--save", dir.resolve("r.jsonl").toString());
        assertThat(o.exit()).as(o.err()).isEqualTo(Main.EXIT_USAGE);
        assertThat(o.err().lines().toList()).singleElement().asString()
                .startsWith("blocklab: --requests 2000000000: a batch keeps every request in flight at once");
    }

    @Test void step_withoutStepsInTheRate_isRefused() {
        ArrivalOptions withBatch = new ArrivalOptions();
        withBatch.requests = 10;
        withBatch.step = "1s";
        assertThatThrownBy(() -> withBatch.arrival(new Arrival.Batch(1))).hasMessage("--step goes with steps such as --rate 100/s,500/s");
        ArrivalOptions withOneRate = new ArrivalOptions();
        withOneRate.rate = "100/s";
        withOneRate.duration = "2s";
        withOneRate.step = "1s";
        assertThatThrownBy(() -> withOneRate.arrival(new Arrival.Batch(1))).hasMessage("--step goes with steps such as --rate 100/s,500/s");
        ArrivalOptions withSteps = new ArrivalOptions();
        withSteps.rate = "100/s,500/s";
        withSteps.duration = "2s";
        withSteps.step = "1s";
        assertThat(withSteps.arrival(new Arrival.Batch(1))).isInstanceOf(Arrival.Open.class);
    }

    @Test void aLoneOption_keepsTheRestOfTheWorkloadsArrival() {
        long s = 1_000_000_000L;
        Arrival closed = new Arrival.Closed(20, 3 * s), open = new Arrival.Open(200, 4 * s), batch = new Arrival.Batch(100);
        assertThat(options(o -> o.users = 5).arrival(closed)).isEqualTo(new Arrival.Closed(5, 3 * s));
        assertThat(options(o -> o.users = 5).arrival(open)).isEqualTo(new Arrival.Closed(5, 4 * s));
        assertThat(((Arrival.Open) options(o -> o.rate = "100/s").arrival(open)).requests()).isEqualTo(400);
        assertThat(options(o -> o.duration = "2s").arrival(closed)).isEqualTo(new Arrival.Closed(20, 2 * s));
        assertThat(((Arrival.Open) options(o -> o.duration = "2s").arrival(open)).requests()).isEqualTo(400);
        assertThat(options(o -> { }).arrival(batch)).isEqualTo(batch);
        assertThatThrownBy(() -> options(o -> o.users = 5).arrival(batch)).hasMessage("--users needs --duration, e.g. --duration 10s");
        assertThatThrownBy(() -> options(o -> o.duration = "2s").arrival(batch))
                .hasMessage("--duration needs --users or --rate (the workload's arrival is a batch)");
        Arrival ramp = new Arrival.Open(dev.blocklab.load.Rates.parse("100/s..500/s", 4 * s, 0), 4 * s);
        assertThatThrownBy(() -> options(o -> o.duration = "2s").arrival(ramp)).hasMessageContaining("give --rate with it");
    }

    private static ArrivalOptions options(java.util.function.Consumer<ArrivalOptions> set) {
        ArrivalOptions o = new ArrivalOptions();
        set.accept(o);
        return o;
    }
}
