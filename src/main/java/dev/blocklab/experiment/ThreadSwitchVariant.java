package dev.blocklab.experiment;

import java.util.function.Supplier;

/** Which threads make up a {@link ThreadRing}, and how one signals the next. */
enum ThreadSwitchVariant {
    PLATFORM_FUTURE("platform-future", false, RingSignal.FutureSignal::new,
            "platform threads, a fresh CompletableFuture per turn, as the article"),
    PLATFORM_MONITOR("platform-monitor", false, RingSignal.MonitorSignal::new,
            "platform threads, synchronized wait/notify"),
    VIRTUAL_FUTURE("virtual-future", true, RingSignal.FutureSignal::new,
            "virtual threads, a fresh CompletableFuture per turn"),
    VIRTUAL_CONDITION("virtual-condition", true, RingSignal.ConditionSignal::new,
            "virtual threads, a ReentrantLock and Condition");

    private final String label;
    private final boolean virtual;
    private final Supplier<RingSignal> signals;
    private final String description;

    ThreadSwitchVariant(String label, boolean virtual, Supplier<RingSignal> signals, String description) {
        this.label = label;
        this.virtual = virtual;
        this.signals = signals;
        this.description = description;
    }

    /** The name in tables and JSON rows, e.g. {@code platform-future}. */
    String label() { return label; }

    boolean virtual() { return virtual; }

    String description() { return description; }

    RingSignal newSignal() { return signals.get(); }

    /** An unstarted thread of this variant's kind, named {@code ring-<label>-<index>}. */
    Thread newThread(int index, Runnable body) {
        String name = "ring-" + label + "-" + index;
        return virtual ? Thread.ofVirtual().name(name).unstarted(body)
                : Thread.ofPlatform().name(name).daemon(true).unstarted(body);
    }
}
