package dev.blocklab.capacity;

import dev.blocklab.frameworks.FrameworkVariants;
import dev.blocklab.frameworks.FrameworksUseCase;
import dev.blocklab.model.Models;
import dev.blocklab.server.ServerProfile;

import java.util.List;
import java.util.Set;

/**
 * The one adapter between capacity and the registries of models ({@link Models}) and framework variants
 * ({@link FrameworkVariants}); server profiles are written {@code http:PROFILE/ENDPOINT}. When the registries
 * become one, only this class changes.
 */
public final class Entries {
    /** The Play talk's endpoints, served by {@code blocklab serve}. */
    public static final Set<String> ENDPOINTS = Set.of("/sync-blocking", "/async-blocking", "/async-non-blocking");
    /** The HTTP entries' prefix. */
    public static final String HTTP = "http:";

    private Entries() {}

    /**
     * Resolves each name; an unknown one is one line naming it and what is known. For seed 002's use case
     * ({@code variantsFirst}) a name that is both a model and a variant ({@code virtual}, {@code structured},
     * {@code sequential}) is the variant.
     */
    public static List<Entry> resolve(List<String> names, boolean variantsFirst) {
        return names.stream().map(n -> variantsFirst && isVariant(n) ? variant(n) : resolve(n)).toList();
    }

    private static boolean isVariant(String name) {
        try {
            FrameworkVariants.named(name, FrameworkVariants.ARTICLE_POOL_200MS);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    public static Entry resolve(String name) {
        if (name.startsWith(HTTP)) {
            String rest = name.substring(HTTP.length());
            int slash = rest.indexOf('/');
            if (slash <= 0) throw new IllegalArgumentException("entry '" + name + "': write http:PROFILE/ENDPOINT, e.g. http:play-2.5/sync-blocking");
            String endpoint = rest.substring(slash);
            if (!ENDPOINTS.contains(endpoint))
                throw new IllegalArgumentException("entry '" + name + "': unknown endpoint " + endpoint + " (known: " + ENDPOINTS.stream().sorted().toList() + ")");
            return new Entry.Http(name, ServerProfile.parse(rest.substring(0, slash)), endpoint);
        }
        try {
            Models.parse(name);
            return new Entry.InProcess(name, "model", context -> Models.create(name, context));
        } catch (IllegalArgumentException notAModel) {
            if (!isVariant(name))
                throw new IllegalArgumentException("unknown entry '" + name + "': not a model (" + notAModel.getMessage()
                        + "), not a framework variant, not http:PROFILE/ENDPOINT");
            return variant(name);
        }
    }

    private static Entry variant(String name) {
        FrameworkVariants.Variant variant = FrameworkVariants.named(name, FrameworkVariants.ARTICLE_POOL_200MS);
        if (variant.unavailable().isPresent())
            throw new IllegalArgumentException("entry '" + name + "' is unavailable: " + variant.unavailable().get());
        return new Entry.InProcess(name, "variant", context -> variant.create(context.backend(), new FrameworksUseCase()));
    }

    /** True when {@code entry} runs only seed 002's use case (a framework variant). */
    public static boolean needsFrameworksUseCase(Entry entry) {
        return entry instanceof Entry.InProcess p && p.kind().equals("variant");
    }
}
