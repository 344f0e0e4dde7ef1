package dev.blocklab.workload;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

class ValueTest {

    @Test
    void format_replacesNamedInputs_leavesUnknownAndNullAndMalformedPlaceholders() {
        List<Object> inputs = new ArrayList<>(List.of("Ada", 3L));
        inputs.add(null);
        List<String> names = List.of("user", "posts", "gone");
        assertThat(new Value.Format("Hello {user}, you have {posts} posts!").apply(inputs, names))
                .isEqualTo("Hello Ada, you have 3 posts!");
        assertThat(new Value.Format("{missing} {gone} {} {user {po sts} {{user}}").apply(inputs, names))
                .isEqualTo("{missing} {gone} {} {user {po sts} {Ada}");
        assertThat(new Value.Format("{user}{user}-{posts}").apply(inputs, names)).isEqualTo("AdaAda-3");
        assertThat(new Value.Format("").apply(inputs, names)).isEqualTo("");
        assertThat(new Value.Format("{user").apply(inputs, names)).isEqualTo("{user");
    }

    @Test
    void format_theLastInputOfANameWins_asAMapFilledInOrderWould() {
        assertThat(new Value.Format("{a}").apply(List.of(1L, 2L), List.of("a", "a"))).isEqualTo("2");
    }

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([A-Za-z0-9_-]+)}");

    /** The one-pass formatter and its placeholder list against the regular expression they replaced, on random templates over a small alphabet. */
    @Test
    void format_agreesWithTheRegularExpressionReference_onRandomTemplates() {
        SplittableRandom random = new SplittableRandom(7);
        String alphabet = "{}ab_-$\\ 9";
        List<String> names = List.of("a", "b", "ab", "a-b", "9");
        List<Object> inputs = List.of("X", "$1\\", 12L, "{a}", "");
        for (int round = 0; round < 20_000; round++) {
            StringBuilder t = new StringBuilder();
            int length = random.nextInt(16);
            for (int i = 0; i < length; i++) t.append(alphabet.charAt(random.nextInt(alphabet.length())));
            String template = t.toString();
            assertThat(new Value.Format(template).apply(inputs, names)).as("template '%s'", template)
                    .isEqualTo(reference(template, inputs, names));
            assertThat(new Value.Format(template).placeholders()).as("placeholders of '%s'", template)
                    .isEqualTo(PLACEHOLDER.matcher(template).results().map(r -> r.group(1)).toList());
        }
    }

    private static String reference(String template, List<Object> inputs, List<String> names) {
        Map<String, Object> byName = new HashMap<>();
        for (int i = 0; i < names.size(); i++) byName.put(names.get(i), inputs.get(i));
        Matcher m = PLACEHOLDER.matcher(template);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            Object v = byName.get(m.group(1));
            m.appendReplacement(sb, Matcher.quoteReplacement(v == null ? m.group() : String.valueOf(v)));
        }
        m.appendTail(sb);
        return sb.toString();
    }
}
