package dev.blocklab.workload;

import dev.blocklab.load.Pacer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class WorkloadFileTest {
    private static final long MS = 1_000_000L;
    private static final long S = 1_000_000_000L;

    @TempDir Path dir;

    private Path write(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text);
    }

    @Test
    void load_sqlAndRedisSteps_areCallsWithTheirOperation() throws IOException {
        Path file = write("real.yaml", """
                steps:
                  - sql: slow
                    query: "select pg_sleep(0.25)"
                  - sql: name
                    query: "select name from blocklab_accounts where id = $1"
                    latency: 2ms
                  - redis: gets
                    command: "get account:{row}"
                    count: 3
                  - combine: page
                    inputs: [slow, name, gets]
                    concat: ","
                """);
        Graph g = WorkloadFile.load(file).graph();
        Step.Call slow = (Step.Call) g.steps().get(0);
        assertThat(slow.operation()).isEqualTo(new Operation.Sql("select pg_sleep(0.25)", false));
        assertThat(slow.latency()).isEqualTo(new Latency.Fixed(250 * MS));   // read from pg_sleep for predictions
        Step.Call name = (Step.Call) g.steps().get(1);
        assertThat(((Operation.Sql) name.operation()).usesRow()).isTrue();
        assertThat(((Operation.Sql) name.operation()).jdbcQuery()).isEqualTo("select name from blocklab_accounts where id = ?");
        assertThat(name.latency()).isEqualTo(new Latency.Fixed(2 * MS));
        Operation.Redis gets = (Operation.Redis) ((Step.Call) g.steps().get(2)).operation();
        assertThat(gets.command()).isEqualTo("GET");
        assertThat(gets.count()).isEqualTo(3);
        assertThat(gets.argsFor(1000, 1)).containsExactly("account:1");   // rows wrap at 1000
        assertThat(g.criticalPathNanos()).isEqualTo(250 * MS);
        // a request's call carries the operation to the backend, with the request's row
        CallInvocation call = new Request(41, g, 1, 10).invocation(1, java.util.List.of());
        assertThat(call.operation()).isEqualTo(name.operation());
        assertThat(call.row()).isEqualTo(42);
    }

    @Test
    void load_everyFeature_parsesToTheRecords() throws IOException {
        Path file = write("all.yaml", """
                name: everything
                description: every kind of step and latency
                input: 7
                arrival: {users: 50, duration: 10s}
                steps:
                  - call: user
                    inputs: [input]
                    latency: 200ms
                    returns: Anton
                  - call: posts
                    latency: {uniform: [10ms, 50ms]}
                    returns: 100
                    timeout: 300ms
                  - call: score
                    latency: {lognormal: {p50: 20ms, p99: 200ms}}
                    returns: 0.5
                    failure: {probability: 0.01, type: java.io.IOException, message: "db down"}
                  - call: plus
                    inputs: [input, posts]
                    latency: 1.5s
                    sum: 2
                  - call: forced
                    latency: 0ms
                    failure: {probability: 1}
                  - cpu: render
                    kind: hash
                    size: 65536
                    inputs: [user]
                  - cpu: order
                    kind: sort
                    size: 1000
                  - combine: total
                    inputs: [plus, posts]
                    sum: 0
                  - combine: list
                    inputs: [user, posts]
                    concat: ", "
                  - combine: page
                    inputs: [render, total, list, score, forced, order]
                    format: "Hello {render}, {total} ({list})"
                """);
        Workload w = WorkloadFile.load(file);
        List<Step> steps = List.of(
                new Step.Call("user", List.of("input"), new Latency.Fixed(200 * MS), new Value.Constant("Anton"), 0, null, 0),
                new Step.Call("posts", List.of(), new Latency.Uniform(10 * MS, 50 * MS), new Value.Constant(100L), 0, null, 300 * MS),
                new Step.Call("score", List.of(), new Latency.LogNormal(20 * MS, 200 * MS), new Value.Constant(0.5), 0.01,
                        new Step.FailureSpec("java.io.IOException", "db down"), 0),
                new Step.Call("plus", List.of("input", "posts"), new Latency.Fixed(1500 * MS), new Value.Sum(2), 0, null, 0),
                new Step.Call("forced", List.of(), new Latency.Fixed(0), new Value.Constant(0L), 1, Step.FailureSpec.DEFAULT, 0),
                new Step.Cpu("render", List.of("user"), Step.CpuKind.HASH, 65536),
                new Step.Cpu("order", List.of(), Step.CpuKind.SORT, 1000),
                new Step.Combine("total", List.of("plus", "posts"), new Value.Sum(0)),
                new Step.Combine("list", List.of("user", "posts"), new Value.Concat(", ")),
                new Step.Combine("page", List.of("render", "total", "list", "score", "forced", "order"),
                        new Value.Format("Hello {render}, {total} ({list})")));
        assertThat(w).isEqualTo(new Workload("everything", "every kind of step and latency",
                new Graph(7L, steps), new Arrival.Closed(50, 10 * S)));
    }

    @Test
    void sum_addsAWholeNumberGivenAsText_butNotOtherText() throws IOException {
        Workload w = WorkloadFile.load(write("sum-text.yaml", """
                steps:
                  - call: a
                    latency: 1ms
                    returns: "42"
                  - combine: b
                    inputs: [a]
                    sum: 1
                """));
        Step.Combine b = (Step.Combine) w.graph().steps().get(1);
        assertThat(b.function().apply(List.of("42"), List.of("a"))).isEqualTo(43L);
    }

    @Test
    void load_minimalFile_usesTheDefaults() throws IOException {
        Workload w = WorkloadFile.load(write("tiny-service.yml", """
                steps:
                  - call: only
                    latency: 5ms
                  - cpu: work
                    size: 10
                """));
        assertThat(w.name()).isEqualTo("tiny-service");
        assertThat(w.description()).contains("tiny-service");
        assertThat(w.arrival()).isEqualTo(new Arrival.Batch(1));
        assertThat(w.graph().input()).isEqualTo(0L);
        assertThat(w.graph().steps()).containsExactly(
                Step.Call.fixed("only", 5 * MS, 0L),
                new Step.Cpu("work", List.of(), Step.CpuKind.HASH, 10));
    }

    @Test
    void load_arrivals_parseRatesAndDurations() throws IOException {
        String steps = "\nsteps:\n  - call: a\n    latency: 1ms\n";
        assertThat(WorkloadFile.load(write("b.yaml", "arrival: {batch: 100}" + steps)).arrival()).isEqualTo(new Arrival.Batch(100));
        assertThat(WorkloadFile.load(write("r.yaml", "arrival: {rate: 200/s, duration: 10s}" + steps)).arrival())
                .isEqualTo(new Arrival.Open(200, 10 * S));
        assertThat(WorkloadFile.load(write("m.yaml", "arrival: {rate: 30/m, duration: 2m}" + steps)).arrival())
                .isEqualTo(new Arrival.Open(0.5, 120 * S));
        assertThat(WorkloadFile.load(write("ramp.yaml", "arrival: {rate: 100/s..500/s, duration: 10s}" + steps)).arrival())
                .isEqualTo(new Arrival.Open(new Pacer.LinearRamp(100, 500, 10 * S), 10 * S));
        assertThat(WorkloadFile.load(write("steps.yaml", "arrival: {rate: '100/s,500/s', duration: 10s}" + steps)).arrival())
                .isEqualTo(new Arrival.Open(new Pacer.Steps(List.of(100.0, 500.0), 5 * S), 10 * S));
        assertThat(WorkloadFile.load(write("n.yaml", "arrival: {rate: 50, duration: 500ms}" + steps)).arrival())
                .isEqualTo(new Arrival.Open(50, 500 * MS));
    }

    @Test
    void load_taskGraphExample_equalsTheBuiltInTaskGraph() {
        Workload fromFile = WorkloadFile.load(Path.of("examples/task-graph.yaml"));
        assertThat(fromFile.graph()).isEqualTo(BuiltInWorkloads.taskGraph(false).graph());
        assertThat(fromFile).isEqualTo(BuiltInWorkloads.taskGraph(false));
    }

    @Test
    void load_myWorkloadExample_isAProfilePageWithAFailingCall() {
        Workload w = WorkloadFile.load(Path.of("examples/my-workload.yaml"));
        Graph g = w.graph();
        assertThat(g.callCount()).isEqualTo(3);
        assertThat(g.cpuStepCount()).isEqualTo(1);
        assertThat(g.output()).isInstanceOf(Step.Combine.class);
        assertThat(g.steps()).filteredOn(s -> s instanceof Step.Call c && c.failureProbability() == 0.01).hasSize(1);
        assertThat(g.steps()).filteredOn(s -> s instanceof Step.Call).extracting(s -> ((Step.Call) s).latency().getClass().getSimpleName())
                .containsExactlyInAnyOrder("Fixed", "Uniform", "LogNormal");
        // a request that does not fail answers the greeting
        Request r = new Request(0, g, 1, 1);
        Object[] values = new Object[g.steps().size()];
        for (int i = 0; i < values.length; i++) {
            List<Object> in = r.inputsOf(i, values);
            values[i] = g.steps().get(i) instanceof Step.Call ? r.invocation(i, in).value() : r.compute(i, in);
        }
        assertThat(values[values.length - 1]).isEqualTo("Hello Anton, you have 100 posts and 2000 followers!");
    }

    @Test
    void load_retryAndHedge_becomeTheCallsAttempts() throws IOException {
        Workload w = WorkloadFile.load(write("attempts.yaml", """
                steps:
                  - call: a
                    latency: 20ms
                    failure: {probability: 0.1}
                    retry: {attempts: 3, backoff: 10ms}
                  - call: b
                    latency: {uniform: [10ms, 200ms]}
                    hedge: 50ms
                  - call: c
                    latency: 10ms
                    hedge: {after: 30ms}
                  - call: d
                    latency: 10ms
                    retry: {attempts: 2}
                  - combine: out
                    inputs: [a, b, c, d]
                    sum: 0
                """));
        List<Step> steps = w.graph().steps();
        assertThat(((Step.Call) steps.get(0)).attempts()).isEqualTo(new Step.Attempts.Retry(3, 10_000_000L));
        assertThat(((Step.Call) steps.get(1)).attempts()).isEqualTo(new Step.Attempts.Hedge(50_000_000L));
        assertThat(((Step.Call) steps.get(2)).attempts()).isEqualTo(new Step.Attempts.Hedge(30_000_000L));
        assertThat(((Step.Call) steps.get(3)).attempts()).isEqualTo(new Step.Attempts.Retry(2, 0));
    }

    @Test
    void load_jsonAndYamlOfTheSameWorkload_areEqual() throws IOException {
        Workload yaml = WorkloadFile.load(write("same.yaml", """
                input: 1
                arrival: {rate: 20/s, duration: 3s}
                steps:
                  - call: a
                    inputs: [input]
                    latency: {lognormal: {p50: 20ms, p99: 200ms}}
                    sum: 1
                    failure: {probability: 0.5, type: java.io.IOException, message: down}
                    timeout: 1s
                  - cpu: b
                    kind: sort
                    size: 100
                    inputs: [a]
                  - combine: c
                    inputs: [a, b]
                    format: "{a}-{b}"
                """));
        Workload json = WorkloadFile.load(write("same.json", """
                {"input": 1, "arrival": {"rate": "20/s", "duration": "3s"},
                 "steps": [
                   {"call": "a", "inputs": ["input"], "latency": {"lognormal": {"p50": "20ms", "p99": "200ms"}}, "sum": 1,
                    "failure": {"probability": 0.5, "type": "java.io.IOException", "message": "down"}, "timeout": "1s"},
                   {"cpu": "b", "kind": "sort", "size": 100, "inputs": ["a"]},
                   {"combine": "c", "inputs": ["a", "b"], "format": "{a}-{b}"}
                 ]}
                """));
        assertThat(json).isEqualTo(yaml);
    }

    static Stream<org.junit.jupiter.params.provider.Arguments> badFiles() {
        return Stream.of(
                arguments("syntax.yaml", "steps:\n  - call: a\n    latency: [1\n", 3, "", "not valid YAML"),
                arguments("indent.yaml", "steps:\n  - call: a\n   latency: 1ms\n", 3, "", "not valid YAML"),
                arguments("syntax.json", "{\"steps\": [\n {\"call\": \"a\", \"latency\": \"1ms\",}\n]}", 2, "", "not valid JSON"),
                arguments("empty.yaml", "", 1, "", "empty"),
                arguments("list.yaml", "- call: a\n", 1, "", "mapping"),
                arguments("unknown.yaml", "steps:\n  - call: a\n    latency: 1ms\n    latncy: 2ms\n", 4, "steps[0].latncy",
                        "unknown field 'latncy' in a call; did you mean 'latency'? (allowed: call, inputs, latency,"),
                arguments("unknown-top.yaml", "stepz: []\n", 1, "stepz", "allowed: name, description, input, arrival, steps"),
                arguments("no-steps.yaml", "name: x\n", 1, "", "needs 'steps'"),
                arguments("no-latency.yaml", "steps:\n  - call: a\n    returns: 1\n", 2, "steps[0]", "a call needs 'latency'"),
                arguments("no-size.yaml", "steps:\n  - call: a\n    latency: 1ms\n  - cpu: b\n", 4, "steps[1]", "needs 'size'"),
                arguments("no-kind.yaml", "steps:\n  - latency: 1ms\n", 2, "steps[0]", "call, sql, redis, cpu or combine"),
                arguments("sql-no-query.yaml", "steps:\n  - sql: a\n    latency: 1ms\n", 2, "steps[0]", "a sql step needs 'query'"),
                arguments("sql-param.yaml", "steps:\n  - sql: a\n    query: \"select $2\"\n", 3, "steps[0].query", "only $1 (the request's row) is bound"),
                arguments("redis-count.yaml", "steps:\n  - redis: a\n    command: GET k\n    count: 0\n", 4, "steps[0].count", "must be at least 1"),
                arguments("sql-timeout.yaml", "steps:\n  - sql: a\n    query: select 1\n    timeout: 1s\n", 4, "steps[0].timeout", "unknown field 'timeout' in a sql step"),
                arguments("redis-field.yaml", "steps:\n  - redis: a\n    command: GET k\n    query: x\n", 4, "steps[0].query", "unknown field 'query' in a redis step"),
                arguments("two-kinds.yaml", "steps:\n  - call: a\n    cpu: b\n    latency: 1ms\n", 3, "steps[0].cpu", "not both call and cpu"),
                arguments("type.yaml", "steps:\n  - cpu: a\n    size: big\n", 3, "steps[0].size", "expected a whole number, got the text 'big'"),
                arguments("type-name.yaml", "name: [a]\nsteps:\n  - call: a\n    latency: 1ms\n", 1, "name", "expected text, got a list"),
                arguments("duration.yaml", "steps:\n  - call: a\n    inputs: [input]\n    latency: 20 sex\n", 4, "steps[0].latency",
                        "'20 sex' is not a duration"),
                arguments("duration-number.yaml", "steps:\n  - call: a\n    latency: 200\n", 3, "steps[0].latency", "with a unit"),
                arguments("uniform.yaml", "steps:\n  - call: a\n    latency: {uniform: [50ms, 10ms]}\n", 3, "steps[0].latency.uniform",
                        "min <= max"),
                arguments("timeout.yaml", "steps:\n  - call: a\n    latency: 1ms\n    timeout: 0s\n", 4, "steps[0].timeout", "longer than 0"),
                arguments("rate.yaml", "arrival: {rate: fast, duration: 1s}\nsteps:\n  - call: a\n    latency: 1ms\n", 1, "arrival.rate",
                        "'fast' is not a positive rate"),
                arguments("ramp.yaml", "arrival: {rate: 100/s..fast, duration: 1s}\nsteps:\n  - call: a\n    latency: 1ms\n", 1, "arrival.rate",
                        "'100/s..fast' is not a ramp or steps of positive rates"),
                arguments("rate-zero.yaml", "arrival: {rate: 0/s, duration: 1s}\nsteps:\n  - call: a\n    latency: 1ms\n", 1, "arrival.rate",
                        "not a positive rate"),
                arguments("no-duration.yaml", "steps:\n  - call: a\n    latency: 1ms\narrival:\n  users: 5\n", 5, "arrival", "needs a 'duration'"),
                arguments("negative.yaml", "arrival: {batch: -3}\nsteps:\n  - call: a\n    latency: 1ms\n", 1, "arrival.batch", "at least 1, got -3"),
                arguments("zero-users.yaml", "arrival: {users: 0, duration: 1s}\nsteps:\n  - call: a\n    latency: 1ms\n", 1, "arrival.users",
                        "at least 1, got 0"),
                arguments("zero-size.yaml", "steps:\n  - cpu: a\n    size: 0\n", 3, "steps[0].size", "at least 1, got 0"),
                arguments("probability.yaml", "steps:\n  - call: a\n    latency: 1ms\n    failure: {probability: 1.5}\n", 4,
                        "steps[0].failure.probability", "1.5 is not a probability from 0 to 1"),
                arguments("probability-missing.yaml", "steps:\n  - call: a\n    latency: 1ms\n    failure: {message: x}\n", 4,
                        "steps[0].failure", "needs 'probability'"),
                arguments("exception.yaml", "steps:\n  - call: a\n    latency: 1ms\n    failure: {probability: 1, type: IOExeption}\n", 4,
                        "steps[0].failure.type", "'IOExeption' is not an exception class"),
                arguments("timeout-type.yaml", "steps:\n  - call: a\n    latency: 1ms\n    failure: {probability: 1, type: java.util.concurrent.TimeoutException}\n", 4,
                        "steps[0].failure.type", "is how the lab records a timeout, not a failure"),
                arguments("cancel-type.yaml", "steps:\n  - call: a\n    latency: 1ms\n    failure: {probability: 1, type: java.util.concurrent.CancellationException}\n", 4,
                        "steps[0].failure.type", "is how the lab records a cancellation"),
                arguments("interrupt-type.yaml", "steps:\n  - call: a\n    latency: 1ms\n    failure: {probability: 1, type: java.lang.InterruptedException}\n", 4,
                        "steps[0].failure.type", "is how the lab records a cancellation"),
                arguments("unknown-input.yaml", "steps:\n  - call: a\n    latency: 1ms\n  - call: b\n    latency: 1ms\n    inputs: [a, usr]\n",
                        6, "steps[1].inputs[1]", "'usr' is not an earlier step (can read: input, a)"),
                arguments("later-input.yaml", "steps:\n  - call: a\n    latency: 1ms\n    inputs: [b]\n  - call: b\n    latency: 1ms\n",
                        4, "steps[0].inputs[0]", "'b' is steps[1], which comes later"),
                arguments("self-input.yaml", "steps:\n  - call: a\n    latency: 1ms\n    inputs: [a]\n", 4, "steps[0].inputs[0]",
                        "cannot read itself"),
                arguments("inputs-text.yaml", "steps:\n  - call: a\n    latency: 1ms\n    inputs: input\n", 4, "steps[0].inputs",
                        "expected a list of step names"),
                arguments("duplicate.yaml", "steps:\n  - call: a\n    latency: 1ms\n  - cpu: a\n    size: 1\n", 4, "steps[1].cpu",
                        "step name 'a' is already used at line 2"),
                arguments("reserved.yaml", "steps:\n  - call: input\n    latency: 1ms\n", 2, "steps[0].call", "reserved"),
                arguments("duplicate-key.yaml", "steps:\n  - call: a\n    latency: 1ms\n    latency: 2ms\n", 4, "steps[0].latency", "given twice"),
                arguments("template.yaml", "steps:\n  - call: a\n    latency: 1ms\n  - combine: b\n    inputs: [a]\n    format: \"x {c}\"\n",
                        6, "steps[1].format", "{c} is not one of this step's inputs [a]"),
                arguments("two-values.yaml", "steps:\n  - call: a\n    latency: 1ms\n    returns: 1\n    sum: 2\n", 5, "steps[0].sum",
                        "only one of returns, sum, concat or format"),
                arguments("sum-of-text.yaml", "steps:\n  - call: a\n    latency: 1ms\n    returns: Alice\n  - combine: b\n    inputs: [a]\n    sum: 0\n",
                        7, "steps[1].sum", "sum cannot add 'a', which returns the text 'Alice'; use concat or format"),
                arguments("sum-of-boolean.yaml", "steps:\n  - call: a\n    latency: 1ms\n    returns: true\n  - call: b\n    inputs: [a]\n    latency: 1ms\n    sum: 1\n",
                        8, "steps[1].sum", "sum cannot add 'a', which returns true"),
                arguments("combine-no-value.yaml", "steps:\n  - call: a\n    latency: 1ms\n  - combine: b\n    inputs: [a]\n", 4, "steps[1]",
                        "needs one of returns, sum, concat or format"),
                arguments("cpu-kind.yaml", "steps:\n  - cpu: a\n    kind: md5\n    size: 1\n", 3, "steps[0].kind", "allowed: hash, sort"),
                arguments("retry-and-hedge.yaml", "steps:\n  - call: a\n    latency: 1ms\n    retry: {attempts: 2}\n    hedge: 5ms\n", 5,
                        "steps[0].hedge", "a call takes retry or hedge, not both"),
                arguments("retry-once.yaml", "steps:\n  - call: a\n    latency: 1ms\n    retry: {attempts: 1}\n", 4,
                        "steps[0].retry.attempts", "must be at least 2, got 1"),
                arguments("retry-many.yaml", "steps:\n  - call: a\n    latency: 1ms\n    retry: {attempts: 11}\n", 4,
                        "steps[0].retry.attempts", "must be at most 10, got 11"),
                arguments("retry-count.yaml", "steps:\n  - call: a\n    latency: 1ms\n    retry: 3\n", 4,
                        "steps[0].retry", "expected {attempts: 3, backoff: 10ms}"),
                arguments("retry-field.yaml", "steps:\n  - call: a\n    latency: 1ms\n    retry: {attempts: 2, backof: 1ms}\n", 4,
                        "steps[0].retry.backof", "did you mean 'backoff'?"),
                arguments("hedge-zero.yaml", "steps:\n  - call: a\n    latency: 1ms\n    hedge: 0ms\n", 4,
                        "steps[0].hedge", "longer than 0"),
                arguments("tab.yaml", "steps:\n  - call: a\n\tlatency: 1ms\n", 3, "", "found character '\\t(TAB)'"),
                arguments("hedge-after-timeout.yaml", "steps:\n  - call: a\n    latency: 1ms\n    timeout: 5ms\n    hedge: 20ms\n", 5,
                        "steps[0].hedge", "a hedge after 20ms never starts: the call's timeout (5ms) ends its first attempt first"),
                arguments("hedge-field.yaml", "steps:\n  - call: a\n    latency: 1ms\n    hedge: {afer: 5ms}\n", 4,
                        "steps[0].hedge.afer", "did you mean 'after'?"),
                arguments("json-type.json", "{\"steps\": [\n  {\"cpu\": \"a\",\n   \"size\": \"100\"}]}", 3, "steps[0].size",
                        "expected a whole number, got the text '100'"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badFiles")
    void load_badFile_failsWithOneLineNamingFileLineAndField(String name, String text, int line, String field, String fragment)
            throws IOException {
        Path file = write(name, text);
        assertThatThrownBy(() -> WorkloadFile.load(file))
                .isInstanceOf(IllegalArgumentException.class)
                .satisfies(e -> {
                    String message = e.getMessage();
                    assertThat(message).doesNotContain("\n").doesNotContain("\r");
                    assertThat(message).matches(java.util.regex.Pattern.quote(file + ":" + line + ":") + "\\d+: .*");
                    if (!field.isEmpty()) assertThat(message).contains(": " + field + ": ");
                    assertThat(message).contains(fragment);
                });
    }

    @Test
    void load_missingFile_saysItDoesNotExist() {
        assertThatThrownBy(() -> WorkloadFile.load(dir.resolve("x.yaml")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("workload file '" + dir.resolve("x.yaml") + "' does not exist");
    }

    @Test
    void load_unknownExtension_namesTheAllowedOnes() throws IOException {
        Path file = write("w.txt", "steps: []\n");
        assertThatThrownBy(() -> WorkloadFile.load(file))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("w.txt").hasMessageContaining(".yaml, .yml or .json");
    }

    @Test
    void resolve_pathOfAFile_loadsIt() throws IOException {
        Path file = write("r.yaml", "steps:\n  - call: a\n    latency: 1ms\n");
        assertThat(Workloads.resolve(file.toString()).name()).isEqualTo("r");
    }
}
