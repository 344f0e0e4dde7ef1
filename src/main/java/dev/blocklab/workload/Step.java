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
     * @param attempts           how the caller attempts the call: once, retried after a failure, or hedged when slow
     *                           (docs/workloads.md, "Retries and hedged requests")
     */
    record Call(String name, List<String> inputs, Latency latency, Value returns,
                double failureProbability, FailureSpec failure, long timeoutNanos, Operation operation,
                Attempts attempts) implements Step {
        public Call {
            if (attempts == null) attempts = Attempts.ONCE;
            if (operation != null && !(attempts instanceof Attempts.Once))
                throw new IllegalArgumentException("call '" + name + "': retry and hedge are for simulated calls, not sql or redis");
            Objects.requireNonNull(name, "name");
            inputs = List.copyOf(inputs);
            Objects.requireNonNull(latency, "latency");
            Objects.requireNonNull(returns, "returns");
            if (!(failureProbability >= 0 && failureProbability <= 1))
                throw new IllegalArgumentException("call '" + name + "': failure probability must be in [0, 1], got " + failureProbability);
            if (failureProbability > 0 && failure == null) failure = FailureSpec.DEFAULT;
            if (timeoutNanos < 0) throw new IllegalArgumentException("call '" + name + "': timeout must be >= 0");
        }

        /**
         * One of this call's durations (its latency, its timeout) at a time scale: divided for a simulated call,
         * whole for an operation on a real server ({@code sql:}, {@code redis:}), which no scale speeds up.
         */
        public long scaled(long nanos, long timeScaleDivisor) {
            return operation != null ? nanos : nanos / timeScaleDivisor;
        }

        /** A call attempted once. */
        public Call(String name, List<String> inputs, Latency latency, Value returns,
                    double failureProbability, FailureSpec failure, long timeoutNanos, Operation operation) {
            this(name, inputs, latency, returns, failureProbability, failure, timeoutNanos, operation, Attempts.ONCE);
        }

        /** A simulated call attempted once. */
        public Call(String name, List<String> inputs, Latency latency, Value returns,
                    double failureProbability, FailureSpec failure, long timeoutNanos) {
            this(name, inputs, latency, returns, failureProbability, failure, timeoutNanos, null);
        }

        /** This call with its timeout replaced, everything else kept. */
        public Call withTimeoutNanos(long nanos) {
            return new Call(name, inputs, latency, returns, failureProbability, failure, nanos, operation, attempts);
        }

        /** This call attempted as {@code how}, everything else kept. */
        public Call withAttempts(Attempts how) {
            return new Call(name, inputs, latency, returns, failureProbability, failure, timeoutNanos, operation, how);
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

    /**
     * How a caller attempts one call. Every attempt is a full call of its own, with its own latency and failure
     * drawn from (seed, request, step, attempt) and the call's {@code timeout} for itself; attempt 0 draws what
     * the call draws without this option, so adding it changes no first attempt. Times are before the time scale.
     */
    sealed interface Attempts {
        /** Once: the default. */
        Attempts ONCE = new Once();

        /** The most attempts a call may make, retries and hedges alike. */
        int MAX_ATTEMPTS = 10;

        /** Attempts the call may make at most. */
        int max();

        /** One attempt; its outcome is the call's. */
        record Once() implements Attempts {
            @Override public int max() { return 1; }
        }

        /**
         * After a failed attempt (its failure or its timeout), waits and tries again, up to {@code attempts} in all;
         * the wait before attempt k (from 1) is {@code backoffNanos × 2^(k-1)}. The call fails with its last
         * attempt's failure.
         */
        record Retry(int attempts, long backoffNanos) implements Attempts {
            public Retry {
                if (attempts < 2 || attempts > MAX_ATTEMPTS)
                    throw new IllegalArgumentException("retry: attempts must be from 2 to " + MAX_ATTEMPTS + " (the first call counts), got " + attempts);
                if (backoffNanos < 0) throw new IllegalArgumentException("retry: backoff must be >= 0");
            }

            @Override public int max() { return attempts; }

            /** The wait before attempt {@code k} (1 for the first retry). */
            public long backoffBeforeNanos(int k) { return backoffNanos << Math.min(k - 1, 20); }
        }

        /**
         * When attempt 0 has not answered {@code afterNanos} after it started, sends attempt 1 beside it; the first
         * successful answer is the call's, and the other attempt is cancelled. A failure of one attempt waits for
         * the other; when both fail, the call fails with attempt 0's failure. An attempt 0 that fails before
         * {@code afterNanos} fails the call (a hedge is for slowness, not failure: that is what retry is for).
         */
        record Hedge(long afterNanos) implements Attempts {
            public Hedge {
                if (afterNanos <= 0) throw new IllegalArgumentException("hedge: 'after' must be longer than 0");
            }

            @Override public int max() { return 2; }
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
