package dev.blocklab.workload;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.blocklab.load.Pacer;
import dev.blocklab.load.Rates;
import dev.blocklab.workload.FileNode.Mapping;
import dev.blocklab.workload.FileNode.Scalar;
import dev.blocklab.workload.FileNode.Sequence;
import dev.blocklab.workload.FileNode.Where;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * Reads a user's workload from a YAML ({@code .yaml}, {@code .yml}) or JSON ({@code .json}) file. The format is
 * described in {@code docs/workloads.md}; {@code examples/my-workload.yaml} is one to copy.
 *
 * <p>Every problem is an {@link IllegalArgumentException} whose message is one line of the form
 * {@code file:line:column: field.path: what is wrong}, for example
 * {@code my.yaml:7:14: steps[1].latency: '20 sec' is not a duration (...)}. List indexes in paths count from 0.
 * Loading is pure: it reads the file once and builds immutable records; it is safe from any thread.
 */
public final class WorkloadFile {
    private static final Pattern STEP_NAME = Pattern.compile("[A-Za-z0-9_-]+");
    private static final String KINDS = "call, sql, redis, cpu or combine";
    private static final List<String> STEP_KINDS = List.of("call", "sql", "redis", "cpu", "combine");
    private static final List<String> VALUE_FIELDS = List.of("returns", "sum", "concat", "format");

    private WorkloadFile() {}

