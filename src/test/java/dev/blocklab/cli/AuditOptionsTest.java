package dev.blocklab.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code --audit} and {@code --fail-if} through the command line, end to end at time scale 1/100. */
class AuditOptionsTest {
    @TempDir Path tmp;

    record Ran(int code, String out, String err) {}

    private Ran run(String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        int code = Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Ran(code, out.toString(), err.toString());
    }

    private String[] audited(String model, String... more) {
        String[] base = {"run", "--workload", "hundred-calls", "--model", model, "--requests", "8", "--time-scale", "10",
                "--warmups", "0", "--repeats", "1", "--quiet", "--save", tmp.resolve(model.replace(':', '-') + ".jsonl").toString(), "--audit"};
        String[] all = java.util.Arrays.copyOf(base, base.length + more.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return all;
    }

    @Test
    void run_auditFindsTheByDesignBlocking_failIfMisuseStaysGreen_failIfFindingsFails() throws Exception {
        Ran byDesign = run(audited("forkjoin:2", "--fail-if", "misuse>0"));
        assertThat(byDesign.code()).as(byDesign.err()).isZero();
        assertThat(byDesign.out()).contains("audit: blocking where it must not happen")
                .contains("fork-join-without-managed-blocker").contains("CallAttempts.java").contains("by design");   // the call site, not the simulated backend
        assertThat(Files.readString(tmp.resolve("forkjoin-2.jsonl"))).contains("\"kind\":\"audit\"")
                .contains("\"rule\":\"fork-join-without-managed-blocker\"");

        Ran strict = run(audited("forkjoin:2", "--fail-if", "findings>0"));
        assertThat(strict.code()).isEqualTo(1);
        assertThat(strict.err()).contains("fail-if findings>0: findings was 1");
    }

    @Test
    void run_badAuditInput_isOneLineAndExitTwo() {
        Ran noAudit = run("run", "--workload", "hundred-calls", "--model", "virtual", "--fail-if", "misuse>0");
        assertThat(noAudit.code()).isEqualTo(Main.EXIT_USAGE);
        assertThat(noAudit.err()).contains("--fail-if needs --audit");
        Ran stallAlone = run("run", "--workload", "hundred-calls", "--model", "virtual", "--audit-stall", "5s");
        assertThat(stallAlone.code()).isEqualTo(Main.EXIT_USAGE);
        assertThat(stallAlone.err()).contains("--audit-stall needs --audit");
        // the same rule for the pools of servers a run does not use
        Ran poolAlone = run("run", "--workload", "hundred-calls", "--model", "virtual", "--db-pool", "5");
        assertThat(poolAlone.code()).isEqualTo(Main.EXIT_USAGE);
        assertThat(poolAlone.err()).contains("--db-pool sizes the PostgreSQL pool: it needs --backend postgres or --postgres-url");
        Ran bad = run(audited("virtual", "--fail-if", "p99>1s"));
        assertThat(bad.code()).isEqualTo(Main.EXIT_USAGE);
        assertThat(bad.err()).contains("--fail-if: 'p99>1s' is not an audit condition");
        Ran threshold = run(audited("virtual", "--audit-threshold", "soon"));
        assertThat(threshold.code()).isEqualTo(Main.EXIT_USAGE);
        assertThat(threshold.err()).contains("--audit-threshold");
    }

    @Test
    void reproduceMisuse_underAudit_printsTheFindingsOnce() {
        Ran ran = run("reproduce", "misuse", "--audit", "--quiet", "--save", tmp.resolve("misuse.jsonl").toString());
        assertThat(ran.code()).as(ran.err()).isZero();
        String title = "audit: blocking where it must not happen";
        assertThat(ran.out().split(java.util.regex.Pattern.quote(title), -1)).as("the audit table, once").hasSize(2);
        assertThat(ran.out()).as("the showcase judged by the command's audit")
                .contains("7 of 7 wrong cases flagged with the expected rule at the expected line; 7 of 7 correct cases clean.")
                .contains("audit vertx-event-loop-sleep (wrong) blocking-on-event-loop on event loop");
    }

    @Test
    void serve_thatFailsToStart_leavesNoAuditRunning() throws Exception {
        long before = watchdogs();
        Ran badProfile = run("serve", "--audit", "--profile", "threads:lots");
        assertThat(badProfile.code()).as(badProfile.err()).isEqualTo(Main.EXIT_USAGE);
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            Ran portInUse = run("serve", "--audit", "--port", Integer.toString(taken.getLocalPort()));
            assertThat(portInUse.code()).as(portInUse.err()).isEqualTo(Main.EXIT_USAGE);
        }
        // the watchdog is joined when the audit is closed: none of these commands may leave one behind
        assertThat(watchdogs()).as("audit watchdog threads still running").isLessThanOrEqualTo(before);
    }

    private static long watchdogs() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals("blocklab-audit-watchdog")).count();
    }
}
