package dev.blocklab.datastore;

import dev.blocklab.workload.BuiltInWorkloads;
import dev.blocklab.workload.WorkloadFile;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Which workloads need a real database or cache, and which would start one for nothing: checked before any starts. */
class DatastoresCheckTest {
    private static final DatastoreSettings NONE = new DatastoreSettings(false, null, false, null, 10, 1, DatastoreSettings.DEFAULT_POOL_TIMEOUT_NANOS);
    private static final DatastoreSettings POSTGRES = new DatastoreSettings(true, null, false, null, 10, 1, DatastoreSettings.DEFAULT_POOL_TIMEOUT_NANOS);
    private static final DatastoreSettings REDIS_URL = new DatastoreSettings(false, null, false, "redis://127.0.0.1:6379", 10, 1, DatastoreSettings.DEFAULT_POOL_TIMEOUT_NANOS);

    @Test void aDatabaseNoStepUses_isRefused_namingTheFlagGiven() {
        var simulated = BuiltInWorkloads.hundredCalls().graph();
        assertThatThrownBy(() -> Datastores.checkUsed(simulated, POSTGRES))
                .hasMessageStartingWith("--backend postgres: no step of this workload is a SQL step");
        assertThatThrownBy(() -> Datastores.checkUsed(simulated, REDIS_URL))
                .hasMessageStartingWith("--redis-url: no step of this workload is a Redis step");
        assertThatCode(() -> Datastores.checkUsed(simulated, NONE)).doesNotThrowAnyException();
    }

    @Test void aSqlWorkload_needsTheDatabase_andUsesIt() {
        var sql = WorkloadFile.load(Path.of("examples/slow-query.yaml")).graph();
        assertThatThrownBy(() -> Datastores.check(sql, NONE)).hasMessageContaining("is a SQL step: add --backend postgres");
        assertThatCode(() -> Datastores.checkUsed(sql, POSTGRES)).doesNotThrowAnyException();
    }

    @Test void anUnknownRedisCommand_isRefusedBeforeAnyServerStarts_namingTheStep() {
        // it was found only at the first call: every request failed, and the run exited 0
        var typo = new dev.blocklab.workload.Graph(0L, java.util.List.of(new dev.blocklab.workload.Step.Call("cache", java.util.List.of(),
                new dev.blocklab.workload.Latency.Fixed(0), new dev.blocklab.workload.Value.Constant(0L), 0, null, 0,
                dev.blocklab.workload.Operation.Redis.parse("HGETAL account:{row}", 1))));
        assertThatThrownBy(() -> Datastores.check(typo, REDIS_URL))
                .hasMessage("step 'cache': unknown Redis command 'HGETAL'; did you mean 'HGETALL'?");
        var gets = WorkloadFile.load(Path.of("examples/redis-gets.yaml")).graph();
        assertThatCode(() -> Datastores.check(gets, REDIS_URL)).doesNotThrowAnyException();
    }

    @Test void aConnectionFailure_saysWhatIsUnderIt() {
        var e = new java.sql.SQLException("The connection attempt failed.",
                new java.net.UnknownHostException("nohost.invalid"));
        assertThat(Datastores.withCauses(e)).isEqualTo("The connection attempt failed.: UnknownHostException nohost.invalid");
        var same = new java.sql.SQLException("Connection to 127.0.0.1:1 refused.", new java.net.ConnectException("Connection refused"));
        assertThat(Datastores.withCauses(same)).as("a cause that repeats the message adds nothing").isEqualTo("Connection to 127.0.0.1:1 refused.");
    }
}
