package dev.blocklab.cli;

import dev.blocklab.attack.Attack;
import dev.blocklab.attack.AttackSettings;
import dev.blocklab.k8s.IndexedJob;
import dev.blocklab.shard.StartAt;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code blocklab k8s-job}: writes the Kubernetes manifests of a distributed attack (an Indexed Job, one pod per
 * shard) and says how to merge the shards. The attack's own arguments follow {@code --} and are checked here, as
 * {@code blocklab attack} would check them, before any manifest is written.
 */
@Command(name = "k8s-job", mixinStandardHelpOptions = true,
        description = {"Write the Kubernetes manifests of a distributed attack: an Indexed Job (completionMode Indexed, parallelism N) "
                + "whose pod I runs 'blocklab attack ARGS --shard I/N' (I from JOB_COMPLETION_INDEX) from one common --start-at, "
                + "and how to merge the shards afterwards ('blocklab report --merge'). Built with fabric8's typed Kubernetes model.",
                "The shard records go to the pods' logs, or with --volume-claim to a shared volume, where --merge-job's Job merges them. "
                        + "See docs/distributed.md for a run on a real cluster and the image to build."},
        footer = {"", "Examples:",
                "  blocklab k8s-job --workers 8 --image reg.example/blocklab:0.1 -- http://target:8080/ --rate 40000/s > attack.yaml",
                "  blocklab k8s-job --workers 4 --image reg/blocklab:0.1 --start-in 5m --cpu 2 -- http://t:80/ --rate 100/s..2000/s",
                "  blocklab k8s-job --workers 8 --image reg/blocklab:0.1 --volume-claim results --merge-job m.yaml -- http://t:80/"})
