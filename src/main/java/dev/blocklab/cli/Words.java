package dev.blocklab.cli;

import java.util.List;

/** How the CLI's lines count and list things: {@code 1 run}, {@code 2 runs}; {@code a, b and c}. */
final class Words {
    private Words() {}

    /** {@code n} and {@code noun}, plural unless {@code n} is 1: {@code 1 run}, {@code 0 runs}, {@code 3 runs}. */
    static String count(long n, String noun) { return n + " " + noun + (n == 1 ? "" : "s"); }

    /** {@code a}, {@code a and b}, {@code a, b and c}. */
    static String inWords(List<String> names) {
        if (names.size() <= 1) return String.join("", names);
        return String.join(", ", names.subList(0, names.size() - 1)) + " and " + names.getLast();
    }
}
