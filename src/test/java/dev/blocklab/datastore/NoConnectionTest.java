package dev.blocklab.datastore;

import org.junit.jupiter.api.Test;

import java.net.ConnectException;
import java.sql.SQLTransientConnectionException;
import java.util.NoSuchElementException;

import static dev.blocklab.datastore.NoConnection.CONNECT_FAILURE;
import static dev.blocklab.datastore.NoConnection.WAIT_TIMEOUT;
import static org.assertj.core.api.Assertions.assertThat;

/** Each client's exceptions, as its library raises them, told apart: a pool wait that timed out, or a server refusing. */
class NoConnectionTest {
    @Test
    void hikari_timeoutWithoutACause_isAWait_withTheLastConnectionFailure_isTheServer() {
        assertThat(NoConnection.hikari(new SQLTransientConnectionException(
                "blocklab-jdbc - Connection is not available, request timed out after 301ms (total=1, active=1, idle=0, waiting=2)")))
                .isEqualTo(WAIT_TIMEOUT);
        var refused = new org.postgresql.util.PSQLException("Connection to 127.0.0.1:5432 refused.", org.postgresql.util.PSQLState.CONNECTION_UNABLE_TO_CONNECT,
                new ConnectException("Connection refused"));
        assertThat(NoConnection.hikari(new SQLTransientConnectionException("blocklab-jdbc - Connection is not available, request timed out after 301ms",
                refused.getSQLState(), refused))).isEqualTo(CONNECT_FAILURE);
        assertThat(NoConnection.hikari(refused)).isEqualTo(CONNECT_FAILURE);
    }

    @Test
    void jedis_theExhaustedPoolsTimeout_isAWait_aConnectionException_isTheServer() {
        assertThat(NoConnection.jedis(new redis.clients.jedis.exceptions.JedisException("Could not get a resource from the pool",
                new NoSuchElementException("Timeout waiting for idle object, borrowMaxWaitDuration=PT0.3S")))).isEqualTo(WAIT_TIMEOUT);
        assertThat(NoConnection.jedis(new redis.clients.jedis.exceptions.JedisConnectionException("Failed to connect to 127.0.0.1:6379.",
                new ConnectException("Connection refused")))).isEqualTo(CONNECT_FAILURE);
        NoSuchElementException activation = new NoSuchElementException("Unable to activate object");
        activation.initCause(new redis.clients.jedis.exceptions.JedisConnectionException("Unexpected end of stream."));
        assertThat(NoConnection.jedis(new redis.clients.jedis.exceptions.JedisException("Could not get a resource from the pool", activation)))
                .as("a pooled connection that failed on its way out").isEqualTo(CONNECT_FAILURE);
    }

    @Test
    void vertx_itsTimeout_isAWait_theConnectsFailure_isTheServer() {
        assertThat(NoConnection.vertx(new io.vertx.core.impl.NoStackTraceThrowable("Timeout"))).isEqualTo(WAIT_TIMEOUT);
        assertThat(NoConnection.vertx(new io.vertx.core.VertxException("Timeout waiting for connection", true))).isEqualTo(WAIT_TIMEOUT);
        assertThat(NoConnection.vertx(new ConnectException("Connection refused: /127.0.0.1:5432"))).isEqualTo(CONNECT_FAILURE);
        assertThat(NoConnection.vertx(new io.vertx.pgclient.PgException("sorry, too many clients already", "FATAL", "53300", null)))
                .isEqualTo(CONNECT_FAILURE);
    }

    @Test
    void r2dbc_acquisitionTimeout_isAWait_anythingElse_isTheServer() {
        // the client's cap on the whole wait, r2dbc-pool's retry included (Reactor's Mono.timeout)
        assertThat(NoConnection.r2dbc(new java.util.concurrent.TimeoutException("Did not observe any item or terminal signal within 1000ms")))
                .isEqualTo(NoConnection.WAIT_TIMEOUT);
        assertThat(NoConnection.r2dbc(new io.r2dbc.spi.R2dbcTimeoutException("Connection acquisition timed out after 300ms",
                new java.util.concurrent.TimeoutException()))).isEqualTo(WAIT_TIMEOUT);
        assertThat(NoConnection.r2dbc(new io.r2dbc.spi.R2dbcNonTransientResourceException("Cannot connect to localhost/127.0.0.1:5432",
                new ConnectException("Connection refused")))).isEqualTo(CONNECT_FAILURE);
    }

    @Test
    void lettuce_commandTimeout_isAWait_aLostConnection_isTheServer_anErrorReplyIsNeither() {
        assertThat(NoConnection.lettuce(new java.util.concurrent.CompletionException(
                new io.lettuce.core.RedisCommandTimeoutException("Command timed out after 1 second(s)")))).contains(WAIT_TIMEOUT);
        assertThat(NoConnection.lettuce(new io.lettuce.core.RedisException("Currently not connected. Commands are rejected."))).contains(CONNECT_FAILURE);
        assertThat(NoConnection.lettuce(new io.lettuce.core.RedisException("Connection closed"))).contains(CONNECT_FAILURE);
        assertThat(NoConnection.lettuce(new io.lettuce.core.RedisConnectionException("Unable to connect to 127.0.0.1:6379"))).contains(CONNECT_FAILURE);
        assertThat(NoConnection.lettuce(new io.lettuce.core.RedisCommandExecutionException("WRONGTYPE Operation against a key"))).isEmpty();
        assertThat(NoConnection.lettuce(new java.util.concurrent.CancellationException())).isEmpty();
    }
}
