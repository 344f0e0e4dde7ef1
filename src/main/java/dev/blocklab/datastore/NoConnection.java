package dev.blocklab.datastore;

import java.sql.SQLTransientConnectionException;
import java.util.NoSuchElementException;
import java.util.Optional;

/**
 * Why a call got no connection, told from each client library's own exceptions, so that a dead server is not
 * reported as a pool too small: {@link #WAIT_TIMEOUT}, every connection stayed held by other calls for the whole
 * pool timeout; {@link #CONNECT_FAILURE}, a connection could not be opened (or, on Lettuce's one connection, was
 * lost): the server refused it or was gone. Each method names the library behaviour it relies on (the versions of
 * the pom), and {@code NoConnectionTest} pins it with the libraries' own exceptions.
 */
enum NoConnection {
    WAIT_TIMEOUT, CONNECT_FAILURE;

    /**
     * HikariCP 7 ({@code HikariPool.createTimeoutException}): after {@code connectionTimeout} it throws
     * {@link SQLTransientConnectionException} whose cause is the pool's last failure to open or check a connection,
     * cleared at every connection opened since ({@code PoolBase.newConnection}); without a cause every connection
     * was busy. Any other exception of {@code getConnection} is a connection that could not be had.
     */
    static NoConnection hikari(Throwable e) {
        return e instanceof SQLTransientConnectionException && e.getCause() == null ? WAIT_TIMEOUT : CONNECT_FAILURE;
    }

    /**
     * Jedis 7 over commons-pool2 2.12 ({@code Pool.getResource}): a {@code JedisException} from opening a connection
     * ({@code JedisConnectionException}: refused, reset) passes through; any other exception is wrapped in
     * {@code JedisException("Could not get a resource from the pool")}, among them the pool's
     * {@link NoSuchElementException} without a cause when {@code maxWait} passed ("Timeout waiting for idle
     * object"); one with a cause ("Unable to activate object") is a connection that failed.
     */
    static NoConnection jedis(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause())
            if (t instanceof NoSuchElementException && t.getCause() == null) return WAIT_TIMEOUT;
        return CONNECT_FAILURE;
    }

    /**
     * The Vert.x 5 SQL client pool ({@code SqlConnectionPool}): a waiter not served within
     * {@code connectionTimeout} fails with Vert.x's own exception, message {@code Timeout} ({@code "Timeout waiting
     * for connection"} on the query path); a connection that could not be opened fails its waiter with the
     * connect's failure (Netty's {@code ConnectException}, or the server's {@code PgException}).
     */
    static NoConnection vertx(Throwable e) {
        return e instanceof io.vertx.core.VertxException && e.getCause() == null && String.valueOf(e.getMessage()).startsWith("Timeout")
                ? WAIT_TIMEOUT : CONNECT_FAILURE;
    }

    /**
     * r2dbc-pool 1.0 ({@code ConnectionPool}): {@code maxAcquireTime} passing fails the acquisition with
     * {@link io.r2dbc.spi.R2dbcTimeoutException} ("Connection acquisition timed out"), and the client's own cap on
     * the whole wait (its retry included) with Reactor's {@link java.util.concurrent.TimeoutException}; a connection
     * that could not be opened fails it with r2dbc-postgresql's own exception (an
     * {@code R2dbcNonTransientResourceException} over the {@code ConnectException}, or the server's error).
     */
    static NoConnection r2dbc(Throwable e) {
        return e instanceof io.r2dbc.spi.R2dbcTimeoutException || e instanceof java.util.concurrent.TimeoutException
                ? WAIT_TIMEOUT : CONNECT_FAILURE;
    }

    /**
     * Lettuce 7 on one shared connection, where no call waits for a connection but every command queues behind
     * those ahead of it: {@code RedisCommandTimeoutException} (the command timeout, our pool timeout, passed) is the
     * wait that failed; {@code RedisConnectionException}, a plain {@code RedisException} ("Currently not connected.
     * Commands are rejected." under {@code REJECT_COMMANDS}, "Connection closed" for commands in flight when it
     * dropped) or an {@code IOException} is the connection gone. Nothing for an error reply
     * ({@code RedisCommandExecutionException}), an interrupted or a cancelled command: the server answered, or the
     * caller gave up.
     */
    static Optional<NoConnection> lettuce(Throwable e) {
        Throwable t = e;
        while ((t instanceof java.util.concurrent.CompletionException || t instanceof java.util.concurrent.ExecutionException) && t.getCause() != null)
            t = t.getCause();
        if (t instanceof io.lettuce.core.RedisCommandTimeoutException) return Optional.of(WAIT_TIMEOUT);
        if (t instanceof io.lettuce.core.RedisConnectionException || t instanceof java.io.IOException
                || t != null && t.getClass() == io.lettuce.core.RedisException.class)
            return Optional.of(CONNECT_FAILURE);
        return Optional.empty();
    }
}
