package dev.blocklab.capacity;

import dev.blocklab.model.ModelSpec;
import dev.blocklab.registry.Registry;
import dev.blocklab.server.ServerProfile;
import dev.blocklab.workload.Workload;

import java.util.List;
import java.util.Set;

/**
 * Resolves capacity's entries: a name of the {@link Registry} (a model or framework variant, run in this process),
 * or a server profile over HTTP, written {@code http:PROFILE/ENDPOINT}.
 */
public final class Entries {
    /** The Play talk's endpoints, served by {@code blocklab serve}. */
    public static final Set<String> ENDPOINTS = Set.of("/sync-blocking", "/async-blocking", "/async-non-blocking");
    /** The HTTP entries' prefix. */
    public static final String HTTP = "http:";

    private Entries() {}

    /** Resolves each name for runs of {@code workload}; see {@link #resolve(String, Workload)}. */
    public static List<Entry> resolve(List<String> names, Workload workload) {
        return names.stream().map(n -> resolve(n, workload)).toList();
    }

    /**
     * Resolves one name for runs of {@code workload}, through {@link Registry#parse(String, Workload)} (so on seed
     * 002's use case {@code virtual} is the framework variant), checked against the workload.
     *
     * @throws IllegalArgumentException one line naming the entry: unknown, malformed, unavailable on this JVM, or
     *                                  unable to run the workload (a framework variant off seed 002's use case, an
     *                                  HTTP entry, which serves the talk's profile page, with any other workload)
     */
    public static Entry resolve(String name, Workload workload) {
        if (name.startsWith(HTTP)) {
            Entry entry = http(name);
            if (!workload.equals(dev.blocklab.workload.BuiltInWorkloads.profilePage()))
                throw new IllegalArgumentException("entry '" + name + "' serves the talk's profile page over HTTP, not the workload "
                        + workload.name() + ": use --workload profile-page with http: entries, or a model (e.g. --entry virtual) for " + workload.name());
            return entry;
        }
        ModelSpec spec;
        try {
            spec = Registry.parse(name, workload);
        } catch (IllegalArgumentException e) {
            if (!e.getMessage().startsWith("unknown model")) throw e;
            throw new IllegalArgumentException("unknown entry '" + name + "': not a model or framework variant (" + e.getMessage()
                    + "), not http:PROFILE/ENDPOINT", e);
        }
        spec.entry().unavailable().ifPresent(why -> {
            throw new IllegalArgumentException("entry '" + name + "' is unavailable: " + why);
        });
        return new Entry.InProcess(name, spec.check(workload));
    }

    private static Entry http(String name) {
        String rest = name.substring(HTTP.length());
        int slash = rest.indexOf('/');
        if (slash <= 0) throw new IllegalArgumentException("entry '" + name + "': write http:PROFILE/ENDPOINT, e.g. http:play-2.5/sync-blocking");
        String endpoint = rest.substring(slash);
        if (!ENDPOINTS.contains(endpoint))
            throw new IllegalArgumentException("entry '" + name + "': unknown endpoint " + endpoint + " (known: " + ENDPOINTS.stream().sorted().toList() + ")");
        ServerProfile profile;
        try {
            profile = ServerProfile.parse(rest.substring(0, slash));
        } catch (IllegalArgumentException e) {   // its message names serve's --profile, which capacity does not have
            throw new IllegalArgumentException("entry '" + name + "': " + e.getMessage().replaceFirst("^--profile:? ", ""));
        }
        return new Entry.Http(name, profile, endpoint);
    }
}
