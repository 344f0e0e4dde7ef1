package dev.blocklab.report;

import dev.blocklab.result.AttackResult;
import dev.blocklab.result.InstrumentHealth;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.blocklab.report.Jsons;
import dev.blocklab.result.LatencyMillis;

import java.io.UncheckedIOException;

/**
 * One JSON object; times in the unit their key names, ratios as fractions (0.9997, not 99.97). Keys in a
 * fixed order, so two results compare line by line. An attack that measured nothing (stopped in its warm-up)
 * has its counts (0 requests) and null for every rate, duration, latency, mean and ratio.
 */
final class JsonAttackReport implements Report<AttackResult> {
    private static final ObjectMapper MAPPER = Jsons.mapper().enable(SerializationFeature.INDENT_OUTPUT);

    @Override public String render(AttackResult r) {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("target", r.description());
        o.put("latencyClock", "intended send time (free of coordinated omission)");
        o.put("requests", r.requests());
        o.put("unsent", r.unsent());
        boolean measured = !r.measuredNothing();
        number(o, "ratePerSecond", measured ? r.ratePerSecond() : Double.NaN);
        number(o, "throughputPerSecond", measured ? r.throughputPerSecond() : Double.NaN);
        if (measured) {
            ObjectNode d = o.putObject("durationSeconds");
            d.put("total", r.totalNanos() / 1e9);
            d.put("attack", r.attackNanos() / 1e9);
            d.put("wait", r.waitNanos() / 1e9);
        } else {
            o.putNull("durationSeconds");
        }
        latency(o, "latencyMillis", measured, r.latencyMillis());
        latency(o, "serviceTimeMillis", measured, r.serviceTimeMillis());
        ObjectNode bytes = o.putObject("bytes");
        number(bytes.putObject("in").put("total", r.bytesIn()), "mean", measured ? (double) r.bytesIn() / r.requests() : Double.NaN);
        number(bytes.putObject("out").put("total", r.bytesOut()), "mean", measured ? (double) r.bytesOut() / r.requests() : Double.NaN);
        o.put("successes", r.successes());
        number(o, "successRatio", measured ? r.successRatio() : Double.NaN);
        ObjectNode codes = o.putObject("statusCodes");
        r.statusCodes().forEach((k, v) -> codes.put(Integer.toString(k), v));
        ObjectNode errors = o.putObject("errors");
        r.errors().forEach(errors::put);
        o.put("lateSends", r.lateSends());
        o.put("lateThresholdMillis", r.lateThresholdNanos() / 1e6);
        number(o, "maxLateMillis", measured ? r.maxLateNanos() / 1e6 : Double.NaN);
        o.put("fellBehind", r.fellBehind());
        o.put("stopped", r.stopped());
        o.put("cutOff", r.cutOff());
        o.put("retried", r.retried());
        InstrumentHealth h = r.health();
        ObjectNode i = o.putObject("instrument");
        i.put("limited", h.instrumentLimited());
        i.put("judged", h.judged());
        i.put("verdict", h.verdictLine());
        i.put("scheduled", h.scheduled());
        i.put("unsent", h.unsent());
        latency(i, "ownDelayMillis", measured, h.delays().ownMillis());
        latency(i, "sendLatenessMillis", measured, h.delays().sendLatenessMillis());
        latency(i, "handOffMillis", measured, h.delays().handOffMillis());
        latency(i, "connectionWaitMillis", measured, h.delays().connectionWaitMillis());
        latency(i, "latencyFromSendMillis", measured, h.delays().latencyFromSendMillis());
        i.put("budgetMillis", h.budgetMillis());
        number(i, "eventLoopLagP99Millis", h.eventLoopLagP99Millis());
        number(i, "eventLoopLagMaxMillis", h.eventLoopLagMaxMillis());
        number(i, "attackerCpuCores", h.attackerCpuCores());
        number(i, "eventLoopBusyShare", h.eventLoopBusyShare());
        number(i, "machineBusyShare", h.machineBusyShare());
        number(i, "eventLoopLagWaitingShare", h.lagWaitingShare());
        number(i, "eventLoopLagRunningShare", h.lagRunningShare());
        i.put("cores", h.cores());
        h.reasons().forEach(i.putArray("reasons")::add);
        try {
            return MAPPER.writeValueAsString(o) + "\n";
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A measured figure, or null (NaN) when it was not measured: nothing is, in an attack that measured nothing. */
    private static void number(ObjectNode n, String key, double v) {
        if (Double.isNaN(v)) n.putNull(key);
        else n.put(key, v);
    }

    private static void latency(ObjectNode parent, String key, boolean measured, LatencyMillis l) {
        if (!measured) {
            parent.putNull(key);
            return;
        }
        parent.putObject(key).put("count", l.count()).put("min", l.min()).put("mean", l.mean()).put("p50", l.p50()).put("p90", l.p90())
                .put("p95", l.p95()).put("p99", l.p99()).put("p999", l.p999()).put("p9999", l.p9999()).put("max", l.max());
    }
}
