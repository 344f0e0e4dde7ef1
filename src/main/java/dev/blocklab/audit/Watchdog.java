package dev.blocklab.audit;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * Samples the event loops and the fork-join workers (carriers among them) every period through
 * {@link ThreadMXBean} and feeds a {@link StallTracker}; stalls go to {@code sink}. One daemon platform thread,
 * {@code blocklab-audit-watchdog}; {@link #close()} stops it and flushes the episodes in progress.
 */
final class Watchdog implements AutoCloseable {
    private static final int STACK_DEPTH = 48;

    private final AuditSettings settings;
    private final Consumer<Blocking> sink;
    private final InstantSource clock;
    private final ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    private final StallTracker tracker;
    private final Map<Long, Boolean> watchedById = new HashMap<>();
    private final Thread thread;
    private volatile boolean running = true;

    private final java.util.function.LongFunction<Long> osThreadId;

    /** @param osThreadId the OS thread id of a Java thread id, or null when not known (yet) */
    Watchdog(AuditSettings settings, Consumer<Blocking> sink, InstantSource clock, java.util.function.LongFunction<Long> osThreadId) {
        this.settings = settings;
        this.osThreadId = osThreadId;
        this.sink = sink;
        this.clock = clock;
        this.tracker = new StallTracker(settings.stallNanos());
        ThreadDumps.prepare();   // not at the first stall: its cost there outlasted the stall (see prepare)
        this.thread = Thread.ofPlatform().daemon().name("blocklab-audit-watchdog").start(this::loop);
    }

    private void loop() {
        long next = System.nanoTime();
        while (running) {
            sampleOnce();
            tracker.drain().forEach(sink);
            next += settings.samplePeriodNanos();
            long wait = next - System.nanoTime();
            if (wait > 0) LockSupport.parkNanos(wait);
            else next = System.nanoTime();
        }
        tracker.finish().forEach(sink);
    }

    private void sampleOnce() {
        long[] ids = mx.getAllThreadIds();
        long[] unknown = Arrays.stream(ids).filter(id -> !watchedById.containsKey(id)).toArray();
        if (unknown.length > 0)
            for (ThreadInfo info : mx.getThreadInfo(unknown, 0))
                if (info != null) {
                    ThreadKind kind = Classifier.kind(info.getThreadName(), false, "", List.of());
                    watchedById.put(info.getThreadId(), kind == ThreadKind.EVENT_LOOP || kind == ThreadKind.FORK_JOIN);
                }
        if (watchedById.size() > 4 * ids.length + 1024) watchedById.keySet().retainAll(Arrays.stream(ids).boxed().toList());
        List<Long> watched = new ArrayList<>();
        for (long id : ids) if (Boolean.TRUE.equals(watchedById.get(id))) watched.add(id);
        if (watched.isEmpty()) return;
        long[] w = watched.stream().mapToLong(Long::longValue).toArray();
        ThreadInfo[] infos = mx.getThreadInfo(w, STACK_DEPTH);
        long paused = gcNanos();
        for (ThreadInfo info : infos) {
            if (info == null) continue;
            List<Frame> stack = Arrays.stream(info.getStackTrace()).map(Frame::of).toList();
            long cpu = mx.isThreadCpuTimeEnabled() ? mx.getThreadCpuTime(info.getThreadId()) : -1;
            var sample = new StallTracker.Sample(info.getThreadId(), info.getThreadName(), System.nanoTime(), clock.instant(), cpu, stack, paused);
            if (tracker.observe(sample)) {
                if (runnable(info)) tracker.resolve(info.getThreadId(), info.getThreadName(), stack, true);
                else resolve(info.getThreadId(), info.getThreadName(), stack);
            }
        }
    }

    /** Milliseconds every collector has spent, in nanoseconds (for Parallel and G1, mostly stop-the-world). */
    private static long gcNanos() {
        long ms = 0;
        for (var gc : ManagementFactory.getGarbageCollectorMXBeans()) ms += Math.max(0, gc.getCollectionTime());
        return ms * 1_000_000;
    }

    /**
     * True when the OS says the thread is runnable ({@code R} in {@code /proc/self/task/TID/stat}): it makes no
     * progress because it gets no CPU (a busy machine), not because it is blocked. While the OS thread id is not
     * known yet (JFR reveals it once a second, so a thread younger than that), Java's view decides instead
     * ({@link #inJavaCode}); an unreadable state counts as blocked.
     */
    private boolean runnable(ThreadInfo info) {
        Long tid = osThreadId.apply(info.getThreadId());
        if (tid == null) return inJavaCode(info.getThreadState(), info.getStackTrace());
        try {
            return OsThreadState.of(java.nio.file.Files.readString(java.nio.file.Path.of("/proc/self/task/" + tid + "/stat"))) == 'R';
        } catch (java.io.IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * Java's view, for a thread whose OS state is unknown: {@code RUNNABLE} in a Java method (not a native one)
     * cannot be blocked, so without progress it is waiting for a CPU. A thread blocked in native code (a socket
     * read, an FFM downcall) is {@code RUNNABLE} in a native method; a carrier whose virtual thread blocks is
     * {@code WAITING} in {@code Continuation.run}; both still count as blocked.
     */
    static boolean inJavaCode(Thread.State state, StackTraceElement[] stack) {
        return state == Thread.State.RUNNABLE && stack.length > 0 && !stack[0].isNativeMethod();
    }

    /** For a carrier, the mounted virtual thread's stack; a pinned park is dropped (JFR reports it). */
    private void resolve(long id, String name, List<Frame> stack) {
        if (Classifier.kind(name, false, "", stack) != ThreadKind.CARRIER) return;
        try {
            ThreadDumps.mountedOn(id).ifPresent(m -> tracker.resolve(id, m.name() + " on " + name, m.stack(),
                    m.stack().stream().anyMatch(f -> f.is("java.lang.VirtualThread", "parkOnCarrierThread"))));
        } catch (RuntimeException e) {
            // keep the carrier's own stack: the stall is still worth reporting
        }
    }

    @Override public void close() {
        running = false;
        LockSupport.unpark(thread);
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
