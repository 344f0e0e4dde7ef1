package dev.blocklab.audit;

import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The auditor's decisions, as pure functions: which kind a thread is, whether a blocking is a thread waiting
 * for work (idle, never a finding), which rule a blocking breaks, and which frame to blame.
 */
public final class Classifier {
    private Classifier() {}

    /**
     * Thread names of loops that must never block. Netty 4.2's default group name, Vert.x, Reactor Netty's HTTP and
     * TCP loops (r2dbc-postgresql's connections run on {@code reactor-tcp-epoll-N}), Reactor, RxJava.
     */
    private static final Pattern EVENT_LOOP = Pattern.compile(
            "vert\\.x-eventloop-thread-\\d+|vert\\.x-acceptor-thread-\\d+"
                    + "|(?:nio|epoll|kqueue|io_uring|multiThreadIo|local)EventLoopGroup-\\d+-\\d+"
                    + "|reactor-(?:http|tcp)-(?:nio|epoll|kqueue|io_uring)-\\d+|parallel-\\d+|single-\\d+"
                    + "|RxComputationThreadPool-\\d+|RxSingleScheduler-\\d+");
    private static final Pattern COMMON_POOL = Pattern.compile("ForkJoinPool\\.commonPool-worker-\\d+");
    private static final Pattern FORK_JOIN = Pattern.compile("ForkJoinPool-\\d+-worker-\\d+");
    private static final String CARRIER_GROUP = "CarrierThreads";

    /**
     * Frames that mean "this thread waits for its next task": a pool's idle wait, a timer's queue, an event
     * loop's select. A blocking whose stack holds one is idleness, not a misuse.
     */
    private static final List<Frame> IDLE = List.of(
            new Frame("java.util.concurrent.ForkJoinPool", "awaitWork", 0),
            new Frame("java.util.concurrent.ThreadPoolExecutor", "getTask", 0),
            new Frame("java.util.concurrent.ScheduledThreadPoolExecutor$DelayedWorkQueue", "take", 0),
            new Frame("io.netty.channel.nio.NioIoHandler", "select", 0),
            new Frame("io.netty.channel.epoll.EpollIoHandler", "epollWait", 0),
            new Frame("io.netty.channel.nio.NioEventLoop", "select", 0),
            new Frame("io.netty.util.concurrent.SingleThreadEventExecutor", "takeTask", 0),
            new Frame("io.vertx.core.impl.BlockedThreadChecker$1", "run", 0),
            new Frame("java.util.TimerThread", "mainLoop", 0));

    /**
     * Frames of the JVM loading classes: a one-time cost of first use (reading the jar, the loader's lock), not
     * something the code can avoid. Waiting for another thread's class initialiser is not among them.
     */
    private static final List<Frame> CLASS_LOADING = List.of(
            new Frame("java.lang.ClassLoader", "loadClass", 0),
            new Frame("jdk.internal.loader.BuiltinClassLoader", "loadClassOrNull", 0),
            new Frame("jdk.internal.loader.URLClassPath", "getResource", 0));

    /**
     * Package prefixes of the JDK, of the frameworks and of the lab's downstream calls; the first frame outside them
     * is the one to blame. The lab's backends and datastore clients stand in for a client library (a sleep for a
     * JDBC driver's wait, an HTTP client): the frame to blame is the code that called them on the wrong thread
     * ({@code ProfilePage.syncBlocking}), not {@code SimulatedBackend.sleep}, which every finding would name.
     */
    private static final List<String> LIBRARY = List.of("java.", "javax.", "jdk.", "sun.", "com.sun.",
            "io.netty.", "io.vertx.", "reactor.", "io.reactivex.", "com.lmax.", "org.apache.pekko.", "scala.",
            "com.fasterxml.", "dev.blocklab.backend.", "dev.blocklab.datastore.");

    /**
     * The kind of thread, from what JFR records of it and its stack.
     *
     * @param stack innermost frame first; a bottom {@code ForkJoinWorkerThread.run} marks a fork-join worker
     *              whose pool gave it a custom name
     */
    public static ThreadKind kind(String name, boolean virtual, String group, List<Frame> stack) {
        if (virtual) return ThreadKind.VIRTUAL;
        if (CARRIER_GROUP.equals(group) || hasFrame(stack, "java.lang.VirtualThread", "runContinuation")) return ThreadKind.CARRIER;
        if (EVENT_LOOP.matcher(name).matches()) return ThreadKind.EVENT_LOOP;
        if (COMMON_POOL.matcher(name).matches()) return ThreadKind.COMMON_POOL;
        if (FORK_JOIN.matcher(name).matches() || hasFrame(stack, "java.util.concurrent.ForkJoinWorkerThread", "run"))
            return ThreadKind.FORK_JOIN;
        return ThreadKind.OTHER;
    }

    public static ThreadKind kind(Blocking b) { return kind(b.threadName(), b.virtual(), b.threadGroup(), b.stack()); }

