package dev.blocklab.result;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Locale;

/**
 * How requests arrived in a run, which decides what its prediction is of: a batch's prediction is the batch's
 * wall time, an open or closed arrival's prediction is one request's time. Written to JSON as {@code batch},
 * {@code open} or {@code closed}.
 */
public enum ArrivalKind {
    /** All requests submitted at once. */
    BATCH,
    /** Requests sent on a schedule whatever the answers (open model). */
    OPEN,
    /** A fixed number of users, each sending again after its answer (closed model). */
    CLOSED;

    @JsonValue public String json() { return name().toLowerCase(Locale.ROOT); }

    @JsonCreator public static ArrivalKind parse(String name) { return valueOf(name.toUpperCase(Locale.ROOT)); }

    /**
     * The kind an arrival label starts with ({@code batch 1000}, {@code open 100/s}, {@code closed 8 users}); only
     * for results saved before the kind was written beside the label.
     */
    static ArrivalKind ofLabel(String label) {
        String first = label.strip().split("[\\s(:]", 2)[0];
        for (ArrivalKind k : values()) if (first.equalsIgnoreCase(k.name())) return k;
        throw new IllegalArgumentException("no arrival kind in the label '" + label + "' (expected batch, open or closed first)");
    }
}
