package dev.blocklab.k8s;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The manifests of a distributed attack on Kubernetes.
 *
 * <p>{@link #attackJob}: an Indexed Job ({@code completionMode: Indexed}, {@code completions} = {@code parallelism}
 * = the number of workers) whose pod {@code i} runs {@code blocklab attack ARGS --shard $(JOB_COMPLETION_INDEX)/N
 * --start-at T}: the Job controller sets {@code JOB_COMPLETION_INDEX} in each pod of an Indexed Job, and Kubernetes
 * expands {@code $(VAR)} in a container's arguments. No retries ({@code backoffLimit: 0}): a shard restarted after the
 * common start would send its share late, so a failed pod is reported missing by the merge instead. Each pod gets
 * {@code cpu} cores, requested and limited alike, so one worker's rate per core (docs/distributed.md) holds. Its
 * shard record goes to the pod's log (standard output), or with a volume claim to
 * {@code /results/NAME/shard-I.jsonl}.
 *
 * <p>{@link #mergeJob} (with a volume claim): one pod that runs {@code blocklab report --merge /results/NAME}, to be
 * applied once the attack Job has completed. Without a volume, the merge reads the pods' logs (docs/distributed.md).
 *
 * @param name        the Job's name (DNS label), also the label {@code blocklab.dev/attack} of its pods
 * @param namespace   the namespace (an RFC 1123 label), null for the current one
 * @param image       the container image holding blocklab (its entrypoint is {@code blocklab}), without whitespace
 * @param workers     shards and pods, at least 1
 * @param attackArgs  {@code blocklab attack}'s arguments: URL, rate, duration and any other flag
 * @param startAt     the common start of the measured schedule
 * @param cpu         cores per worker, e.g. {@code 1} or {@code 500m}
 * @param memory      memory per worker, e.g. {@code 1Gi}
 * @param volumeClaim a PersistentVolumeClaim (ReadWriteMany) for the shard records, or null for the pods' logs
 */
public record IndexedJob(String name, String namespace, String image, int workers, List<String> attackArgs, Instant startAt,
                         String cpu, String memory, String volumeClaim) {
    /** Where a volume claim is mounted in the pods. */
    public static final String RESULTS_MOUNT = "/results";
    /** The label every pod of one attack carries, with the attack's name (both Jobs carry it too, to delete them together). */
    public static final String LABEL = "blocklab.dev/attack";
    /**
     * The label of the merge Job's pod, with the attack's name: not {@link #LABEL}, so {@code kubectl logs -l
     * blocklab.dev/attack=NAME} reads the shards' pods and not the merge's.
     */
    public static final String MERGE_LABEL = "blocklab.dev/attack-merge";

    public IndexedJob {
        if (name == null || !name.matches("[a-z0-9]([-a-z0-9]{0,40}[a-z0-9])?"))
            throw new IllegalArgumentException("--name: '" + name + "' is not a DNS label of at most 42 characters (lower case, digits, '-')");
        if (namespace != null && !namespace.matches("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?"))
            throw new IllegalArgumentException("--namespace: '" + namespace + "' is not a Kubernetes namespace (an RFC 1123 label of at most 63 characters: lower case, digits, '-')");
        if (image == null || image.isBlank()) throw new IllegalArgumentException("--image: give the container image holding blocklab");
        if (image.chars().anyMatch(Character::isWhitespace))
            throw new IllegalArgumentException("--image: '" + image + "' has whitespace in it; an image reference has none (e.g. registry.example/blocklab:0.1.0)");
        if (workers < 1) throw new IllegalArgumentException("--workers must be at least 1, got " + workers);
        attackArgs = List.copyOf(attackArgs);
        Objects.requireNonNull(startAt, "startAt");
        positiveQuantity("--cpu", cpu, CPU, "a number of cores (e.g. 1, 0.5) or of millicores (e.g. 500m)");
        positiveQuantity("--memory", memory, MEMORY, "a number of bytes, with Ki, Mi, Gi, Ti (powers of 1024) "
                + "or k, M, G, T (powers of 1000), e.g. 512Mi, 1Gi; m would mean thousandths of a byte");
    }

    private static final String NUMBER = "[+-]?(\\d+(\\.\\d*)?|\\.\\d+)";
    /** Cores, or millicores: Kubernetes takes any quantity, but a byte suffix on a CPU is a mistake. */
    private static final java.util.regex.Pattern CPU = java.util.regex.Pattern.compile(NUMBER + "m?");
    /** Bytes, with a binary or decimal suffix (Kubernetes' decimal kilo is a lower-case k); not m, thousandths. */
    private static final java.util.regex.Pattern MEMORY = java.util.regex.Pattern.compile(NUMBER + "(Ki|Mi|Gi|Ti|Pi|Ei|k|M|G|T|P|E)?");

    /**
     * A pod's request and limit: a quantity of its kind ({@code form}, described by {@code expected}) above zero
     * (Kubernetes refuses the Job otherwise, at apply, or takes {@code 500m} of memory as half a byte).
     */
    private static void positiveQuantity(String flag, String q, java.util.regex.Pattern form, String expected) {
        if (q == null || !form.matcher(q).matches())
            throw new IllegalArgumentException(flag + ": '" + q + "' is not " + expected);
        if (Quantity.getAmountInBytes(new Quantity(q)).signum() <= 0) throw new IllegalArgumentException(flag + ": '" + q + "' must be above zero");
    }

    /** The Indexed Job of the attack. */
    public Job attackJob() {
        List<String> args = new ArrayList<>(List.of("attack"));
        args.addAll(attackArgs);
        args.addAll(List.of("--shard", "$(JOB_COMPLETION_INDEX)/" + workers, "--start-at", startAt.toString(), "--quiet"));
        if (volumeClaim != null)
            args.addAll(List.of("--save", shardDir() + "/shard-$(JOB_COMPLETION_INDEX).jsonl",
                    "--hlog", shardDir() + "/shard-$(JOB_COMPLETION_INDEX).hlog"));
        return new JobBuilder()
                .withNewMetadata().withName(name).withNamespace(namespace).addToLabels(LABEL, name).endMetadata()
                .withNewSpec()
                .withCompletionMode("Indexed").withCompletions(workers).withParallelism(workers).withBackoffLimit(0)
                .withTtlSecondsAfterFinished(86_400)
                .withNewTemplate()
                .withNewMetadata().addToLabels(LABEL, name).endMetadata()
                .withNewSpec()
                .withRestartPolicy("Never")
                .withContainers(container("attack", args, true))
                .withVolumes(volumeClaim == null ? List.of() : List.of(new io.fabric8.kubernetes.api.model.VolumeBuilder()
                        .withName("results").withNewPersistentVolumeClaim().withClaimName(volumeClaim).endPersistentVolumeClaim().build()))
                .endSpec()
                .endTemplate()
                .endSpec()
                .build();
    }

    /** The one-pod Job that merges the shards saved on the volume claim; apply it after the attack Job completed. */
    public Job mergeJob() {
        if (volumeClaim == null) throw new IllegalArgumentException("--merge-job needs --volume-claim: without a volume the shards are in the pods' logs");
        return new JobBuilder()
                .withNewMetadata().withName(name + "-merge").withNamespace(namespace).addToLabels(LABEL, name).endMetadata()
                .withNewSpec()
                .withCompletions(1).withParallelism(1).withBackoffLimit(0).withTtlSecondsAfterFinished(86_400)
                .withNewTemplate()
                .withNewMetadata().addToLabels(MERGE_LABEL, name).endMetadata()
                .withNewSpec()
                .withRestartPolicy("Never")
                .withContainers(container("merge", List.of("report", "--merge", shardDir(), "--out", shardDir() + "/merged.txt"), false))
                .withVolumes(new io.fabric8.kubernetes.api.model.VolumeBuilder()
                        .withName("results").withNewPersistentVolumeClaim().withClaimName(volumeClaim).endPersistentVolumeClaim().build())
                .endSpec()
                .endTemplate()
                .endSpec()
                .build();
    }

    private String shardDir() { return RESULTS_MOUNT + "/" + name; }

    /** @param indexed a pod of the Indexed Job, whose arguments name its index (the merge's pod has none) */
    private Container container(String containerName, List<String> args, boolean indexed) {
        ContainerBuilder c = new ContainerBuilder().withName(containerName).withImage(image).withArgs(args);
        if (indexed)   // what the Job controller also sets in an Indexed Job's pods; explicit, so $(JOB_COMPLETION_INDEX) expands
            c.addNewEnv().withName("JOB_COMPLETION_INDEX").withNewValueFrom().withNewFieldRef()
                    .withFieldPath("metadata.annotations['batch.kubernetes.io/job-completion-index']").endFieldRef().endValueFrom().endEnv();
        c.withNewResources()
                .withRequests(Map.of("cpu", new Quantity(cpu), "memory", new Quantity(memory)))
                .withLimits(Map.of("cpu", new Quantity(cpu), "memory", new Quantity(memory)))
                .endResources();
        if (volumeClaim != null) c.addNewVolumeMount().withName("results").withMountPath(RESULTS_MOUNT).endVolumeMount();
        return c.build();
    }

    private static final ObjectMapper YAML = YAMLMapper.builder().build();

    /** {@code resources} as one YAML stream, one document each, as {@code kubectl apply -f} reads. */
    public static String yaml(List<? extends HasMetadata> resources) {
        StringBuilder b = new StringBuilder();
        for (HasMetadata r : resources) b.append(YAML.writeValueAsString(r));
        return b.toString();
    }
}
