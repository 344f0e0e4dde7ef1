package dev.blocklab.capacity;

import dev.blocklab.model.ModelSpec;
import dev.blocklab.server.ServerProfile;

/** One thing whose capacity is searched: a model or variant run in this process, or a server profile over HTTP. */
public sealed interface Entry {

    /** The name in reports, e.g. {@code fixed:8}, {@code reactor}, {@code http:play-2.5/sync-blocking}. */
    String name();

    /**
     * A model or framework variant of the registry, run by the in-process driver.
     *
     * @param name the name as written, e.g. {@code virtual} on seed 002's use case for {@code frameworks-virtual}
     * @param spec the parsed registry entry, which makes a fresh instance per run
     */
    record InProcess(String name, ModelSpec spec) implements Entry {}

    /**
     * A blocklab server with a profile, attacked over HTTP on one endpoint by blocklab's own load generator.
     *
     * @param profile  the server profile ({@code play-2.5}, {@code threads:N}, {@code virtual}, {@code event-loop})
     * @param endpoint the talk's endpoint, e.g. {@code /sync-blocking}
     */
    record Http(String name, ServerProfile profile, String endpoint) implements Entry {}
}