    /**
     * Loads a workload file. Its name defaults to the file's name without the extension.
     *
     * @throws IllegalArgumentException naming the file, line and field of the first problem, in one line
     */
    public static Workload load(Path path) {
        String file = path.toString();
        String fileName = path.getFileName() == null ? file : path.getFileName().toString();
        Syntax syntax = Syntax.of(fileName).orElseThrow(() -> new IllegalArgumentException(
                "workload file '" + file + "': unknown extension (use .yaml, .yml or .json)"));
        String text;
        try {
            text = Files.readString(path, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("workload file '" + file + "' does not exist");
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("workload file '" + file + "' is not UTF-8 text");
        } catch (IOException e) {
            throw new IllegalArgumentException(FileNode.oneLine("cannot read workload file '" + file + "': " + dev.blocklab.TextFiles.reason(e)));
        }
        return parse(file, text, syntax);
    }

    /** The text of a workload file; {@code file} names it in errors and gives the default workload name. */
    static Workload parse(String file, String text, Syntax syntax) {
        FileNode root;
        try (JsonParser parser = syntax.factory().createParser(text)) {
            root = FileNode.read(parser, file);
        } catch (IOException e) {
            throw new IllegalArgumentException(FileNode.oneLine("cannot read workload file '" + file + "': " + e.getMessage()));
        }
        String baseName = Path.of(file).getFileName().toString().replaceFirst("\\.[^.]*$", "");
        return new Binder().workload(root, baseName);
    }

    /** The two syntaxes, chosen by the file's extension. */
    enum Syntax {
        YAML, JSON;

        static Optional<Syntax> of(String fileName) {
            String lower = fileName.toLowerCase(Locale.ROOT);
            if (lower.endsWith(".yaml") || lower.endsWith(".yml")) return Optional.of(YAML);
            if (lower.endsWith(".json")) return Optional.of(JSON);
            return Optional.empty();
        }

        JsonFactory factory() {
            return this == YAML ? new YAMLFactory() : new JsonFactory();
        }
    }

    /** Turns the located tree into records; one instance per file. */
    private static final class Binder {
        /** Step names in file order, known before binding so that a forward reference can be named as such. */
        private final Map<String, Integer> allSteps = new HashMap<>();
        /** Earlier steps that return a constant no sum can add (text that is not a whole number, true or false). */
        private final Map<String, Object> notNumbers = new HashMap<>();

        Workload workload(FileNode root, String baseName) {
            Mapping top = mapping(root, "a workload file holds a mapping with at least 'steps' (see docs/workloads.md)");
            Fields f = new Fields(top, "the workload", "name", "description", "input", "arrival", "steps");
            String name = f.optional("name").map(this::name).orElse(baseName);
            String description = f.optional("description").map(n -> text(n)).orElse("from " + baseName + " workload file");
            Object input = f.optional("input").map(this::constant).orElse(0L);
            Arrival arrival = f.optional("arrival").map(this::arrival).orElse(new Arrival.Batch(1));
            FileNode stepsNode = f.required("steps");
            List<Step> steps = steps(stepsNode);
            Graph graph = construct(stepsNode.where(), () -> new Graph(input, steps));
            return new Workload(name, description, graph, arrival);
        }

        private String name(FileNode node) {
            String name = text(node).trim();
            if (name.isEmpty()) throw node.where().problem("must not be blank");
            return name;
        }

        // ---- arrival -------------------------------------------------------------------------------------

        private Arrival arrival(FileNode node) {
            Mapping m = mapping(node, "must be a mapping such as {batch: 100}, {users: 50, duration: 10s} or {rate: 200/s, duration: 10s}");
            Fields f = new Fields(m, "an arrival", "batch", "users", "rate", "duration");
            List<String> kinds = f.present("batch", "users", "rate");
            if (kinds.size() != 1)
                throw m.where().problem(kinds.isEmpty()
                        ? "give one of batch, users or rate, e.g. {batch: 100}"
                        : "give only one of batch, users or rate, not " + String.join(" and ", kinds));
            if (kinds.getFirst().equals("batch")) {
                f.optional("duration").ifPresent(d -> { throw m.keys().get("duration").problem("goes with users or rate, not batch"); });
                FileNode n = f.required("batch");
                return construct(n.where(), () -> new Arrival.Batch(intAtLeast(n, 1)));
            }
            FileNode d = f.optional("duration").orElseThrow(() -> m.where().problem(
                    "'" + kinds.getFirst() + "' needs a 'duration', e.g. {" + kinds.getFirst() + ": "
                            + (kinds.getFirst().equals("users") ? "50" : "200/s") + ", duration: 10s}"));
            long durationNanos = positiveDuration(d);
            if (kinds.getFirst().equals("users")) {
                FileNode n = f.required("users");
                return construct(n.where(), () -> new Arrival.Closed(intAtLeast(n, 1), durationNanos));
            }
            FileNode n = f.required("rate");
            return construct(n.where(), () -> new Arrival.Open(pacer(n, durationNanos), durationNanos));
        }

        /** A rate, or as on the command line a ramp {@code 100/s..500/s} over the duration or steps {@code 100/s,500/s}. */
        private static Pacer pacer(FileNode node, long durationNanos) {
            if (node instanceof Scalar(var w, String s) && (s.contains("..") || s.contains(","))) {
                try {
                    return Rates.parse(s, durationNanos, 0);
                } catch (IllegalArgumentException e) {
                    throw w.problem("'" + FileNode.clip(s) + "' is not a ramp or steps of positive rates (e.g. 100/s..500/s or 100/s,500/s)");
                }
            }
            return new Pacer.Constant(rate(node));
        }

        /** {@code 200/s}, {@code 30/m}, or a number of requests per second. */
        private static double rate(FileNode node) {
            String hint = "is not a positive rate (write requests per second or minute, e.g. 200/s or 30/m)";
            if (node instanceof Scalar(var w, Number n)) {
                double v = n.doubleValue();
                if (!(v > 0) || Double.isInfinite(v)) throw w.problem(n + " " + hint);
                return v;
            }
            if (!(node instanceof Scalar(var w, String s))) throw node.where().problem("expected a rate such as 200/s, got " + node.describe());
            try {
                return Rates.perSecond(s);
            } catch (NumberFormatException e) {
                throw w.problem("'" + FileNode.clip(s) + "' " + hint);
            }
        }

        // ---- steps ---------------------------------------------------------------------------------------

        private List<Step> steps(FileNode node) {
            if (!(node instanceof Sequence seq)) throw node.where().problem("expected a list of steps, got " + node.describe());
            if (seq.items().isEmpty()) throw seq.where().problem("a workload needs at least one step");
            for (int i = 0; i < seq.items().size(); i++)
                if (seq.items().get(i) instanceof Mapping m)
                    for (String kind : STEP_KINDS)
                        if (m.values().get(kind) instanceof Scalar(var w, String s)) allSteps.putIfAbsent(s, i);
            List<Step> steps = new ArrayList<>();
            Map<String, Where> defined = new HashMap<>();
            for (FileNode item : seq.items()) steps.add(step(item, steps.size(), defined));
            return steps;
        }

        private Step step(FileNode node, int index, Map<String, Where> defined) {
            Mapping m = mapping(node, "a step is a mapping that starts with call:, sql:, redis:, cpu: or combine: and the step's name");
            List<String> kinds = m.values().keySet().stream().filter(STEP_KINDS::contains).toList();
            if (kinds.isEmpty())
                throw m.where().problem("a step needs one of " + KINDS + " with its name, e.g. '- call: user'");
            if (kinds.size() > 1)
                throw m.keys().get(kinds.get(1)).problem("a step is one of " + KINDS + ", not both " + kinds.get(0) + " and " + kinds.get(1));
            String kind = kinds.getFirst();
            FileNode nameNode = m.values().get(kind);
            String name = stepName(nameNode, defined);
            Fields f = switch (kind) {
                case "call" -> new Fields(m, "a call", "call", "inputs", "latency", "returns", "sum", "concat", "format",
                        "failure", "timeout", "retry", "hedge");
                // no 'timeout': the real clients' waits are bounded by --pool-timeout (and Lettuce's command timeout)
                case "sql" -> new Fields(m, "a sql step", "sql", "query", "inputs", "latency");
                case "redis" -> new Fields(m, "a redis step", "redis", "command", "count", "inputs", "latency");
                case "cpu" -> new Fields(m, "a cpu step", "cpu", "inputs", "kind", "size");
                default -> new Fields(m, "a combine", "combine", "inputs", "returns", "sum", "concat", "format");
            };
            List<String> inputs = f.optional("inputs").map(n -> inputs(n, name, index, defined)).orElse(List.of());
            Step step = switch (kind) {
                case "call" -> {
                    Latency latency = latency(f.required("latency"));
                    Value returns = value(m, f, inputs).orElse(new Value.Constant(0L));
                    Optional<FileNode> failureNode = f.optional("failure");
                    double probability = failureNode.map(this::failureProbability).orElse(0.0);
                    Step.FailureSpec failure = failureNode.map(this::failure).orElse(null);
                    long timeoutNanos = f.optional("timeout").map(WorkloadFile.Binder::positiveDuration).orElse(0L);
                    Step.Attempts attempts = attempts(f);
                    if (attempts instanceof Step.Attempts.Hedge h && timeoutNanos > 0 && h.afterNanos() >= timeoutNanos)
                        throw f.required("hedge").where().problem("a hedge after " + Durations.format(h.afterNanos())
                                + " never starts: the call's timeout (" + Durations.format(timeoutNanos)
                                + ") ends its first attempt first; hedge sooner or raise the timeout");
                    yield construct(m.where(), () -> new Step.Call(name, inputs, latency, returns, probability, failure,
                            timeoutNanos, null, attempts));
                }
                case "sql", "redis" -> {
                    FileNode what = f.required(kind.equals("sql") ? "query" : "command");
                    Operation operation = construct(what.where(), () -> kind.equals("sql")
                            ? new Operation.Sql(text(what))
                            : Operation.Redis.parse(text(what), f.optional("count").map(n -> intAtLeast(n, 1)).orElse(1)));
                    long expected = operation instanceof Operation.Sql sql ? sql.sleepNanos() : 0;
                    Latency latency = f.optional("latency").map(this::latency).orElse(new Latency.Fixed(expected));
                    yield construct(m.where(), () -> new Step.Call(name, inputs, latency, new Value.Constant(0L), 0, null,
                            0, operation));
                }
                case "cpu" -> {
                    Step.CpuKind cpuKind = f.optional("kind").map(WorkloadFile.Binder::cpuKind).orElse(Step.CpuKind.HASH);
                    FileNode size = f.required("size");
                    yield construct(size.where(), () -> new Step.Cpu(name, inputs, cpuKind, intBetween(size, 1, Step.Cpu.MAX_SIZE)));
                }
                default -> {
                    if (inputs.isEmpty())
                        throw f.optional("inputs").map(FileNode::where).orElse(m.where())
                                .problem("a combine needs 'inputs', the steps it combines, e.g. inputs: [user, posts]");
                    Value function = value(m, f, inputs).orElseThrow(() -> m.where().problem(
                            "a combine needs one of returns, sum, concat or format, e.g. format: \"Hello {user}\""));
                    yield construct(m.where(), () -> new Step.Combine(name, inputs, function));
                }
            };
            defined.put(name, nameNode.where());
            Value value = step instanceof Step.Call c ? c.returns() : step instanceof Step.Combine c ? c.function() : null;
            if (value instanceof Value.Constant(Object v) && !(v instanceof Number) && !isWholeNumber(v)) notNumbers.put(name, v);
            return step;
        }

        private String stepName(FileNode node, Map<String, Where> defined) {
            String name = text(node);
            if (!STEP_NAME.matcher(name).matches())
                throw node.where().problem("step name '" + FileNode.clip(name) + "' may use only letters, digits, '-' and '_'");
            if (name.equals(Graph.INPUT))
                throw node.where().problem("'" + Graph.INPUT + "' is reserved for the request's input; choose another name");
            Where first = defined.get(name);
            if (first != null)
                throw node.where().problem("step name '" + name + "' is already used at line " + first.line());
            return name;
        }

        private List<String> inputs(FileNode node, String self, int index, Map<String, Where> defined) {
            if (!(node instanceof Sequence seq))
                throw node.where().problem("expected a list of step names such as [user, posts], got " + node.describe());
            List<String> names = new ArrayList<>();
            for (FileNode item : seq.items()) {
                String in = text(item);
                Where w = item.where();
                if (names.contains(in)) throw w.problem("'" + in + "' is listed twice");
                if (!in.equals(Graph.INPUT) && !defined.containsKey(in)) {
                    if (in.equals(self)) throw w.problem("step '" + self + "' cannot read itself");
                    Integer later = allSteps.get(in);
                    if (later != null && later > index)
                        throw w.problem("'" + in + "' is steps[" + later + "], which comes later; a step reads only earlier steps, so move it up");
                    List<String> known = new ArrayList<>();
                    known.add(Graph.INPUT);
                    known.addAll(defined.keySet().stream().sorted((a, b) -> Integer.compare(defined.get(a).line(), defined.get(b).line())).toList());
                    throw w.problem("'" + FileNode.clip(in) + "' is not an earlier step (can read: " + String.join(", ", known) + ")");
                }
                names.add(in);
            }
            return names;
        }

        /** At most one of returns, sum, concat and format. */
        private Optional<Value> value(Mapping m, Fields f, List<String> inputs) {
            List<String> given = f.present(VALUE_FIELDS.toArray(String[]::new));
            if (given.size() > 1)
                throw m.keys().get(given.get(1)).problem("give only one of returns, sum, concat or format, not " + given.get(0) + " and " + given.get(1));
            if (given.isEmpty()) return Optional.empty();
            FileNode n = f.required(given.getFirst());
            return Optional.of(switch (given.getFirst()) {
                case "returns" -> new Value.Constant(constant(n));
                case "sum" -> {
                    for (String in : inputs)
                        if (notNumbers.containsKey(in))
                            throw n.where().problem("sum cannot add '" + in + "', which returns " + describeConstant(notNumbers.get(in))
                                    + "; use concat or format for text");
                    yield new Value.Sum(wholeNumber(n));
                }
                case "concat" -> new Value.Concat(text(n));
                default -> {
                    Value.Format format = new Value.Format(text(n));
                    for (String p : format.placeholders())
                        if (!inputs.contains(p))
                            throw n.where().problem("{" + p + "} is not one of this step's inputs " + inputs);
                    yield format;
                }
            });
        }

        private static Step.CpuKind cpuKind(FileNode node) {
            String k = text(node);
            return switch (k) {
                case "hash" -> Step.CpuKind.HASH;
                case "sort" -> Step.CpuKind.SORT;
                default -> throw node.where().problem("'" + FileNode.clip(k) + "' is not a kind of CPU work (allowed: hash, sort)");
            };
        }

        // ---- latency and failure -------------------------------------------------------------------------

        private Latency latency(FileNode node) {
            if (node instanceof Scalar) return construct(node.where(), () -> new Latency.Fixed(duration(node)));
            Mapping m = mapping(node, "expected a duration such as 200ms, {uniform: [10ms, 50ms]} or {lognormal: {p50: 20ms, p99: 200ms}}");
            Fields f = new Fields(m, "a latency", "uniform", "lognormal");
            List<String> kinds = f.present("uniform", "lognormal");
            if (kinds.size() != 1)
                throw m.where().problem("give one of uniform or lognormal, e.g. {uniform: [10ms, 50ms]}");
            FileNode n = f.required(kinds.getFirst());
            if (kinds.getFirst().equals("uniform")) {
                if (!(n instanceof Sequence seq) || seq.items().size() != 2)
                    throw n.where().problem("expected [min, max], e.g. [10ms, 50ms], got " + n.describe());
                long min = duration(seq.items().get(0));
                long max = duration(seq.items().get(1));
                return construct(n.where(), () -> new Latency.Uniform(min, max));
            }
            Mapping ln = mapping(n, "expected {p50: 20ms, p99: 200ms}");
            Fields lf = new Fields(ln, "a log-normal latency", "p50", "p99");
            long p50 = duration(lf.required("p50"));
            long p99 = duration(lf.required("p99"));
            return construct(n.where(), () -> new Latency.LogNormal(p50, p99));
        }

        /** {@code retry: {attempts: 3, backoff: 10ms}} or {@code hedge: 50ms} ({@code hedge: {after: 50ms}}), or once. */
        private static Step.Attempts attempts(Fields f) {
            Optional<FileNode> retry = f.optional("retry");
            Optional<FileNode> hedge = f.optional("hedge");
            if (retry.isPresent() && hedge.isPresent())
                throw hedge.get().where().problem("a call takes retry or hedge, not both (a hedge already makes a second attempt)");
            if (retry.isPresent()) {
                Mapping m = mapping(retry.get(), "expected {attempts: 3, backoff: 10ms} (attempts counts the first call)");
                Fields rf = new Fields(m, "a retry", "attempts", "backoff");
                FileNode n = rf.required("attempts");
                int count = intBetween(n, 2, Step.Attempts.MAX_ATTEMPTS);
                long backoff = rf.optional("backoff").map(WorkloadFile.Binder::duration).orElse(0L);
                return construct(m.where(), () -> new Step.Attempts.Retry(count, backoff));
            }
            if (hedge.isPresent()) {
                FileNode n = hedge.get();
                FileNode after = n instanceof Mapping m ? new Fields(m, "a hedge", "after").required("after") : n;
                if (after instanceof Mapping) throw after.where().problem("expected a duration such as 50ms");
                long nanos = positiveDuration(after);
                return construct(after.where(), () -> new Step.Attempts.Hedge(nanos));
            }
            return Step.Attempts.ONCE;
        }

        private double failureProbability(FileNode node) {
            Mapping m = mapping(node, "expected {probability: 0.01, type: java.io.IOException, message: \"db down\"}");
            FileNode p = new Fields(m, "a failure", "probability", "type", "message").required("probability");
            if (!(p instanceof Scalar(var w, Number n)) || n instanceof BigInteger)
                throw p.where().problem("expected a number from 0 to 1, got " + p.describe());
            double v = n.doubleValue();
            if (!(v >= 0 && v <= 1)) throw w.problem(n + " is not a probability from 0 to 1 (1 fails every call)");
            return v;
        }

        private Step.FailureSpec failure(FileNode node) {
            Fields f = new Fields((Mapping) node, "a failure", "probability", "type", "message");
            String type = f.optional("type").map(WorkloadFile.Binder::exceptionType).orElse(Step.FailureSpec.DEFAULT.type());
            String message = f.optional("message").map(n -> text(n)).orElse(Step.FailureSpec.DEFAULT.message());
            return new Step.FailureSpec(type, message);
        }

        /** The name of an exception class on the class path with a public (String) constructor. */
        private static String exceptionType(FileNode node) {
            String type = text(node).trim();
            try {
                Class<?> c = Class.forName(type, false, WorkloadFile.class.getClassLoader());
                if (java.util.concurrent.TimeoutException.class.isAssignableFrom(c)
                        || java.util.concurrent.CancellationException.class.isAssignableFrom(c)
                        || InterruptedException.class.isAssignableFrom(c))
                    throw node.where().problem("'" + type + "' is how the lab records a "
                            + (java.util.concurrent.TimeoutException.class.isAssignableFrom(c) ? "timeout" : "cancellation")
                            + ", not a failure: a drawn failure of this type would be counted as one (give the call a 'timeout:'"
                            + " to make it time out, or another exception type, e.g. java.io.IOException)");
                if (Exception.class.isAssignableFrom(c)) {
                    c.getConstructor(String.class);
                    return type;
                }
            } catch (ReflectiveOperationException | LinkageError ignored) {
                // reported below
            }
            throw node.where().problem("'" + FileNode.clip(type) + "' is not an exception class with a String constructor"
                    + " (give the full name, e.g. java.io.IOException)");
        }

        // ---- scalars -------------------------------------------------------------------------------------

        private static long duration(FileNode node) {
            if (!(node instanceof Scalar(var w, String s)))
                throw node.where().problem("expected a duration with a unit such as 200ms, got " + node.describe());
            try {
                return Durations.parseNanos(s);
            } catch (IllegalArgumentException e) {
                throw w.problem(e.getMessage());
            }
        }

        private static long positiveDuration(FileNode node) {
            long nanos = duration(node);
            if (nanos <= 0) throw node.where().problem("must be longer than 0 (leave the field out for none)");
            return nanos;
        }

        private static String text(FileNode node) {
            if (node instanceof Scalar(var w, String s)) return s;
            throw node.where().problem("expected text, got " + node.describe()
                    + (node instanceof Scalar(var w, Object v) && v != null ? " (put it in quotes for text)" : ""));
        }

        private static long wholeNumber(FileNode node) {
            if (node instanceof Scalar(var w, Long v)) return v;
            throw node.where().problem("expected a whole number, got " + node.describe());
        }

        private static int intBetween(FileNode node, int min, int max) {
            long v = wholeNumber(node);
            if (v < min) throw node.where().problem("must be at least " + min + ", got " + v);
            if (v > max) throw node.where().problem("must be at most " + max + ", got " + v);
            return (int) v;
        }

        private static int intAtLeast(FileNode node, int min) {
            long v = wholeNumber(node);
            if (v < min) throw node.where().problem("must be at least " + min + ", got " + v);
            if (v > Integer.MAX_VALUE) throw node.where().problem("must be at most " + Integer.MAX_VALUE + ", got " + v);
            return (int) v;
        }

        /** True for text that a sum reads as a whole number ({@link Value.Sum}'s own reading). */
        private static boolean isWholeNumber(Object v) {
            if (!(v instanceof String)) return false;
            try {
                Value.asLong(v);
                return true;
            } catch (IllegalArgumentException e) {
                return false;
            }
        }

        private static String describeConstant(Object v) {
            return v instanceof String text ? "the text '" + FileNode.clip(text) + "'" : String.valueOf(v);
        }

        /** A constant answer: text, a whole number (as Long), a decimal (as Double) or true/false. */
        private Object constant(FileNode node) {
            if (node instanceof Scalar(var w, Object v) && (v instanceof String || v instanceof Long || v instanceof Double || v instanceof Boolean))
                return v;
            throw node.where().problem("expected text, a number or true/false, got " + node.describe());
        }

        private static Mapping mapping(FileNode node, String otherwise) {
            if (node instanceof Mapping m) return m;
            throw node.where().problem(otherwise + "; got " + node.describe());
        }

        /** Runs a record constructor, reporting its validation message at {@code where}. */
        private static <T> T construct(Where where, Supplier<T> constructor) {
            try {
                return constructor.get();
            } catch (FileNode.Problem located) {
                throw located;
            } catch (IllegalArgumentException e) {
                throw where.problem(e.getMessage());
            }
        }
    }

    /** The fields of one mapping: unknown ones are refused on construction, naming the allowed ones. */
    private record Fields(Mapping mapping, String what, Set<String> allowed) {
        Fields(Mapping mapping, String what, String... allowed) {
            this(mapping, what, new LinkedHashSet<>(List.of(allowed)));
            for (var key : mapping.keys().entrySet())
                if (!this.allowed.contains(key.getKey()))
                    throw key.getValue().problem("unknown field '" + FileNode.clip(key.getKey()) + "' in " + what
                            + suggestion(key.getKey()) + " (allowed: " + String.join(", ", this.allowed) + ")");
        }

        Optional<FileNode> optional(String key) { return Optional.ofNullable(mapping.values().get(key)); }

        FileNode required(String key) {
            return optional(key).orElseThrow(() -> mapping.where().problem(what + " needs '" + key + "'"));
        }

        /** The given keys that are present, in the order given. */
        List<String> present(String... keys) {
            return java.util.Arrays.stream(keys).filter(mapping.values()::containsKey).toList();
        }

        private String suggestion(String unknown) {
            return dev.blocklab.Names.didYouMean(unknown, allowed);
        }
    }
}
