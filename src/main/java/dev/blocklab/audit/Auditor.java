package dev.blocklab.audit;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingStream;

import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The misuse auditor of one command: an in-process JFR {@link RecordingStream} and a {@link Watchdog}, from
 * {@link #start} to {@link #finish}. Runs are marked with {@link #during}, so that each blocking is attributed to
 * the subject (model or variant) that was running when it began.
 *
 * <p>Implementation overview: JFR delivers events on the stream's own thread, about once a second, in batches.
 * Each event is turned into a {@link Blocking} at once and kept only when {@link Classifier#rule} flags it, so
 * the memory held is the findings', not the events'. {@code finish} and {@code soFar} commit an {@link AuditMark}
 * and wait until the stream delivers it: every event committed before has then been seen. Or until the stream
 * ends first: on Ctrl-C or SIGTERM, JFR's own shutdown hook stops the recording beside the command's hook, the
 * stream delivers what was recorded and ends, and the mark, committed after, is never recorded
 * ({@link AuditResult.Delivery#UNTIL_JFR_SHUTDOWN}). Attribution and aggregation happen only then, as pure
 * functions ({@link RunWindow#subjectAt}, {@link Findings#of}).
 *
 * <p>Threads: {@code during}, {@code soFar} and {@code finish} are called by the command's thread; events arrive
 * on JFR's.
 */
public final class Auditor implements AutoCloseable {
    /** The JFR events recorded, each with the threshold and its stack trace. */
    public static final List<String> EVENTS = List.of("jdk.VirtualThreadPinned", "jdk.ThreadSleep", "jdk.ThreadPark",
            "jdk.JavaMonitorEnter", "jdk.JavaMonitorWait", "jdk.SocketRead", "jdk.SocketWrite", "jdk.FileRead", "jdk.FileWrite");
    /** Flagged blockings kept at most; more are counted as dropped. */
    static final int MAX_KEPT = 100_000;
    private static final AtomicLong MARKS = new AtomicLong();
    /** The auditor that {@link #attribute} marks runs for: the first one started and not yet finished. */
    private static final AtomicReference<Auditor> ACTIVE = new AtomicReference<>();

    private final AuditSettings settings;
    private final InstantSource clock;
    private final RecordingStream stream;
    private final Watchdog watchdog;
    private final ConcurrentLinkedQueue<Blocking> flagged = new ConcurrentLinkedQueue<>();
    private final AtomicLong kept = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong seen = new AtomicLong();
    private final List<RunWindow> windows = new CopyOnWriteArrayList<>();
    /** Java thread id to OS thread id, as JFR events reveal them. */
    private final java.util.Map<Long, Long> osThreadIds = new java.util.concurrent.ConcurrentHashMap<>();
    /** The marks committed and not yet delivered: true once the stream delivers one, false if it ends first. */
    private final java.util.Map<Long, CompletableFuture<Boolean>> marks = new java.util.concurrent.ConcurrentHashMap<>();
    private volatile boolean streamEnded;
    private boolean finished;

    private Auditor(AuditSettings settings, InstantSource clock) {
        this.settings = settings;
        this.clock = clock;
        stream = new RecordingStream();
        Duration threshold = Duration.ofNanos(settings.thresholdNanos());
        for (String event : EVENTS) stream.enable(event).withThreshold(threshold).withStackTrace();
        stream.enable(AuditMark.class);
        // only to learn each platform thread's OS id, so that the watchdog can ask the OS whether it runs
        stream.enable("jdk.ThreadCPULoad").withPeriod(Duration.ofSeconds(1));
        stream.onEvent(this::accept);
        stream.onClose(() -> {
            streamEnded = true;
            marks.values().forEach(m -> m.complete(false));
        });
        stream.startAsync();
        watchdog = new Watchdog(settings, this::keep, clock, osThreadIds::get);
    }

    /**
     * Starts recording; close what it returns (or call {@link #finish}). The first auditor started becomes the
     * active one, for which {@link #attribute} marks runs until it finishes.
     */
    public static Auditor start(AuditSettings settings) {
        Auditor a = new Auditor(settings, InstantSource.system());
        ACTIVE.compareAndSet(null, a);
        return a;
    }

    /**
     * The hook for code that runs models (the in-process driver): runs {@code work} as {@code subject}'s run of
     * the active auditor, or just runs it when no audit is on.
     */
    public static <T> T attribute(String subject, java.util.function.Supplier<T> work) {
        Auditor a = ACTIVE.get();
        return a == null ? work.get() : a.during(subject, work::get);
    }

    /** The active auditor (see {@link #start}), if an audit is on. */
    public static java.util.Optional<Auditor> active() { return java.util.Optional.ofNullable(ACTIVE.get()); }

    public AuditSettings settings() { return settings; }

    /** Runs {@code work} as {@code subject}'s run: blockings that begin meanwhile are attributed to it. */
    public <T, E extends Exception> T during(String subject, Work<T, E> work) throws E {
        RunWindow open = new RunWindow(subject, clock.instant(), null);
        windows.add(open);
        try {
            return work.run();
        } finally {
            windows.set(windows.indexOf(open), new RunWindow(subject, open.start(), clock.instant()));
        }
    }

    /** The work of {@link #during}. */
    @FunctionalInterface
    public interface Work<T, E extends Exception> { T run() throws E; }

    private void accept(RecordedEvent e) {
        if (e.getEventType().getName().equals("blocklab.AuditMark")) {
            CompletableFuture<Boolean> m = marks.get(e.getLong("mark"));
            if (m != null) m.complete(true);
            return;
        }
        RecordedThread t = e.getThread();
        if (t != null && !t.isVirtual() && t.getJavaThreadId() > 0) osThreadIds.putIfAbsent(t.getJavaThreadId(), t.getOSThreadId());
        if (e.getEventType().getName().equals("jdk.ThreadCPULoad")) return;
        seen.incrementAndGet();
        keep(blocking(e));
    }

    private void keep(Blocking b) {
        if (Classifier.rule(b).isEmpty()) return;
        if (kept.incrementAndGet() > MAX_KEPT) {
            dropped.incrementAndGet();
            return;
        }
        flagged.add(b);
    }

    static Blocking blocking(RecordedEvent e) {
        RecordedThread t = e.getThread();
        List<Frame> stack = new ArrayList<>();
        RecordedStackTrace trace = e.getStackTrace();
        if (trace != null)
            for (RecordedFrame f : trace.getFrames())
                if (f.isJavaFrame()) stack.add(new Frame(f.getMethod().getType().getName(), f.getMethod().getName(), f.getLineNumber()));
        return new Blocking(e.getEventType().getName(), t == null ? "" : t.getJavaName(), t != null && t.isVirtual(),
                t == null || t.getThreadGroup() == null ? "" : t.getThreadGroup().getName(),
                e.getStartTime(), e.getDuration().toNanos(), stack);
    }

    /**
     * What the audit found so far, once every event until now has been delivered (waiting up to 10 s); the audit
     * goes on. For code that runs under an audit of its caller and judges its own runs by it.
     */
    public AuditResult soFar() {
        if (finished) throw new IllegalStateException("the audit is already finished");
        return result(deliveredUpToNow(Duration.ofSeconds(10)));
    }

    /**
     * Stops recording once every event so far has been delivered (waiting up to 10 s), then attributes and
     * aggregates. Call once.
     */
    public AuditResult finish() { return finish(Duration.ofSeconds(10)); }

    /**
     * As {@link #finish()}, waiting at most {@code maxWait} for the stream: in a shutdown hook JFR may have
     * stopped already: its stream ends once it has delivered what JFR recorded, and the result says so.
     */
    public AuditResult finish(Duration maxWait) {
        if (finished) throw new IllegalStateException("the audit is already finished");
        finished = true;
        ACTIVE.compareAndSet(this, null);
        watchdog.close();
        AuditResult.Delivery delivery = deliveredUpToNow(maxWait);
        stream.close();
        return result(delivery);
    }

    /** Commits a mark and waits at most {@code maxWait} until the stream delivers it or ends. */
    private AuditResult.Delivery deliveredUpToNow(Duration maxWait) {
        long id = MARKS.incrementAndGet();
        CompletableFuture<Boolean> delivered = new CompletableFuture<>();
        marks.put(id, delivered);
        if (streamEnded) delivered.complete(false);   // it ended before the mark was registered
        AuditMark m = new AuditMark();
        m.mark = id;
        m.commit();
        try {
            return delivered.get(maxWait.toNanos(), TimeUnit.NANOSECONDS)
                    ? AuditResult.Delivery.COMPLETE : AuditResult.Delivery.UNTIL_JFR_SHUTDOWN;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return AuditResult.Delivery.INCOMPLETE;
        } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
            return AuditResult.Delivery.INCOMPLETE;
        } finally {
            marks.remove(id);
        }
    }

    private AuditResult result(AuditResult.Delivery delivery) {
        List<RunWindow> w = List.copyOf(windows);
        List<Findings.Attributed> attributed = flagged.stream()
                .map(b -> new Findings.Attributed(RunWindow.subjectAt(w, b.start()), b)).toList();
        return new AuditResult(settings, Findings.of(attributed), w.stream().map(RunWindow::subject).distinct().toList(),
                seen.get(), dropped.get(), delivery);
    }

    @Override public void close() {
        if (!finished) {
            finished = true;
            ACTIVE.compareAndSet(this, null);
            watchdog.close();
            stream.close();
        }
    }
}
