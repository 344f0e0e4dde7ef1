package dev.blocklab.workload;

import java.util.List;
import java.util.Objects;

/**
 * One node of a request's graph. A step reads the values of the steps named in {@link #inputs()} (or the
 * request's own input, named {@value Graph#INPUT}) and produces one value.
 */
public sealed interface Step {

    /** Unique within its graph. */
    String name();

    /** Names of earlier steps (or {@value Graph#INPUT}) whose values this step reads. */
    List<String> inputs();

    /**
     * A downstream call: waits {@code latency} (holding a thread in its blocking form, none in its non-blocking
     * form), then returns {@link #returns()} or fails.
     *
     * @param returns            what the call answers
     * @param failureProbability chance in [0, 1] that the call fails with {@code failure}
     * @param failure            the failure to raise (forced when {@code failureProbability} is 1)
     * @param timeoutNanos       the caller gives up after this long (0: no timeout)
     * @param operation          what the call does on a real server (SQL or Redis), or null for a simulated call;
     *                           with an operation, {@code latency} is only what predictions expect and
     *                           {@code returns} is unused (the server answers)
     */
    record Call(String name, List<String> inputs, Latency latency, Value returns,
                double failureProbability, FailureSpec failure, long timeoutNanos, Operation operation) implements Step {
        public Call {
            Objects.requireNonNull(name, "name");
            inputs = List.copyOf(inputs);
            Objects.requireNonNull(latency, "latency");
            Objects.requireNonNull(returns, "returns");
            if (!(failureProbability >= 0 && failureProbability <= 1))
                throw new IllegalArgumentException("call '" + name + "': failure probability must be in [0, 1], got " + failureProbability);
            if (failureProbability > 0 && failure == null) failure = FailureSpec.DEFAULT;
            if (timeoutNanos < 0) throw new IllegalArgumentException("call '" + name + "': timeout must be >= 0");
        }

        /** A simulated call. */
        public Call(String name, List<String> inputs, Latency latency, Value returns,
                    double failureProbability, FailureSpec failure, long timeoutNanos) {
            this(name, inputs, latency, returns, failureProbability, failure, timeoutNanos, null);
        }

        /** A call of fixed latency that answers a constant and never fails. */
        public static Call fixed(String name, long latencyNanos, Object constant) {
            return new Call(name, List.of(), new Latency.Fixed(latencyNanos), new Value.Constant(constant), 0, null, 0);
        }
    }

    /** Real CPU work on the thread that runs the step; passes its inputs through (see {@link Value.Sum}). */
    record Cpu(String name, List<String> inputs, CpuKind kind, int size) implements Step {
        /** The largest size: 16 Mi (a sort holds size ints, 64 MiB, per request at once). */
        public static final int MAX_SIZE = 1 << 24;

        public Cpu {
            Objects.requireNonNull(name, "name");
            inputs = List.copyOf(inputs);
            Objects.requireNonNull(kind, "kind");
            if (size < 0) throw new IllegalArgumentException("cpu step '" + name + "': size must be >= 0, got " + size);
            if (size > MAX_SIZE) throw new IllegalArgumentException("cpu step '" + name + "': size must be at most " + MAX_SIZE + ", got " + size);
        }
    }

    /** A pure function of its inputs, computed on whichever thread completes the last input. */
    record Combine(String name, List<String> inputs, Value function) implements Step {
        public Combine {
            Objects.requireNonNull(name, "name");
            inputs = List.copyOf(inputs);
            Objects.requireNonNull(function, "function");
        }
    }

    /** Kinds of CPU work. */
    enum CpuKind { HASH, SORT }

    /** What a failing call throws: an exception class (with a String constructor) and its message. */
    record FailureSpec(String type, String message) {
        public static final FailureSpec DEFAULT = new FailureSpec(IllegalStateException.class.getName(), "downstream failure");

        public FailureSpec {
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(message, "message");
        }
    }
}
