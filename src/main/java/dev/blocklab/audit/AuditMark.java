package dev.blocklab.audit;

import jdk.jfr.Category;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** Committed by {@link Auditor#finish()} and {@link Auditor#soFar()}: once the stream delivers it, every earlier event has been delivered. */
@Name("blocklab.AuditMark")
@Label("blocklab audit mark")
@Category("blocklab")
@StackTrace(false)
final class AuditMark extends jdk.jfr.Event {
    @Label("mark") long mark;
}
