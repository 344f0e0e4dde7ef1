package dev.blocklab.attack;

import org.junit.jupiter.api.Test;

import java.net.UnknownHostException;

import static org.assertj.core.api.Assertions.assertThat;

class TransportDescribeTest {
    @Test void describe_namesTheRootCause_andAnUnknownHostAsOne() {
        assertThat(Transport.describe(new RuntimeException("wrapped", new UnknownHostException("nosuchhost.invalid"))))
                .isEqualTo("lookup nosuchhost.invalid: no such host");
        // Netty's resolver already says what happened: kept as it is
        assertThat(Transport.describe(new UnknownHostException("Failed to resolve 'x.invalid' [A(1)] after 2 queries")))
                .isEqualTo("Failed to resolve 'x.invalid' [A(1)] after 2 queries");
        assertThat(Transport.describe(new RuntimeException(new java.net.ConnectException()))).isEqualTo("ConnectException");
        // the JDK client's refused connection, not the channel closed under it
        assertThat(Transport.describe(new java.io.IOException("x", (Throwable) new java.net.ConnectException().initCause(new java.nio.channels.ClosedChannelException()))))
                .isEqualTo("Connection refused");
        assertThat(Transport.describe(new java.net.ConnectException("Connection refused: /127.0.0.1:9"))).isEqualTo("Connection refused: /127.0.0.1:9");
        assertThat(Transport.describe(new RuntimeException("x".repeat(300)))).hasSize(200);
    }
}
