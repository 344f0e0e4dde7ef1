package dev.blocklab.server;

import io.netty.handler.codec.http.HttpMessage;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.impl.VertxHttpRequestDecoder;

/**
 * Vert.x's HTTP/1 request decoder, except that a request carrying both {@code Content-Length} and
 * {@code Transfer-Encoding} is marked (instead of failing in the decoder, or silently losing its
 * {@code Content-Length}), so the server can refuse it with 400, say why, and close the connection: a front end
 * that trusted the length would see a different request boundary (request smuggling).
 */
final class StrictRequestDecoder extends VertxHttpRequestDecoder {
    /** The header marking a request that had both; set only by this decoder. */
    static final String LENGTH_CONFLICT = "x-blocklab-length-conflict";

    StrictRequestDecoder(HttpServerOptions options) { super(options); }

    /**
     * A malformed chunk (an invalid chunk size) reaches Vert.x as an ordinary end of the body, instead of a
     * failure on which Vert.x closes the connection before the answer is flushed: the server has already refused
     * the chunked request with 400 and closes the connection after that answer (this decoder then discards the
     * rest of the connection's bytes, as Netty does after a bad message).
     */
    @Override protected void decode(io.netty.channel.ChannelHandlerContext ctx, io.netty.buffer.ByteBuf buffer,
                                    java.util.List<Object> out) throws Exception {
        int before = out.size();
        super.decode(ctx, buffer, out);
        for (int i = before; i < out.size(); i++) {
            if (out.get(i) instanceof io.netty.handler.codec.http.HttpContent content && !(content instanceof HttpMessage)
                    && content.decoderResult().isFailure()) {
                content.release();
                out.set(i, io.netty.handler.codec.http.LastHttpContent.EMPTY_LAST_CONTENT);
            }
        }
    }

    /**
     * Marks the request and reads it as chunked without its length, closing the connection after the answer, so
     * the server can say why it refuses it: Netty 4.2.18's own default under RFC 9112 throws here, and Vert.x then
     * answers a bare 400 without a reason.
     */
    @Override protected void handleTransferEncodingChunkedWithContentLength(HttpMessage message) {
        message.headers().set(LENGTH_CONFLICT, "1");
        clearContentLength();
        message.headers().remove(io.netty.handler.codec.http.HttpHeaderNames.CONTENT_LENGTH);
        io.netty.handler.codec.http.HttpUtil.setKeepAlive(message, false);
    }

    /** Puts this decoder in place of Vert.x's on a new connection (before it has read a byte). */
    static void install(io.vertx.core.http.HttpConnection connection, HttpServerOptions options) {
        if (connection instanceof io.vertx.core.net.impl.ConnectionBase base
                && base.channel().pipeline().get("httpDecoder") instanceof VertxHttpRequestDecoder)
            base.channel().pipeline().replace("httpDecoder", "httpDecoder", new StrictRequestDecoder(options));
    }
}
