package dev.blocklab.attack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads vegeta's "http" target format: blocks separated by blank lines, each a request line
 * {@code METHOD URL}, then optional {@code Name: value} header lines, then an optional {@code @FILE} body line
 * (relative to the targets file). Lines starting with {@code #} are comments. Requests go round-robin over the
 * targets in file order.
 */
public final class Targets {
    private Targets() {}

    /**
     * Parses {@code file}; every error names the file and line. Headers and a body given here win over
     * {@code defaultHeaders} (added to every target) and {@code defaultBody} (for targets without one).
     */
    public static List<Target> load(Path file, List<Map.Entry<String, String>> defaultHeaders, byte[] defaultBody) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("--targets: cannot read " + file + ": " + dev.blocklab.TextFiles.reason(e));
        }
        return parse(file.toString(), lines, file.toAbsolutePath().getParent(), defaultHeaders, defaultBody);
    }

    static List<Target> parse(String name, List<String> lines, Path baseDir,
                              List<Map.Entry<String, String>> defaultHeaders, byte[] defaultBody) {
        List<Target> targets = new ArrayList<>();
        String method = null, url = null;
        List<Map.Entry<String, String>> headers = new ArrayList<>();
        byte[] body = null;
        int requestLine = 0;
        for (int i = 0; i <= lines.size(); i++) {
            String line = i < lines.size() ? lines.get(i).strip() : "";
            String where = name + ":" + (i + 1);
            if (line.startsWith("#")) continue;
            if (line.isEmpty()) {
                if (method != null) {
                    targets.add(build(name + ":" + requestLine, method, url, headers, body, defaultHeaders, defaultBody));
                    method = null;
                    headers = new ArrayList<>();
                    body = null;
                }
                continue;
            }
            if (method == null) {
                String[] parts = line.split("\\s+");
                if (parts.length != 2) throw new IllegalArgumentException(where + ": expected 'METHOD URL', got '" + line + "'");
                method = parts[0];
                url = parts[1];
                requestLine = i + 1;
            } else if (line.startsWith("@")) {
                if (body != null) throw new IllegalArgumentException(where + ": a second body line");
                Path bodyFile = baseDir == null ? Path.of(line.substring(1)) : baseDir.resolve(line.substring(1));
                try {
                    body = Files.readAllBytes(bodyFile);
                } catch (IOException e) {
                    throw new IllegalArgumentException(where + ": cannot read body " + bodyFile + ": " + dev.blocklab.TextFiles.reason(e));
                }
            } else {
                if (body != null) throw new IllegalArgumentException(where + ": header after the body line");
                headers.add(header(where, line));
            }
        }
        if (targets.isEmpty()) throw new IllegalArgumentException(name + ": no targets (expected lines such as 'GET http://127.0.0.1:8080/')");
        return List.copyOf(targets);
    }

    /** Parses {@code Name: value}; {@code where} prefixes the error (a flag or file:line). */
    public static Map.Entry<String, String> header(String where, String text) {
        int colon = text.indexOf(':');
        if (colon <= 0 || text.substring(0, colon).isBlank() || !text.substring(0, colon).strip().matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+"))
            throw new IllegalArgumentException(where + ": '" + text + "' is not a header (expected 'Name: value')");
        return new AbstractMap.SimpleImmutableEntry<>(text.substring(0, colon).strip(), text.substring(colon + 1).strip());
    }

    private static Target build(String where, String method, String url, List<Map.Entry<String, String>> headers,
                                byte[] body, List<Map.Entry<String, String>> defaultHeaders, byte[] defaultBody) {
        List<Map.Entry<String, String>> all = new ArrayList<>(defaultHeaders);
        all.addAll(headers);
        try {
            return new Target(method, Target.parseUrl(url), all, body != null ? body : defaultBody);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage());
        }
    }
}
