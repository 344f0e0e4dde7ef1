package dev.blocklab.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import dev.blocklab.result.Chart;
import dev.blocklab.result.ExperimentResult;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code {"experiment": ..., "scale": ..., "environment": {...}, "rows": [...], "notes": [...], "tables": [...],
 * "charts": [...]}}, pretty
 * printed; each row's fields as its record declares them. Documented in docs/json.md.
 */
final class JsonReport implements Report<ExperimentResult> {
    private static final TypeReference<List<Chart>> CHARTS = new TypeReference<>() {};

    @Override public String render(ExperimentResult result) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("experiment", result.experiment());
        root.put("description", result.description());
        root.put("scale", result.scale());
        root.put("environment", result.environment());
        root.put("rows", result.rows());
        root.put("notes", result.notes());
        root.put("tables", result.tables());
        try {
            // written for their declared type, so each chart carries its "type"
            root.put("charts", Json.MAPPER.readTree(Json.MAPPER.writerFor(CHARTS).writeValueAsString(result.charts())));
            return Json.PRETTY.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** The shared Jackson set-up. */
    static final class Json {
        static final ObjectMapper MAPPER = Jsons.mapper();
        static final ObjectWriter PRETTY = MAPPER.writerWithDefaultPrettyPrinter();
    }
}
