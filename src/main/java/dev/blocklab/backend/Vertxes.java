package dev.blocklab.backend;

import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;

/**
 * Creates the lab's Vert.x instances. Routes Vert.x's and Netty's logs to {@code java.util.logging} (standard
 * error), so warnings such as Vert.x's blocked-thread checker are seen rather than lost in a logging facade
 * without a provider.
 */
public final class Vertxes {
    static {
        if (System.getProperty("vertx.logger-delegate-factory-class-name") == null)
            System.setProperty("vertx.logger-delegate-factory-class-name", "io.vertx.core.logging.JULLogDelegateFactory");
        InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
    }

    private Vertxes() {}

    /** Sets up logging; call before any Vert.x or Netty class is used. Idempotent. */
    public static void init() {
        // the static initializer does the work
    }

    /** A new Vert.x instance with these options. */
    public static Vertx create(VertxOptions options) {
        return Vertx.vertx(options);
    }
}
