package dev.blocklab.experiment;

import dev.blocklab.report.SeedRow;
import dev.blocklab.driver.InProcessDriver;
import dev.blocklab.driver.RunSettings;
import dev.blocklab.model.Model;
import dev.blocklab.model.ModelContext;
import dev.blocklab.model.Models;
import dev.blocklab.result.RunResult;
import dev.blocklab.workload.Workload;

import java.util.function.Function;

/**
 * Measures one row of a seed experiment: fast runs (predicted under {@value #REPEAT_BELOW_MILLIS} ms at the run's
 * time scale) get a warm-up and three repeats, slower ones a single run, so a quick reproduce stays near a minute.
 */
final class SeedRuns {
    static final long REPEAT_BELOW_MILLIS = 300;

    private final InProcessDriver driver = new InProcessDriver();
    private final ExperimentSettings settings;

    SeedRuns(ExperimentSettings settings) { this.settings = settings; }

    RunSettings runSettings() {
        return RunSettings.DEFAULTS.withTimeScale(settings.timeScale());
    }

    RunResult measure(Workload workload, String modelSpec) {
        var spec = Models.parse(modelSpec);
        return measure(workload, modelSpec, spec::create, InProcessDriver.predict(workload, spec, runSettings()).millis());
    }

    /** A model that is not in the registry (a seed's own style): made once more, to ask its prediction. */
    RunResult measure(Workload workload, String name, Function<ModelContext, Model> models) {
        return measure(workload, name, models, driver.predict(workload, models, runSettings()).millis());
    }

    private RunResult measure(Workload workload, String name, Function<ModelContext, Model> models, double predictedMillis) {
        RunSettings rs = predictedMillis < REPEAT_BELOW_MILLIS ? runSettings().withRuns(1, 3) : runSettings().withRuns(0, 1);
        return driver.run(workload, name, models, rs, line -> settings.progress().update(workload.name() + " " + line));
    }

    /** Predicted wall time in milliseconds at this experiment's time scale. */
    double predictMillis(Workload workload, String modelSpec) {
        return InProcessDriver.predict(workload, Models.parse(modelSpec), runSettings()).millis();
    }

    /** Hands the row to the sink and returns it. */
    SeedRow emit(SeedRow row) {
        settings.rowSink().accept(row);
        return row;
    }
}
