package dev.blocklab.audit;

import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One stack frame: the declaring class's binary name, the method, and the source line ({@code -1} when unknown).
 * JFR frames carry no file name; {@link #file()} derives it from the outermost class, as javac names sources.
 */
public record Frame(String className, String method, int line) {
    private static final Pattern TEXT = Pattern.compile("(?:[^/()]+/)?([\\w$.]+)\\.([^.()]+)\\(([^:()]*)(?::(\\d+))?\\)");

    public Frame {
        Objects.requireNonNull(className, "className");
        Objects.requireNonNull(method, "method");
    }

    /** {@code Outer.java} for {@code a.b.Outer$Inner}; JFR does not record the SourceFile attribute. */
    public String file() {
        String simple = className.substring(className.lastIndexOf('.') + 1);
        int dollar = simple.indexOf('$');
        return (dollar > 0 ? simple.substring(0, dollar) : simple) + ".java";
    }

    /** {@code a.b.Outer$Inner.method(Outer.java:42)}, the layout of a Java stack trace. */
    @Override public String toString() {
        return className + "." + method + "(" + file() + (line >= 0 ? ":" + line : "") + ")";
    }

    /**
     * Parses one line of a Java stack trace or of a JDK thread dump, e.g.
     * {@code java.base/java.lang.Thread.sleep(Thread.java:509)} or {@code a.B.m(Native Method)}.
     *
     * @throws IllegalArgumentException when the text is not a frame
     */
    public static Frame parse(String text) {
        Matcher m = TEXT.matcher(text.strip().replace("\\/", "/"));
        if (!m.matches()) throw new IllegalArgumentException("not a stack frame: '" + text + "'");
        return new Frame(m.group(1), m.group(2), m.group(4) == null ? -1 : Integer.parseInt(m.group(4)));
    }

    public static Frame of(StackTraceElement e) {
        return new Frame(e.getClassName(), e.getMethodName(), e.getLineNumber() < 0 ? -1 : e.getLineNumber());
    }

    /** True when the frame belongs to {@code className} and {@code method}. */
    public boolean is(String className, String method) {
        return this.className.equals(className) && this.method.equals(method);
    }
}
