package dev.blocklab.workload;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A YAML or JSON document read into a tree whose every node remembers where it was written (file, line,
 * column) and its field path ({@code steps[1].latency}), so that every problem found later while binding can
 * be reported in one line that points at the text. Jackson's own tree model keeps no locations, hence this one.
 */
sealed interface FileNode {

    Where where();

    /** A value as a reader would name it in an error: {@code the text 'abc'}, {@code the number 5}, {@code a list}. */
    String describe();

    /**
     * Where a node was written.
     *
     * @param line   1-based
     * @param column 1-based
     * @param path   field path from the document's root, {@code ""} for the root; list indexes count from 0
     */
    record Where(String file, int line, int column, String path) {

        /** One line: {@code file:line:column: path: message}. */
        Problem problem(String message) {
            String text = file + ":" + line + ":" + column + ": " + (path.isEmpty() ? "" : path + ": ") + message;
            return new Problem(oneLine(text));
        }

        String child(String key) { return path.isEmpty() ? key : path + "." + key; }

        String index(int i) { return path + "[" + i + "]"; }
    }

    /** A problem already located in the file. */
    final class Problem extends IllegalArgumentException {
        Problem(String message) { super(message); }
    }

    /** Text, a number (Long, Double or BigInteger), a Boolean, or null for an empty value. */
    record Scalar(Where where, Object value) implements FileNode {
        @Override public String describe() {
            return switch (value) {
                case null -> "an empty value";
                case String s -> "the text '" + clip(s) + "'";
                case Number n -> "the number " + n;
                case Boolean b -> b.toString();
                default -> value.toString();
            };
        }
    }

    /** A mapping, in the order written; {@code keys} holds where each key was written. */
    record Mapping(Where where, Map<String, FileNode> values, Map<String, Where> keys) implements FileNode {
        @Override public String describe() { return "a mapping"; }
    }

    record Sequence(Where where, List<FileNode> items) implements FileNode {
        @Override public String describe() { return "a list"; }
    }

    /**
     * Reads the one document of a parser positioned before its first token.
     *
     * @throws IllegalArgumentException for an empty file, duplicate keys, several documents, or syntax errors
     *                                  (these as Jackson reports them, reduced to one line)
     */
    static FileNode read(JsonParser parser, String file) {
        try {
            JsonToken first = parser.nextToken();
            if (first == null)
                throw new Where(file, 1, 1, "").problem("the file is empty (a workload needs at least 'steps')");
            FileNode root = readValue(parser, file, "");
            if (parser.nextToken() != null)
                throw where(file, parser.currentTokenLocation(), "").problem("only one document is allowed per file");
            return root;
        } catch (com.fasterxml.jackson.core.JacksonException e) {
            JsonLocation at = e.getLocation();
            int line = at == null ? 1 : Math.max(1, at.getLineNr());
            int column = at == null ? 1 : Math.max(1, at.getColumnNr());
            // SnakeYAML knows where the problem is (a tab: its own line and column); Jackson's location is the
            // last token read, the line before. A problem found only at the file's end (an unclosed list) is
            // shown where what it left open began.
            if (e.getCause() instanceof org.yaml.snakeyaml.error.MarkedYAMLException y) {
                var mark = y.getProblem() != null && y.getProblem().contains("<stream end>") && y.getContextMark() != null
                        ? y.getContextMark() : y.getProblemMark();
                if (mark != null) {
                    line = mark.getLine() + 1;
                    column = mark.getColumn() + 1;
                }
            }
            throw new Where(file, line, column, "").problem("not valid " + syntax(parser) + ": " + syntaxMessage(e));
        } catch (IOException e) {
            throw new IllegalArgumentException(oneLine("cannot read workload file '" + file + "': " + e.getMessage()));
        }
    }

    private static FileNode readValue(JsonParser p, String file, String path) throws IOException {
        Where here = where(file, p.currentTokenLocation(), path);
        JsonToken token = p.currentToken();
        return switch (token) {
            case START_OBJECT -> {
                Map<String, FileNode> values = new LinkedHashMap<>();
                Map<String, Where> keys = new LinkedHashMap<>();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String key = p.currentName();
                    String childPath = here.child(key);
                    Where keyWhere = where(file, p.currentTokenLocation(), childPath);
                    if (keys.containsKey(key))
                        throw keyWhere.problem("'" + key + "' is given twice (first at line " + keys.get(key).line() + ")");
                    p.nextToken();
                    values.put(key, readValue(p, file, childPath));
                    keys.put(key, keyWhere);
                }
                yield new Mapping(here, Collections.unmodifiableMap(values), Collections.unmodifiableMap(keys));
            }
            case START_ARRAY -> {
                List<FileNode> items = new ArrayList<>();
                while (p.nextToken() != JsonToken.END_ARRAY) items.add(readValue(p, file, here.index(items.size())));
                yield new Sequence(here, List.copyOf(items));
            }
            case VALUE_STRING -> {
                if (p instanceof com.fasterxml.jackson.dataformat.yaml.YAMLParser y && y.isCurrentAlias())
                    throw here.problem("YAML aliases such as '*" + clip(p.getText()) + "' are not supported: write the value itself");
                yield new Scalar(here, p.getText());
            }
            case VALUE_NUMBER_INT -> new Scalar(here, switch (p.getNumberType()) {
                case INT, LONG -> p.getLongValue();
                default -> p.getBigIntegerValue();
            });
            case VALUE_NUMBER_FLOAT -> new Scalar(here, p.getDoubleValue());
            case VALUE_TRUE -> new Scalar(here, Boolean.TRUE);
            case VALUE_FALSE -> new Scalar(here, Boolean.FALSE);
            case VALUE_NULL -> new Scalar(here, null);
            default -> throw here.problem("unsupported value (" + token + ")");
        };
    }

    private static Where where(String file, JsonLocation at, String path) {
        return new Where(file, Math.max(1, at.getLineNr()), Math.max(1, at.getColumnNr()), path);
    }

    private static String syntax(JsonParser parser) {
        return parser.getClass().getSimpleName().startsWith("YAML") ? "YAML" : "JSON";
    }

    /** Jackson's and SnakeYAML's messages span several lines and repeat the location: keep the first line's gist. */
    private static String syntaxMessage(com.fasterxml.jackson.core.JacksonException e) {
        if (e.getCause() instanceof org.yaml.snakeyaml.error.MarkedYAMLException y && y.getProblem() != null)
            return y.getProblem().trim() + (y.getContext() != null ? " (" + y.getContext().trim() + ")" : "");
        return dev.blocklab.TextFiles.readProblem(e);
    }

    static String oneLine(String text) {
        return text.replaceAll("\\s*\\R\\s*", " ");
    }

    static String clip(String text) {
        String t = oneLine(text);
        return t.length() <= 60 ? t : t.substring(0, 57) + "...";
    }
}
