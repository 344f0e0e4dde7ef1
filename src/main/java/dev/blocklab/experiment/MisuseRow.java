package dev.blocklab.experiment;

import java.util.List;

/**
 * One case of {@code reproduce misuse}.
 *
 * @param caseName     e.g. {@code supplyasync-common-pool (wrong)}
 * @param wrong        true for a deliberate misuse, false for the correct way beside it
 * @param description  what it does
 * @param expectedRule the rule the auditor must report, or {@code -} for a correct case
 * @param expectedLine the line that blocks ({@code Class.java:42}), or {@code -}
 * @param found        what the auditor reported for this case: {@code rule at Class.method(File.java:line)}
 * @param verdict      {@code flagged as expected}, {@code clean as expected}, {@code MISSED} or {@code FALSE POSITIVE}
 */
public record MisuseRow(String caseName, boolean wrong, String description, String expectedRule, String expectedLine,
                        List<String> found, String verdict) {
    public static final String FLAGGED = "flagged as expected";
    public static final String CLEAN = "clean as expected";
    public static final String MISSED = "MISSED";
    public static final String FALSE_POSITIVE = "FALSE POSITIVE";

    public MisuseRow {
        found = List.copyOf(found);
    }

    public boolean asExpected() { return verdict.equals(FLAGGED) || verdict.equals(CLEAN); }
}
