package dev.blocklab.workload;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a call does on a real server instead of waiting a simulated latency: a SQL statement on PostgreSQL or a
 * command on Redis. A {@link Step.Call} without an operation is simulated. The same operation is sent by every
 * model; only the client differs (a blocking client for a blocking call, a non-blocking one for an asynchronous
 * call), so every model faces the same rows and the same keys.
 *
 * <p>Each request works on its own row of the lab's data, {@link #row(long)}: SQL parameter {@code $1} and the
 * text {@code {row}} in a Redis argument stand for it.
 */
public sealed interface Operation {

    /** Rows in the lab's table {@value #TABLE} and keys {@code account:1..ROWS} in Redis. */
    int ROWS = 1000;

    /** The table the lab creates and fills: {@code id bigint primary key, name text, balance bigint}. */
    String TABLE = "blocklab_accounts";

    /** The row a request works on: its id modulo {@link #ROWS}, plus one. */
    static long row(long requestId) { return Math.floorMod(requestId, ROWS) + 1; }

    /** A label for errors and reports, such as {@code sql 'select pg_sleep(0.1)'}. */
    String label();

    /**
     * A SQL statement, prepared and run once per call. Its value is the first column of the first row (a whole
     * number as {@code Long}, anything else as text), or the number of rows a statement without a result set
     * touched, or the number of rows when the first column is empty (as {@code pg_sleep} returns).
     *
     * @param query     the statement in PostgreSQL's syntax; {@code $1}, when present, is the request's row
     * @param usesRow   true when the query names {@code $1}
     */
    record Sql(String query, boolean usesRow) implements Operation {
        private static final Pattern PLACEHOLDER = Pattern.compile("\\$(\\d+)");

        public Sql {
            Objects.requireNonNull(query, "query");
            if (query.isBlank()) throw new IllegalArgumentException("a SQL query must not be blank");
            Matcher m = PLACEHOLDER.matcher(query);
            while (m.find())
                if (!m.group(1).equals("1"))
                    throw new IllegalArgumentException("query uses $" + m.group(1) + "; only $1 (the request's row) is bound");
        }

        public Sql(String query) { this(query, PLACEHOLDER.matcher(query).find()); }

        /** The query with {@code $1} written as JDBC's {@code ?}. */
        public String jdbcQuery() { return PLACEHOLDER.matcher(query).replaceAll("?"); }

        /**
         * The delay the query holds a connection for when it is {@code select pg_sleep(S)}, in nanoseconds; 0
         * otherwise. Predictions use it when the step gives no {@code latency}.
         */
        public long sleepNanos() {
            Matcher m = Pattern.compile("pg_sleep\\s*\\(\\s*([0-9.]+)\\s*\\)").matcher(query.toLowerCase(Locale.ROOT));
            return m.find() ? Math.round(Double.parseDouble(m.group(1)) * 1e9) : 0;
        }

        @Override public String label() { return "sql '" + query + "'"; }
    }

    /**
     * A Redis command, sent {@code count} times per call with the request's row advancing by one each time
     * (row, row + 1, ... wrapping at {@link #ROWS}): a blocking client pipelines the {@code count} commands on
     * one pooled connection, a non-blocking client writes them on its one shared connection and awaits all.
     * Its value is the reply (text, a whole number, or a list as {@code [a, b]}); with a count above one, the
     * list of replies.
     *
     * @param command the command's name in upper case, such as {@code GET}
     * @param args    its arguments; {@code {row}} in an argument stands for the row
     * @param count   commands per call, at least 1
     */
    record Redis(String command, List<String> args, int count) implements Operation {
        public Redis {
            Objects.requireNonNull(command, "command");
            command = command.toUpperCase(Locale.ROOT);
            if (!command.matches("[A-Z][A-Z0-9_.]*")) throw new IllegalArgumentException("'" + command + "' is not a Redis command name");
            args = List.copyOf(args);
            if (count < 1) throw new IllegalArgumentException("count must be at least 1, got " + count);
        }

        /** Parses {@code GET account:{row}}: a command and its arguments separated by spaces. */
        public static Redis parse(String line, int count) {
            String[] words = line.trim().split("\\s+");
            if (words.length == 0 || words[0].isEmpty()) throw new IllegalArgumentException("a Redis command must not be blank");
            return new Redis(words[0], List.of(words).subList(1, words.length), count);
        }

        /** The arguments of the {@code i}-th command (from 0) of a request working on {@code row}. */
        public List<String> argsFor(long row, int i) {
            String r = Long.toString(Math.floorMod(row - 1 + i, ROWS) + 1);
            return args.stream().map(a -> a.replace("{row}", r)).toList();
        }

        @Override public String label() { return "redis '" + command + (args.isEmpty() ? "" : " " + String.join(" ", args)) + "'" + (count > 1 ? " x" + count : ""); }
    }
}
