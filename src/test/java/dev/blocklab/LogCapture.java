package dev.blocklab;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The records one {@code java.util.logging} logger publishes while open, kept from its parents (so a test's expected
 * errors do not reach stderr); closing restores the logger.
 */
public final class LogCapture extends Handler implements AutoCloseable {
    private final Logger logger;
    private final boolean parents;
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();

    public LogCapture(String loggerName) {
        logger = Logger.getLogger(loggerName);
        parents = logger.getUseParentHandlers();
        logger.addHandler(this);
        logger.setUseParentHandlers(false);
    }

    /** The records published so far. */
    public List<LogRecord> records() { return records; }

    @Override public void publish(LogRecord r) { records.add(r); }

    @Override public void flush() {}

    @Override public void close() {
        logger.removeHandler(this);
        logger.setUseParentHandlers(parents);
    }
}
