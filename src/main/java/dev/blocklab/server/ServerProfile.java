package dev.blocklab.server;

import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where a server's request handlers run: one record per kind, each naming, describing and predicting itself and
 * making its own executor, so a new profile is one record here and one line of {@link #parse}. Parsed from
 * {@code --profile}.
 *
 * <p>Every profile but {@link EventLoop} dispatches each admitted request from the I/O event loop to its
 * executor; requests waiting for a thread sit in a queue bounded by {@code --queue}.
 */
public sealed interface ServerProfile {

    /** The name as written on the command line, e.g. {@code threads:200}. */
    String name();

    /** True when a request waits in a queue for one of a fixed number of threads. */
    boolean queues();

    /** Passed by {@link #threadsHeld()} when nothing bounds the handlers that block (virtual). */
    int NO_POOL = Integer.MAX_VALUE;

    /**
     * For predictions: how many requests whose handlers block can run at once before the next one waits, i.e. the
     * pool's size, or the event loops' count (a blocked loop holds every connection on it); {@link #NO_POOL} when
     * nothing bounds them.
     */
    int threadsHeld();

    /** One line for {@code blocklab serve}: the name and where handlers run, e.g. {@code threads:8 (fixed pool of 8 ...)}. */
    String describe();

    /** True when handlers run on the event loop that read the request, with no executor of their own. */
    default boolean onEventLoop() { return false; }

    /**
     * A fresh executor for the handlers, whose platform threads report to {@code threads}; empty when handlers run
     * on the event loop. The caller shuts it down.
     */
    Optional<ExecutorService> executor(ThreadCount threads);

    /** How an executor reports its platform threads to the server, which counts and may refuse them. */
    interface ThreadCount {
        /** Called before a thread starts; throws the JVM's {@code OutOfMemoryError} when no thread may start. */
        void starting();

        /** Called when a thread started after {@link #starting} ends. */
        void ended();
    }

    /**
     * Play 2.5's default dispatcher: a {@link java.util.concurrent.ForkJoinPool} with parallelism
     * {@code clamp(cores x 1.0, 8, 24)} and LIFO task peeking ({@code asyncMode = false}).
     */
    record Play25(int parallelism) implements ServerProfile {
        public Play25 {
            if (parallelism < 1) throw new IllegalArgumentException("parallelism must be at least 1");
        }
        /** The parallelism Play 2.5 picks on a machine of {@code cores} hardware threads. */
        public static int parallelismFor(int cores) { return Math.clamp((long) Math.ceil(cores * 1.0), 8, 24); }
        @Override public String name() { return "play-2.5"; }
        @Override public boolean queues() { return true; }
        @Override public int threadsHeld() { return parallelism; }
        @Override public String describe() { return name() + " (ForkJoinPool of " + parallelism + " threads, LIFO)"; }
        @Override public Optional<ExecutorService> executor(ThreadCount threads) {
            AtomicInteger names = new AtomicInteger();
            return Optional.of(new ForkJoinPool(parallelism, pool -> {
                threads.starting();
                var t = new ForkJoinWorkerThread(null, pool, false) {
                    @Override protected void onTermination(Throwable exception) { threads.ended(); }
                };
                t.setName(name() + "-" + names.getAndIncrement());
                return t;
            }, null, false));
        }
    }

    /** A servlet container's request pool: {@code threads} platform threads and a FIFO queue. */
    record Threads(int threads) implements ServerProfile {
        public Threads {
            if (threads < 1 || threads > 100_000)
                throw new IllegalArgumentException("--profile threads:N needs N in 1..100000, got " + threads);
        }
        @Override public String name() { return "threads:" + threads; }
        @Override public boolean queues() { return true; }
        @Override public int threadsHeld() { return threads; }
        @Override public String describe() { return name() + " (fixed pool of " + threads + " platform threads, FIFO queue)"; }
        @Override public Optional<ExecutorService> executor(ThreadCount count) {
            var platform = Thread.ofPlatform().name("http-", 0).factory();
            return Optional.of(new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), task -> {
                count.starting();
                return platform.newThread(() -> {
                    try {
                        task.run();
                    } finally {
                        count.ended();
                    }
                });
            }));
        }
    }

    /** A new virtual thread per request; {@code --queue} then bounds the requests in flight. */
    record Virtual() implements ServerProfile {
        @Override public String name() { return "virtual"; }
        @Override public boolean queues() { return false; }
        @Override public int threadsHeld() { return NO_POOL; }
        @Override public String describe() { return name() + " (a virtual thread per request)"; }
        @Override public Optional<ExecutorService> executor(ThreadCount threads) {
            return Optional.of(Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("http-virtual-", 0).factory()));
        }
    }

    /**
     * Handlers run on the Vert.x event loop that read the request and must not block; a blocking endpoint is
     * allowed, to show the harm, and is counted and logged. {@code --queue} bounds the requests in flight.
     *
     * @param loops the event loops, Vert.x's default of two per hardware thread: as many blocking handlers run at once
     */
    record EventLoop(int loops) implements ServerProfile {
        public EventLoop {
            if (loops < 1) throw new IllegalArgumentException("event loops must be at least 1");
        }
        /** Vert.x's default count on a machine of {@code cores} hardware threads. */
        public static int loopsFor(int cores) { return 2 * cores; }
        @Override public String name() { return "event-loop"; }
        @Override public boolean queues() { return false; }
        @Override public int threadsHeld() { return loops; }
        @Override public String describe() { return name() + " (handlers on the Vert.x event loops; blocking endpoints are flagged)"; }
        @Override public boolean onEventLoop() { return true; }
        @Override public Optional<ExecutorService> executor(ThreadCount threads) { return Optional.empty(); }
    }

    /**
     * Parses {@code play-2.5}, {@code threads:N}, {@code virtual} or {@code event-loop}.
     *
     * @throws IllegalArgumentException one line naming {@code --profile} and the accepted forms
     */
    static ServerProfile parse(String spec) { return parse(spec, Runtime.getRuntime().availableProcessors()); }

    /** As {@link #parse(String)} on a machine of {@code cores} hardware threads (what {@code play-2.5} and {@code event-loop} size by). */
    static ServerProfile parse(String spec, int cores) {
        String s = spec.trim().toLowerCase(Locale.ROOT);
        if (s.equals("play-2.5")) return new Play25(Play25.parallelismFor(cores));
        if (s.equals("virtual")) return new Virtual();
        if (s.equals("event-loop")) return new EventLoop(EventLoop.loopsFor(cores));
        if (s.startsWith("threads:")) {
            try {
                return new Threads(Integer.parseInt(s.substring("threads:".length())));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--profile: '" + spec + "' needs a whole number of threads, e.g. threads:200");
            }
        }
        throw new IllegalArgumentException("--profile: unknown profile '" + spec + "'"
                + dev.blocklab.Names.didYouMean(spec, java.util.List.of("play-2.5", "threads", "virtual", "event-loop"))
                + " (known: play-2.5, threads:N, virtual, event-loop)");
    }
}
