package dev.blocklab.cli;

import dev.blocklab.datastore.Datastores;
import dev.blocklab.datastore.PoolBounds;
import dev.blocklab.datastore.PoolPrediction;
import dev.blocklab.load.Rates;
import dev.blocklab.result.PoolStats;
import dev.blocklab.result.RunResult;
import dev.blocklab.workload.Arrival;
import dev.blocklab.workload.Workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The notes a run over real servers adds: each pool's measured figures and Little's law beside the throughput. */
final class DatastoreNotes {
    private DatastoreNotes() {}

    /** The model, its prediction bounded by the pools its requests wait on (Little's law), for a run over real servers. */
    static java.util.function.Function<dev.blocklab.model.ModelContext, dev.blocklab.model.Model> poolBound(
            Workload w, dev.blocklab.model.ModelSpec model, dev.blocklab.datastore.DatastoreSettings real) {
        PoolBounds bounds = new PoolBounds(w.graph(), real);
        return context -> bounds.wrap(model.create(context), model);
    }

    /** What {@link #poolBound}'s model predicts, from the entry's own formula: no instance made, no thread started. */
    static java.util.function.Function<dev.blocklab.model.Demand, dev.blocklab.model.Prediction> poolBoundFormula(
            Workload w, dev.blocklab.model.ModelSpec model, dev.blocklab.datastore.DatastoreSettings real, int spareThreads) {
        PoolBounds bounds = new PoolBounds(w.graph(), real);
        return demand -> bounds.bound(model.predict(demand, spareThreads), demand, model);
    }

    static List<String> forRun(Workload w, dev.blocklab.model.ModelSpec model, RunResult r, Datastores servers, long timeScale) {
        List<String> notes = new ArrayList<>();
        for (PoolStats s : r.pools()) notes.add(r.model() + ": " + s.line() + (r.repeats().count() > 1 ? " (the run of median wall time)" : ""));
        for (PoolBounds.Bound b : new PoolBounds(w.graph(), servers.settings()).of(model)) {
            PoolPrediction p = b.pool();
            String offered = w.arrival() instanceof Arrival.Open o
                    ? "; offered " + Rates.number(o.peakRatePerSecond() * timeScale) + " req/s, so at most "
                            + Rates.number(p.throughputPerSecond(o.peakRatePerSecond() * timeScale)) + " req/s"
                    : "";
            // the pool's ceiling bounds the requests it served: the successful ones, not those that failed waiting for it
            double completed = r.timing().throughputPerSecond();
            double ok = r.counts().requests() == 0 ? 0 : completed * r.counts().successes() / r.counts().requests();
            String measured = r.counts().successes() == r.counts().requests() ? "measured " + Rates.number(completed) + " req/s"
                    : String.format(Locale.ROOT, "measured %s successful req/s (%s req/s completed, %d of %d failed)", Rates.number(ok),
                            Rates.number(completed), r.counts().requests() - r.counts().successes(), r.counts().requests());
            notes.add(String.format(Locale.ROOT, "%s: Little's law for the %s: %s%s; %s (SQL and Redis steps are real time: --time-scale does not shorten them)",
                    r.model(), b.what(), p.basis(), offered, measured));
        }
        return notes;
    }
}
