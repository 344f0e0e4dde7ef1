package dev.blocklab.attack;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One request to send: method, absolute {@code http://} URL, headers in order, and a body (empty for none).
 * Immutable; the body is copied in and out.
 */
public record Target(String method, URI url, List<Map.Entry<String, String>> headers, byte[] body) {

    public Target {
        if (method == null || !method.matches("[A-Z]+"))
            throw new IllegalArgumentException("'" + method + "' is not an HTTP method (e.g. GET, POST)");
        checkUrl(url);
        headers = List.copyOf(headers);
        body = body == null ? new byte[0] : body.clone();
    }

    /** A GET without headers or body. */
    public static Target get(String url) {
        return new Target("GET", parseUrl(url), List.of(), new byte[0]);
    }

    @Override public byte[] body() { return body.clone(); }

    /** The body's length in bytes, without copying it. */
    public int bodyLength() { return body.length; }

    /** The body itself for the transports; callers must not modify it. */
    byte[] bodyUnsafe() { return body; }

    /** The port, with 80 for a URL without one. */
    public int port() { return url.getPort() < 0 ? 80 : url.getPort(); }

    /** Path and query as sent on the request line. */
    public String pathAndQuery() {
        String p = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
        return url.getRawQuery() == null ? p : p + "?" + url.getRawQuery();
    }

    /** {@code Get http://host/path}, vegeta's prefix of an error line. */
    public String label() {
        return method.charAt(0) + method.substring(1).toLowerCase(Locale.ROOT) + " " + url;
    }

    /** Parses an absolute {@code http://host[:port]/path} URL, or throws naming the text. */
    public static URI parseUrl(String text) {
        try {
            URI uri = new URI(text.trim());
            checkUrl(uri);
            return uri;
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("'" + text + "' is not a URL (" + e.getReason() + "); use e.g. http://127.0.0.1:8080/path");
        }
    }

    private static void checkUrl(URI uri) {
        if (uri == null) throw new IllegalArgumentException("a target needs a URL");
        if (uri.getScheme() == null || uri.getHost() == null)
            throw new IllegalArgumentException("'" + uri + "' is not an absolute URL; use e.g. http://127.0.0.1:8080/path");
        if (!uri.getScheme().equalsIgnoreCase("http"))
            throw new IllegalArgumentException("'" + uri + "': only http:// targets are supported, not " + uri.getScheme() + "://");
        if (uri.getPort() > 65535) throw new IllegalArgumentException("'" + uri + "': port out of range");
    }

    @Override public boolean equals(Object o) {
        return o instanceof Target t && method.equals(t.method) && url.equals(t.url) && headers.equals(t.headers)
                && Arrays.equals(body, t.body);
    }

    @Override public int hashCode() { return (method.hashCode() * 31 + url.hashCode()) * 31 + Arrays.hashCode(body); }

    @Override public String toString() { return method + " " + url + (body.length > 0 ? " (" + body.length + " bytes)" : ""); }
}