    /** True when the stack shows a thread waiting for work rather than blocked in a task. */
    public static boolean idle(List<Frame> stack) {
        for (Frame f : stack) for (Frame i : IDLE) if (f.is(i.className(), i.method())) return true;
        return false;
    }

    /** True when the stack shows the JVM loading a class (see {@link #CLASS_LOADING}). */
    public static boolean classLoading(List<Frame> stack) {
        for (Frame f : stack) for (Frame c : CLASS_LOADING) if (f.is(c.className(), c.method())) return true;
        return false;
    }

    /**
     * True when the stack is inside JFR itself (registering an event class waits on the recorder's metadata
     * lock, which the audit's own stream holds at times): the auditor's cost, not the code's.
     */
    public static boolean recorder(List<Frame> stack) {
        for (Frame f : stack) if (f.className().startsWith("jdk.jfr.internal.")) return true;
        return false;
    }

    /** True when the blocking went through {@code ForkJoinPool.managedBlock}, so the pool could compensate. */
    public static boolean managed(List<Frame> stack) {
        return hasFrame(stack, "java.util.concurrent.ForkJoinPool", "managedBlock")
                || hasFrame(stack, "java.util.concurrent.ForkJoinPool", "compensatedBlock");
    }

    /**
     * The rule this blocking breaks, or empty when it breaks none: a pinned virtual thread always does; a
     * watchdog stall on an event loop or a carrier does; otherwise a block on an event loop, or on a fork-join
     * worker outside {@code ManagedBlocker}, unless the thread was idle (waiting for work) or loading a class.
     * A socket read or write under Netty's transport is non-blocking I/O (Netty's channels are non-blocking; JFR
     * times the system call, descheduling included) and is not flagged; neither is monitor contention or a monitor
     * wait with no frame outside the JDK and the frameworks (their own locks: nothing in the code to change).
     * On a fork-join worker other than the common pool's, contention for a monitor ({@code jdk.JavaMonitorEnter})
     * is not flagged: the thread holding it is running, and {@code ManagedBlocker} cannot wrap it anyway.
     */
    public static Optional<Rule> rule(Blocking b) {
        ThreadKind kind = kind(b);
        if (b.event().equals("jdk.VirtualThreadPinned")) return Optional.of(Rule.VIRTUAL_THREAD_PINNED);
        if (b.event().equals(Blocking.WATCHDOG)) return switch (kind) {
            case EVENT_LOOP -> Optional.of(Rule.STALLED_EVENT_LOOP);
            case CARRIER, VIRTUAL -> Optional.of(Rule.STALLED_CARRIER);
            default -> Optional.empty();
        };
        if (idle(b.stack()) || classLoading(b.stack()) || recorder(b.stack())) return Optional.empty();
        if (b.event().startsWith("jdk.Socket") && hasClassPrefix(b.stack(), "io.netty.channel.")) return Optional.empty();
        if (b.event().startsWith("jdk.JavaMonitor") && b.stack().stream().allMatch(Classifier::library)) return Optional.empty();
        return switch (kind) {
            case EVENT_LOOP -> Optional.of(Rule.BLOCKING_ON_EVENT_LOOP);
            case COMMON_POOL -> managed(b.stack()) ? Optional.empty() : Optional.of(Rule.BLOCKING_ON_COMMON_POOL);
            case FORK_JOIN -> managed(b.stack()) || b.event().equals("jdk.JavaMonitorEnter") ? Optional.empty()
                    : Optional.of(Rule.FORK_JOIN_WITHOUT_MANAGED_BLOCKER);
            default -> Optional.empty();
        };
    }

    /** The innermost frame outside the JDK and the frameworks: the line that blocked; the top frame otherwise. */
    public static Optional<Frame> culprit(List<Frame> stack) {
        for (Frame f : stack) if (!library(f)) return Optional.of(f);
        return stack.stream().findFirst();
    }

    /** The frames to show: from the culprit down, at most {@code max}, with the library frames above it dropped. */
    public static List<Frame> topFrames(List<Frame> stack, int max) {
        int from = 0;
        for (int i = 0; i < stack.size(); i++) if (!library(stack.get(i))) { from = i; break; }
        return List.copyOf(stack.subList(from, Math.min(stack.size(), from + max)));
    }

    private static boolean library(Frame f) {
        if (f.className().contains("$$Lambda")) return true;   // a lambda's generated class: no line to show, its caller has one
        for (String p : LIBRARY) if (f.className().startsWith(p)) return true;
        return false;
    }

    private static boolean hasClassPrefix(List<Frame> stack, String prefix) {
        for (Frame f : stack) if (f.className().startsWith(prefix)) return true;
        return false;
    }

    private static boolean hasFrame(List<Frame> stack, String className, String method) {
        for (Frame f : stack) if (f.is(className, method)) return true;
        return false;
    }
}