final class K8sJobCommand implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    /** Taken as every command takes them (an error's stack trace with --verbose). */
    @CommandLine.Mixin SharedOptions.Console console = new SharedOptions.Console();

    @Option(names = "--workers", paramLabel = "N", required = true, description = "Pods, one shard each (the Job's completions and parallelism).")
    int workers;

    @Option(names = "--image", paramLabel = "IMAGE", required = true, description = "The container image holding blocklab, its entrypoint the blocklab command (docs/distributed.md builds one).")
    String image;

    @Option(names = "--name", paramLabel = "NAME", defaultValue = "blocklab-attack", description = "The Job's name, also its pods' label blocklab.dev/attack (default: ${DEFAULT-VALUE}).")
    String name;

    @Option(names = "--namespace", paramLabel = "NS", description = "The namespace (default: kubectl's current one).")
    String namespace;

    @Option(names = "--start-at", paramLabel = "TIME", description = "The common start of the measured schedule: an ISO-8601 instant or epoch milliseconds (default: --start-in from now).")
    String startAt;

    @Option(names = "--start-in", paramLabel = "D", defaultValue = "2m", description = "Without --start-at, start this long after the manifests are written: time to apply them and for every pod to be pulled and running (default: ${DEFAULT-VALUE}).")
    String startIn;

    @Option(names = "--cpu", paramLabel = "CORES", defaultValue = "1", description = "CPU per pod, requested and limited alike (default: ${DEFAULT-VALUE}).")
    String cpu;

    @Option(names = "--memory", paramLabel = "BYTES", defaultValue = "1Gi", description = "Memory per pod, requested and limited alike (default: ${DEFAULT-VALUE}).")
    String memory;

    @Option(names = "--volume-claim", paramLabel = "PVC", description = "A ReadWriteMany PersistentVolumeClaim mounted at /results: each pod saves its shard there (default: the pods' logs).")
    String volumeClaim;

    @Option(names = "--out", paramLabel = "FILE", description = "Write the attack Job's YAML to FILE (default: standard output).")
    Path out;

    @Option(names = "--merge-job", paramLabel = "FILE", description = "Also write the Job that merges the shards on --volume-claim to FILE; apply it once the attack Job has completed.")
    Path mergeJob;

    @Parameters(paramLabel = "ATTACK-ARGS", arity = "1..*", description = "After --: the arguments of 'blocklab attack' (URL, --rate, --duration, ...), the same for every pod.")
    List<String> attackArgs = new ArrayList<>();

    @Override public Integer call() {
        AttackSettings settings = checkAttack(attackArgs);
        Instant start = startAt != null ? StartAt.parse(startAt, Clock.systemUTC(), 0)
                : Instant.now().plusNanos(Flags.duration("--start-in", startIn)).truncatedTo(ChronoUnit.SECONDS);
        Attack.refuseEnded(settings.schedule(), start, Instant.now());   // every pod's attack would refuse it
        IndexedJob job = new IndexedJob(name, namespace, image, workers, attackArgs, start, cpu, memory, volumeClaim);
        Job attack = job.attackJob();
        Job merge = mergeJob == null ? null : job.mergeJob();   // refused without --volume-claim, before anything is written
        if (mergeJob != null && out != null && mergeJob.toAbsolutePath().normalize().equals(out.toAbsolutePath().normalize()))
            throw new IllegalArgumentException("--merge-job: " + mergeJob + " is also --out; give each Job its own file");
        String header = "# blocklab k8s-job: " + workers + " shards of 'blocklab attack " + String.join(" ", attackArgs) + "'\n"
                + "# measured schedule starts at " + start + ": apply before then, every pod must be running by then.\n"
                + "# merge: " + mergeHint() + "\n";
        String yaml = header + IndexedJob.yaml(List.of(attack));
        PrintWriter err = spec.commandLine().getErr();
        if (out == null) {
            spec.commandLine().getOut().print(yaml);
            spec.commandLine().getOut().flush();
        } else {
            ReportCommand.writeFile(out, yaml);
            err.println("Indexed Job written to " + out + " (starts at " + start + ")");
        }
        if (mergeJob != null) {
            ReportCommand.writeFile(mergeJob, "# apply once job/" + name + " has completed\n" + IndexedJob.yaml(List.of(merge)));
            err.println("merge Job written to " + mergeJob);
        }
        err.println("merge: " + mergeHint());
        err.flush();
        return 0;
    }

    private String mergeHint() {
        String ns = namespace == null ? "" : " -n " + namespace;
        if (volumeClaim != null)   // the merge Job's file as written, or how to write it
            return "kubectl wait" + ns + " --for=condition=complete job/" + name + " --timeout=1h && kubectl apply -f "
                    + (mergeJob != null ? mergeJob.toString() : "FILE (write it with --merge-job FILE)") + ", then "
                    + "kubectl logs" + ns + " job/" + name + "-merge; the report is also in /results/" + name + "/merged.txt";
        return "kubectl wait" + ns + " --for=condition=complete job/" + name + " --timeout=1h; kubectl logs" + ns + " --tail=-1 --prefix=false -l "
                + IndexedJob.LABEL + "=" + name + " --max-log-requests=" + Math.max(5, workers) + " > shards.log; blocklab report --merge shards.log";
    }

    /** The attack's options a pod must not be given, each with why (the attack's arguments are checked in this order). */
    private static final java.util.Map<String, String> NOT_IN_A_POD = new java.util.LinkedHashMap<>();
    static {
        String lost = "would write inside the pod and be lost with it: each pod's record goes to its log, or with --volume-claim to the volume";
        NOT_IN_A_POD.put("--shard", "is set for each pod by k8s-job");
        NOT_IN_A_POD.put("--start-at", "is set for each pod by k8s-job (give k8s-job's own --start-at or --start-in)");
        NOT_IN_A_POD.put("--workers", "would start child JVMs in every pod: the pods are the workers (k8s-job's own --workers N)");
        NOT_IN_A_POD.put("--save", lost);
        NOT_IN_A_POD.put("--hlog", lost);
        NOT_IN_A_POD.put("--output", "would write inside the pod and be lost with it");
        NOT_IN_A_POD.put("--responses", "would write inside the pod and be lost with it");
        NOT_IN_A_POD.put("--html", "would write inside the pod and be lost with it: 'blocklab report --merge' of the pods' records draws the page");
        NOT_IN_A_POD.put("--calibrate", "measures one attacker's ceiling, not a target: run 'blocklab attack --calibrate' on its own");
    }

    /** Parses {@code args} as 'blocklab attack' would, so a typo fails here and not in N pods; returns their settings. */
    static AttackSettings checkAttack(List<String> args) {
        for (String a : args)
            for (var own : NOT_IN_A_POD.entrySet())
                if (a.equals(own.getKey()) || a.startsWith(own.getKey() + "="))
                    throw new IllegalArgumentException("k8s-job: " + own.getKey() + " " + own.getValue() + "; leave it out of the attack's arguments");
        AttackCommand attack = new AttackCommand();
        CommandLine cl = new CommandLine(attack);
        cl.setExpandAtFiles(false);
        try {
            cl.parseArgs(args.toArray(String[]::new));
        } catch (CommandLine.ParameterException e) {
            throw new IllegalArgumentException("k8s-job: the attack's arguments: " + Main.usageMessage(e));
        }
        if (attack.users != null) throw new IllegalArgumentException("k8s-job: shards split an open schedule (--rate), not --users");
        return attack.settings();
    }
}
