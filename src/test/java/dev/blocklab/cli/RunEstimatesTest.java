package dev.blocklab.cli;

import dev.blocklab.datastore.DatastoreSettings;
import dev.blocklab.driver.RunSettings;
import dev.blocklab.model.ModelSpec;
import dev.blocklab.registry.Registry;
import dev.blocklab.workload.Workload;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The time {@code run}'s progress line expects each model to take. */
class RunEstimatesTest {
    private static final long MS = 1_000_000L;

    @Test void aDatabaseRun_isEstimatedFromThePoolBound_asItsPredictionIs() {
        // 100 requests of one 100 ms query: through 10 connections, 10 waves of 100 ms whatever the model's threads.
        // The model's formula alone says 100 ms for virtual; the progress line once expected that, was 10 x off on the
        // first model, and carried the error to the rest (~115 s left for an 8 s model).
        Workload w = Registry.workload(Path.of("examples/slow-query.yaml").toString());
        List<ModelSpec> specs = List.of(Registry.parse("virtual"), Registry.parse("fixed:2"));
        RunSettings settings = RunSettings.DEFAULTS.withRuns(1, 3);   // 4 runs a model
        DatastoreSettings postgres = DatastoreSettings.none().withDbPool(10);
        postgres = new DatastoreSettings(true, null, false, null, 10, postgres.redisPoolSize(), postgres.poolTimeoutNanos());
        long[] withPool = RunCommand.estimates(w, specs, settings, postgres);
        assertThat(withPool[0]).as("virtual: 10 waves of 100 ms, 4 runs").isEqualTo(4 * 1_000 * MS);
        assertThat(withPool[1]).as("fixed:2: 50 waves of its 2 threads, more than the pool's 10").isEqualTo(4 * 5_000 * MS);
        long[] modelsAlone = RunCommand.estimates(w, specs, settings, DatastoreSettings.none());
        assertThat(modelsAlone[0]).as("without a database the pool does not bound it").isEqualTo(4 * 100 * MS);
    }
}
