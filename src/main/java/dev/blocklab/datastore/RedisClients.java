package dev.blocklab.datastore;

import dev.blocklab.datastore.DatastoreSettings.RedisAddress;
import dev.blocklab.result.PoolStats;
import dev.blocklab.workload.Operation;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Protocol;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The two Redis clients of one run, created on first use: Jedis behind a pool of {@code redisPoolSize}
 * connections for blocking calls (a call holds a connection and its thread for the round trip; a call of
 * {@code count} commands pipelines them on that connection), and one Lettuce connection shared by every
 * non-blocking call (commands from all requests are written on it as they come and answered in order, so
 * nothing waits for a connection; one blocking command such as {@code BLPOP} holds up every command queued
 * behind it). Both reduce replies the same way ({@link #reply}).
 */
final class RedisClients implements AutoCloseable {
    /** Lettuce logs a line at INFO on every connection to a server without maintenance events; kept quiet. */
    private static final java.util.logging.Logger LETTUCE_LOG = java.util.logging.Logger.getLogger("io.lettuce.core");

    static {
        LETTUCE_LOG.setLevel(java.util.logging.Level.WARNING);
    }

    private final RedisAddress address;
    private final DatastoreSettings settings;
    private final PoolGauge jedisGauge;
    private final PoolGauge lettuceGauge;
    private final OnFirstUse<JedisPool> jedis = new OnFirstUse<>(CLOSED, this::createJedis);
    private final OnFirstUse<StatefulRedisConnection<String, String>> lettuce = new OnFirstUse<>(CLOSED, this::createLettuce);
    private RedisClient lettuceClient;   // written by createLettuce under lettuce's lock
    private static final String CLOSED = "the Redis clients are closed";

    RedisClients(RedisAddress address, DatastoreSettings settings) {
        this.address = address;
        this.settings = settings;
        this.jedisGauge = new PoolGauge("jedis", settings.redisPoolSize());
        this.lettuceGauge = new PoolGauge("lettuce" + PoolStats.SHARED, 1);
    }

    /** Sends the command(s) through a pooled Jedis connection, holding the calling thread. */
    Object commandBlocking(Operation.Redis redis, long row) {
        Protocol.Command command = jedisCommand(redis.command());
        JedisPool pool = jedis();
        Jedis connection = jedisGauge.acquire(pool::getResource, NoConnection::jedis);
        try {
            if (redis.count() == 1)
                return reply(connection.sendCommand(command, redis.argsFor(row, 0).toArray(String[]::new)));
            Pipeline pipeline = connection.pipelined();
            for (int i = 0; i < redis.count(); i++) pipeline.sendCommand(command, redis.argsFor(row, i).toArray(String[]::new));
            List<Object> replies = pipeline.syncAndReturnAll();
            // Jedis puts an error reply into the list as an exception; fail the call as a single command (and Lettuce) does
            for (Object r : replies) if (r instanceof RuntimeException error) throw error;
            return reply(replies);
        } finally {
            jedisGauge.released();   // before the connection goes back, so the gauge never counts more than the pool
            connection.close();
        }
    }

    /** Writes the command(s) on the shared Lettuce connection; the future completes on a Lettuce event loop. */
    CompletableFuture<Object> commandAsync(Operation.Redis redis, long row) {
        try {
            CommandType type = lettuceCommand(redis.command());
            RedisAsyncCommands<String, String> async = lettuce().async();
            List<CompletableFuture<Object>> replies = new ArrayList<>(redis.count());
            lettuceGauge.sent();
            try {
                for (int i = 0; i < redis.count(); i++) {
                    CommandArgs<String, String> args = new CommandArgs<>(StringCodec.UTF8);
                    for (String a : redis.argsFor(row, i)) args.add(a);
                    RedisFuture<Object> reply = async.dispatch(type, new ReplyOutput(), args);
                    replies.add(reply.toCompletableFuture());
                }
            } catch (RuntimeException e) {
                lettuceGauge.released();
                NoConnection.lettuce(e).ifPresent(lettuceGauge::noConnection);
                throw e;
            }
            CompletableFuture<Object> all = replies.size() == 1 ? replies.getFirst().thenApply(RedisClients::reply)
                    : CompletableFuture.allOf(replies.toArray(CompletableFuture[]::new))
                            .thenApply(done -> reply(replies.stream().map(CompletableFuture::join).toList()));
            return all.whenComplete((v, e) -> {
                lettuceGauge.released();
                // on the shared connection's line: a command that timed out queued on it, or the connection gone
                if (e != null) NoConnection.lettuce(e).ifPresent(lettuceGauge::noConnection);
            });
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * The answer both clients give: text for a bulk or status reply, {@code Long} for an integer, {@code (nil)}
     * for none, and {@code [a, b]} for a list.
     */
    static Object reply(Object raw) {
        return switch (raw) {
            case null -> "(nil)";
            case byte[] bytes -> new String(bytes, StandardCharsets.UTF_8);
            case ByteBuffer buffer -> StandardCharsets.UTF_8.decode(buffer.duplicate()).toString();
            case Long l -> l;
            case Integer i -> (long) i;
            case List<?> list -> list.stream().map(RedisClients::reply).map(String::valueOf)
                    .collect(java.util.stream.Collectors.joining(", ", "[", "]"));
            default -> raw.toString();
        };
    }

    /**
     * Checks that both clients know step {@code step}'s command.
     *
     * @throws IllegalArgumentException naming the step and the command, with the closest known one
     */
    static void checkCommand(String step, String command) {
        boolean jedis = java.util.Arrays.stream(Protocol.Command.values()).anyMatch(c -> c.name().equals(command));
        boolean lettuce = java.util.Arrays.stream(CommandType.values()).anyMatch(c -> c.name().equals(command));
        if (jedis && lettuce) return;
        throw new IllegalArgumentException("step '" + step + "': unknown Redis command '" + command + "'"
                + dev.blocklab.Names.didYouMean(command, java.util.Arrays.stream(Protocol.Command.values()).map(Enum::name).toList())
                + (jedis || lettuce ? " (" + (jedis ? "Lettuce" : "Jedis") + " does not know it)" : ""));
    }

    /** @throws IllegalArgumentException naming an unknown command */
    static Protocol.Command jedisCommand(String name) {
        try {
            return Protocol.Command.valueOf(name);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown Redis command '" + name + "'");
        }
    }

    static CommandType lettuceCommand(String name) {
        try {
            return CommandType.valueOf(name);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown Redis command '" + name + "'");
        }
    }

    /** Creates the Jedis pool with all its connections open, and the Lettuce connection. */
    void fill() {
        try {
            JedisPool pool = jedis();
            List<Jedis> held = new ArrayList<>();
            try {
                for (int i = 0; i < settings.redisPoolSize(); i++) held.add(pool.getResource());
            } finally {
                held.forEach(Jedis::close);
            }
            lettuce();
        } catch (RuntimeException e) {
            // the server is down: calls will fail and be counted
        }
    }

    List<PoolStats> stats() { return PoolGauge.ofUsed(jedisGauge.statsIf(jedis.created()), lettuceGauge.statsIf(lettuce.created())); }

    private JedisPool jedis() { return jedis.get(); }

    private JedisPool createJedis() {
        // GenericObjectPoolConfig rather than JedisPoolConfig: no evictor thread that would outlive the run
        GenericObjectPoolConfig<Jedis> config = new GenericObjectPoolConfig<>();
        config.setMaxTotal(settings.redisPoolSize());
        config.setMaxIdle(settings.redisPoolSize());
        config.setMaxWait(Duration.ofNanos(settings.poolTimeoutNanos()));
        config.setJmxEnabled(false);
        int timeoutMillis = (int) TimeUnit.NANOSECONDS.toMillis(settings.poolTimeoutNanos());
        return new JedisPool(config, address.host(), address.port(), timeoutMillis);
    }

    private StatefulRedisConnection<String, String> lettuce() { return lettuce.get(); }

    private StatefulRedisConnection<String, String> createLettuce() {
        RedisURI uri = RedisURI.builder().withHost(address.host()).withPort(address.port())
                .withTimeout(Duration.ofNanos(settings.poolTimeoutNanos())).build();
        RedisClient client = RedisClient.create(uri);
        // a command sent while the server is away fails at once instead of waiting for a reconnect
        client.setOptions(ClientOptions.builder()
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS).build());
        try {
            StatefulRedisConnection<String, String> connection = client.connect(StringCodec.UTF8);
            lettuceClient = client;
            return connection;
        } catch (RuntimeException e) {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));   // its threads, not just the connection
            throw e;
        }
    }

    @Override public synchronized void close() {
        JedisPool pool = jedis.close();
        StatefulRedisConnection<String, String> connection = lettuce.close();
        if (pool != null) pool.close();
        if (connection != null) connection.close();
        if (lettuceClient != null) lettuceClient.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
}
