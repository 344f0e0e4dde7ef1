package dev.blocklab.workload;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** How a step computes its value from its inputs. Pure and deterministic. */
public sealed interface Value {

    /**
     * @param inputs the input values in the order the step names them
     * @param names  the input names, parallel to {@code inputs}
     */
    Object apply(List<Object> inputs, List<String> names);

    /** Always the same value. */
    record Constant(Object value) implements Value {
        public Constant { Objects.requireNonNull(value, "value"); }
        @Override public Object apply(List<Object> inputs, List<String> names) { return value; }
    }

    /** The sum of the numeric inputs plus {@code add}. */
    record Sum(long add) implements Value {
        @Override public Object apply(List<Object> inputs, List<String> names) {
            long sum = add;
            for (Object in : inputs) {
                try {
                    sum = Math.addExact(sum, asLong(in));
                } catch (ArithmeticException e) {
                    throw new ArithmeticException("sum of " + names + " overflows a 64-bit whole number");
                }
            }
            return sum;
        }
    }

    /** The inputs' text joined by a separator. */
    record Concat(String separator) implements Value {
        public Concat { Objects.requireNonNull(separator, "separator"); }
        @Override public Object apply(List<Object> inputs, List<String> names) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < inputs.size(); i++) {
                if (i > 0) sb.append(separator);
                sb.append(inputs.get(i));
            }
            return sb.toString();
        }
    }

    /** A template whose {@code {name}} placeholders are replaced by the named inputs' values. */
    record Format(String template) implements Value {
        private static final Pattern PLACEHOLDER = Pattern.compile("\\{([A-Za-z0-9_-]+)}");

        public Format { Objects.requireNonNull(template, "template"); }

        @Override public Object apply(List<Object> inputs, List<String> names) {
            Map<String, Object> byName = new java.util.HashMap<>();
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

        /** Placeholder names the template uses, for validation. */
        public List<String> placeholders() {
            return PLACEHOLDER.matcher(template).results().map(r -> r.group(1)).toList();
        }
    }

    static long asLong(Object value) {
        return switch (value) {
            case Number n -> n.longValue();
            case String s -> {
                try { yield Long.parseLong(s.trim()); }
                catch (NumberFormatException e) { throw new IllegalArgumentException("not a number: '" + s + "'"); }
            }
            default -> throw new IllegalArgumentException("not a number: " + value);
        };
    }
}
