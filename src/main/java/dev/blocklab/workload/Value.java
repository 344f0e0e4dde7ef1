package dev.blocklab.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

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

    /**
     * A template whose {@code {name}} placeholders are replaced by the named inputs' values; a placeholder whose
     * input is absent (or null) stays as written. A name is letters, digits, {@code _} and {@code -}.
     */
    record Format(String template) implements Value {
        public Format { Objects.requireNonNull(template, "template"); }

        /**
         * One pass over the template, looking each name up among the inputs: no pattern matcher, map or
         * replacement strings per call (a server formats a page this way for every request).
         */
        @Override public Object apply(List<Object> inputs, List<String> names) {
            StringBuilder sb = new StringBuilder(template.length() + 16 * names.size());
            int copied = 0;
            for (int open = template.indexOf('{'); open >= 0; open = template.indexOf('{', open + 1)) {
                int end = placeholderEnd(open);
                if (end < 0) continue;
                Object value = valueOf(template, open + 1, end, inputs, names);
                if (value == null) continue;
                sb.append(template, copied, open).append(value);
                copied = end + 1;
                open = end;
            }
            return sb.append(template, copied, template.length()).toString();
        }

        /** The value of the last input named {@code template[from, to)}, or null when none is. */
        private static Object valueOf(String template, int from, int to, List<Object> inputs, List<String> names) {
            for (int i = names.size() - 1; i >= 0; i--) {
                String name = names.get(i);
                if (name.length() == to - from && template.regionMatches(from, name, 0, name.length())) return inputs.get(i);
            }
            return null;
        }

        /** Where the placeholder opened at {@code open} closes (its '}'), or -1 when none does: the one grammar. */
        private int placeholderEnd(int open) {
            int end = open + 1;
            while (end < template.length() && isNameChar(template.charAt(end))) end++;
            return end > open + 1 && end < template.length() && template.charAt(end) == '}' ? end : -1;
        }

        private static boolean isNameChar(char c) {
            return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
        }

        /** Placeholder names the template uses, for validation, in order. */
        public List<String> placeholders() {
            List<String> found = new ArrayList<>();
            for (int open = template.indexOf('{'); open >= 0; open = template.indexOf('{', open + 1)) {
                int end = placeholderEnd(open);
                if (end < 0) continue;
                found.add(template.substring(open + 1, end));
                open = end;
            }
            return List.copyOf(found);
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
