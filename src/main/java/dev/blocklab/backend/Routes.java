package dev.blocklab.backend;

import dev.blocklab.workload.Durations;
import dev.blocklab.workload.Latency;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads routes written as one line each: a path, then {@code key=value} words.
 * <pre>
 * /user      delay=200ms body=Anton
 * /posts     delay=uniform(400ms,600ms) bytes=512
 * /followers delay=lognormal(20ms,300ms) failure-rate=0.01 failure-status=503
 * </pre>
 * Keys: {@code delay} (a duration, {@code uniform(MIN,MAX)} or {@code lognormal(P50,P99)}; default 0),
 * {@code status} (200), {@code failure-rate} (0), {@code failure-status} (500), {@code body} (text, no spaces)
 * and {@code bytes} (filler body size, 0). In a file, blank lines and lines starting with {@code #} are skipped.
 */
public final class Routes {
    private Routes() {}

    /** The talk's three downstream services (seed 001): user 200 ms, post count 500 ms, follower count 300 ms. */
    public static List<Route> profilePage() {
        return List.of(Route.fixed("/user", 200_000_000L, "Anton"),
                Route.fixed("/posts", 500_000_000L, "100"),
                Route.fixed("/followers", 300_000_000L, "2000"));
    }

    /**
     * Parses one route.
     *
     * @param where names the source in error messages, e.g. {@code --route} or {@code routes.txt:3}
     * @throws IllegalArgumentException one line naming {@code where} and the problem
     */
    public static Route parse(String line, String where) {
        String[] words = line.trim().split("\\s+");
        if (words.length == 0 || words[0].isEmpty()) throw new IllegalArgumentException(where + ": empty route");
        String path = words[0];
        Latency delay = new Latency.Fixed(0);
        int status = 200, failureStatus = 500, bytes = 0;
        double failureRate = 0;
        String body = null;
        try {
            for (int i = 1; i < words.length; i++) {
                int eq = words[i].indexOf('=');
                if (eq < 1) throw new IllegalArgumentException("'" + words[i] + "' is not key=value");
                String key = words[i].substring(0, eq), value = words[i].substring(eq + 1);
                switch (key) {
                    case "delay" -> delay = delay(value);
                    case "status" -> status = whole(key, value);
                    case "failure-rate" -> failureRate = fraction(key, value);
                    case "failure-status" -> failureStatus = whole(key, value);
                    case "body" -> body = value;
                    case "bytes" -> bytes = whole(key, value);
                    default -> throw new IllegalArgumentException("unknown key '" + key
                            + "' (known: delay, status, failure-rate, failure-status, body, bytes)");
                }
            }
            if (body != null && bytes > 0) throw new IllegalArgumentException("body and bytes are either/or: a fixed text or a filler of N bytes");
            return new Route(path, delay, status, failureRate, failureStatus, body, bytes);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": '" + line.trim() + "': " + e.getMessage());
        }
    }

    /** A whole number for {@code key}; the error says whether it is not one or out of range. */
    private static int whole(String key, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " '" + value + "' is " + (value.matches("[+-]?\\d+")
                    ? "out of range" : "not a whole number"));
        }
    }

    /** A decimal number for {@code key}. */
    private static double fraction(String key, String value) {
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " '" + value + "' is not a number");
        }
    }

    /** Parses a routes file; errors name the file and line, a path given twice included. */
    public static List<Route> load(Path file) {
        List<String> lines = dev.blocklab.TextFiles.lines(file, "routes file '" + file + "' cannot be read");
        List<Route> routes = new ArrayList<>();
        List<String> wheres = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).trim();
            if (line.isEmpty() || line.startsWith("#")) continue;
            routes.add(parse(line, file + ":" + (i + 1)));
            wheres.add(file + ":" + (i + 1));
        }
        return distinct(routes, wheres);
    }

    /**
     * {@code routes}, refused when two route one path: each is named by its {@code wheres} entry (a file's line, or
     * {@code --route '...'}), the second first.
     */
    public static List<Route> distinct(List<Route> routes, List<String> wheres) {
        Map<String, String> first = new java.util.HashMap<>();
        for (int i = 0; i < routes.size(); i++) {
            String earlier = first.putIfAbsent(routes.get(i).path(), wheres.get(i));
            if (earlier != null)
                throw new IllegalArgumentException(wheres.get(i) + ": " + routes.get(i).path() + " is already routed by " + earlier);
        }
        return routes;
    }

    /** Later routes replace earlier ones of the same path; order of first appearance is kept. */
    public static List<Route> merge(List<Route> base, List<Route> overrides) {
        Map<String, Route> byPath = new LinkedHashMap<>();
        base.forEach(r -> byPath.put(r.path(), r));
        overrides.forEach(r -> byPath.put(r.path(), r));
        return List.copyOf(byPath.values());
    }

    static Latency delay(String text) {
        if (text.startsWith("uniform(") && text.endsWith(")")) {
            String[] p = args(text, "uniform(");
            return new Latency.Uniform(Durations.parseNanos(p[0]), Durations.parseNanos(p[1]));
        }
        if (text.startsWith("lognormal(") && text.endsWith(")")) {
            String[] p = args(text, "lognormal(");
            return new Latency.LogNormal(Durations.parseNanos(p[0]), Durations.parseNanos(p[1]));
        }
        return new Latency.Fixed(Durations.parseNanos(text));
    }

    private static String[] args(String text, String prefix) {
        String[] p = text.substring(prefix.length(), text.length() - 1).split(",");
        if (p.length != 2) throw new IllegalArgumentException("'" + text + "' needs two durations, e.g. " + prefix + "10ms,50ms)");
        return p;
    }
}
