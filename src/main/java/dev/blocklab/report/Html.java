package dev.blocklab.report;

import java.math.BigDecimal;
import java.math.MathContext;

/** Escaping and number formatting for the HTML report; independent of the default locale. */
final class Html {
    private Html() {}

    /** Text safe in element content and in double-quoted attributes. */
    static String esc(String s) {
        if (s == null) return "";
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    /** A number to six significant digits, without exponent or trailing zeros, e.g. {@code 1234.5}, {@code 0.001}. */
    static String num(double v) {
        if (v == 0) return "0";
        return new BigDecimal(v).round(new MathContext(6)).stripTrailingZeros().toPlainString();
    }
}
