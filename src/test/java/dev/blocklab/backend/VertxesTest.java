package dev.blocklab.backend;

import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class VertxesTest {

    private static String transportOf(String property) {
        String before = System.getProperty("blocklab.transport");
        if (property == null) System.clearProperty("blocklab.transport");
        else System.setProperty("blocklab.transport", property);
        Vertx vertx = Vertxes.create(new VertxOptions().setEventLoopPoolSize(1));
        try {
            return Vertxes.transport(vertx);
        } finally {
            Vertxes.awaitClose(vertx.close(), 10, "closing a test Vert.x");
            if (before == null) System.clearProperty("blocklab.transport");
            else System.setProperty("blocklab.transport", before);
        }
    }

    @Test
    void create_usesNativeEpollWhereItLoads_andNioWhenAskedOrElsewhere() {
        // the native library ships for Linux x86-64 only (pom.xml); anywhere else Vert.x falls back to NIO
        boolean epoll = io.netty.channel.epoll.Epoll.isAvailable();
        assertThat(transportOf(null)).isEqualTo(epoll ? "epoll" : "nio");
        assertThat(transportOf("nio")).isEqualTo("nio");
        if (System.getProperty("os.name").equals("Linux") && System.getProperty("os.arch").equals("amd64"))
            assertThat(epoll).as("Netty's epoll on Linux x86-64: " + io.netty.channel.epoll.Epoll.unavailabilityCause()).isTrue();
    }
}
