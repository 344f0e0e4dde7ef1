package dev.blocklab.cli;

import dev.blocklab.Defaults;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.util.Map;

/**
 * Every option's default, in one table read from {@link Defaults}: picocli asks here before it looks at an
 * option's own {@code defaultValue}, and {@code ${DEFAULT-VALUE}} in help shows the answer. Keys are
 * {@code "COMMAND --option"} for a default that depends on the command, or {@code "--option"} for all commands.
 */
final class CommandDefaults implements CommandLine.IDefaultValueProvider {
    static final Map<String, String> DEFAULTS = Map.ofEntries(
            Map.entry("--seed", "" + Defaults.SEED),
            Map.entry("--time-scale", "" + Defaults.TIME_SCALE),
            Map.entry("reproduce --time-scale", "" + Defaults.QUICK_TIME_SCALE),
            Map.entry("--warmups", "" + Defaults.WARMUPS),
            Map.entry("--repeats", "" + Defaults.REPEATS),
            Map.entry("--spare-threads", "" + Defaults.SPARE_THREADS),
            Map.entry("--host", Defaults.HOST),
            Map.entry("serve --port", "" + Defaults.SERVE_PORT),
            Map.entry("backend --port", "" + Defaults.BACKEND_PORT),
            Map.entry("--queue", "" + Defaults.SERVE_QUEUE),
            Map.entry("--db-pool", "" + Defaults.DB_POOL),
            Map.entry("--redis-pool", "" + Defaults.REDIS_POOL),
            Map.entry("--pool-timeout", Defaults.POOL_TIMEOUT),
            Map.entry("--pg-async-client", "vertx"),
            Map.entry("--audit-threshold", Defaults.AUDIT_THRESHOLD),
            Map.entry("--audit-stall", Defaults.AUDIT_STALL),
            Map.entry("attack --duration", Defaults.ATTACK_DURATION),
            Map.entry("attack --timeout", Defaults.ATTACK_TIMEOUT),
            Map.entry("attack --late-threshold", Defaults.ATTACK_LATE_THRESHOLD),
            Map.entry("--max-connections", "" + Defaults.ATTACK_MAX_CONNECTIONS));

    @Override public String defaultValue(ArgSpec arg) {
        if (!(arg instanceof OptionSpec option) || arg.command() == null) return null;
        String name = option.longestName();
        String command = arg.command().name();
        String value = DEFAULTS.get(command + " " + name);
        return value != null ? value : DEFAULTS.get(name);
    }
}
