package dev.blocklab.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;

/** The one Jackson configuration of blocklab: records as objects, map keys sorted, no timestamps. */
public final class Jsons {
    private Jsons() {}

    public static ObjectMapper mapper() {
        return JsonMapper.builder()
                .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
                .build();
    }
}
