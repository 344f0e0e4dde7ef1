package dev.blocklab.report;

import java.util.ArrayList;
import java.util.List;

/** Text broken into lines that fit a width: the text report's notes and cells, and the CLI's listings. */
public final class TextWrap {
    private TextWrap() {}

    /** The words of {@code text}, a lone unit ({@code %}) kept with the number before it. */
    private static List<String> words(String text) {
        List<String> words = new ArrayList<>();
        for (String word : text.split(" ")) {
            if (word.equals("%") && !words.isEmpty()) words.set(words.size() - 1, words.getLast() + " %");
            else words.add(word);
        }
        return words;
    }

    /**
     * {@code text} in lines of at most {@code width} characters, broken at spaces (a longer word is cut), every
     * line after the first starting with {@code indent}.
     */
    public static List<String> lines(String text, int width, String indent) {
        List<String> lines = new ArrayList<>();
        if (text.length() <= width) {
            lines.add(text);
            return lines;
        }
        StringBuilder line = new StringBuilder();
        for (String word : words(text)) {
            if (!line.isEmpty() && line.length() + 1 + word.length() > width) {
                lines.add(line.toString());
                line.setLength(0);
            }
            if (line.isEmpty()) line.append(lines.isEmpty() ? "" : indent);
            else line.append(' ');
            line.append(word);
            while (line.length() > width) {   // a word longer than the line
                lines.add(line.substring(0, width));
                String rest = line.substring(width);
                line.setLength(0);
                line.append(indent).append(rest);
            }
        }
        if (!line.isEmpty() && !line.toString().equals(indent)) lines.add(line.toString());
        return lines;
    }
}
