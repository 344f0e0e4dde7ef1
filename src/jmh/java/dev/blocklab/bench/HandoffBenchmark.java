package dev.blocklab.bench;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * One blocking hand-off between two threads, the N = 2 point of {@code blocklab reproduce thread-switch}: two
 * threads of the chosen kind ping-pong a token {@value #HANDOFFS_PER_OP} times per operation, each waiting on a
 * fresh {@link CompletableFuture} per turn and summing its own block of {@code blockBytes} before passing on.
 * The score is microseconds per hand-off. The JMH thread starts each batch and waits for its end (two extra
 * hand-offs per batch, under 0.1 %). Written apart from the experiment's ring on purpose, so it cross-checks it.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
@Fork(value = 1, jvmArgsAppend = "-XX:+UseParallelGC")
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class HandoffBenchmark {
    static final int HANDOFFS_PER_OP = 10_000;

    /** {@code platform} or {@code virtual}: the kind of both ping-pong threads. */
    @Param({"platform", "virtual"})
    public String threads;

    /** Bytes of {@code int} data each thread sums every turn. */
    @Param({"0", "16384"})
    public int blockBytes;

    private Player ping;
    private Player pong;
    private volatile CompletableFuture<Void> batchDone;
    private int turnsLeft; // written by the token holder only; each hand-off orders the writes

    @Setup(Level.Trial)
    public void start() {
        ping = new Player(0);
        pong = new Player(1);
        ping.partner = pong;
        pong.partner = ping;
        Thread.Builder builder = switch (threads) {
            case "platform" -> Thread.ofPlatform().daemon(true);
            case "virtual" -> Thread.ofVirtual();
            default -> throw new IllegalArgumentException("threads must be platform or virtual, got " + threads);
        };
        ping.thread = builder.name("ping").start(ping::loop);
        pong.thread = builder.name("pong").start(pong::loop);
    }

    @Benchmark
    @OperationsPerInvocation(HANDOFFS_PER_OP)
    public void handoff() throws Exception {
        CompletableFuture<Void> done = new CompletableFuture<>();
        batchDone = done;
        turnsLeft = HANDOFFS_PER_OP;
        ping.release();
        done.get();
    }

    @TearDown(Level.Trial)
    public void stop() throws InterruptedException {
        for (Player p : new Player[] {ping, pong}) p.thread.interrupt();
        for (Player p : new Player[] {ping, pong})
            if (!p.thread.join(Duration.ofSeconds(10))) throw new IllegalStateException(p.thread.getName() + " did not end");
    }

    private final class Player {
        private final int[] block;
        private final int expectedSum;
        private volatile CompletableFuture<Void> turn = new CompletableFuture<>();
        Player partner;
        Thread thread;

        Player(int seed) {
            block = new int[blockBytes / Integer.BYTES];
            for (int i = 0; i < block.length; i++) block[i] = seed * 17 + i * 3;
            expectedSum = sum(block);
        }

        void release() { turn.complete(null); }

        void loop() {
            try {
                while (true) {
                    turn.get();
                    turn = new CompletableFuture<>();
                    int sum = sum(block);
                    if (sum != expectedSum) throw new IllegalStateException("block sum " + sum + ", expected " + expectedSum);
                    if (--turnsLeft == 0) batchDone.complete(null);
                    else partner.release();
                }
            } catch (InterruptedException e) {
                // tear-down
            } catch (ExecutionException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    private static int sum(int[] block) {
        int acc = 0;
        for (int v : block) acc += v;
        return acc;
    }
}
