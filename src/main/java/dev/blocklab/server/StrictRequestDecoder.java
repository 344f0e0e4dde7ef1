package dev.blocklab.server;

import io.netty.handler.codec.http.HttpMessage;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.impl.VertxHttpRequestDecoder;

/**
 * Vert.x's HTTP/1 request decoder, except that a request carrying both {@code Content-Length} and
 * {@code Transfer-Encoding} is marked instead of silently losing its {@code Content-Length} (Netty's default,
 * which RFC 9112 allows), so the server can refuse it with 400 and close the connection: a front end that
 * trusted the length would see a different request boundary (request smuggling).
 */
final class StrictRequestDecoder extends VertxHttpRequestDecoder {
    /** The header marking a request that had both; set only by this decoder. */
    static final String LENGTH_CONFLICT = "x-blocklab-length-conflict";

    StrictRequestDecoder(HttpServerOptions options) { super(options); }

    @Override protected void handleTransferEncodingChunkedWithContentLength(HttpMessage message) {
        message.headers().set(LENGTH_CONFLICT, "1");
        super.handleTransferEncodingChunkedWithContentLength(message);
    }

    /** Puts this decoder in place of Vert.x's on a new connection (before it has read a byte). */
    static void install(io.vertx.core.http.HttpConnection connection, HttpServerOptions options) {
        if (connection instanceof io.vertx.core.net.impl.ConnectionBase base
                && base.channel().pipeline().get("httpDecoder") instanceof VertxHttpRequestDecoder)
            base.channel().pipeline().replace("httpDecoder", "httpDecoder", new StrictRequestDecoder(options));
    }
}
