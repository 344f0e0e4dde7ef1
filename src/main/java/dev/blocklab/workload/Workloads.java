package dev.blocklab.workload;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;

/** Finds a workload by built-in name or file path. */
public final class Workloads {
    private Workloads() {}

    /**
     * A built-in workload's name, or the path of a YAML or JSON workload file.
     *
     * @throws IllegalArgumentException naming the problem in one line
     */
    public static Workload resolve(String nameOrPath) {
        var builtIn = BuiltInWorkloads.named(nameOrPath);
        if (builtIn.isPresent()) return builtIn.get();
        Path path = Path.of(nameOrPath);
        if (Files.isRegularFile(path)) return WorkloadFile.load(path);
        if (Files.isDirectory(path)) throw new IllegalArgumentException("workload file '" + nameOrPath + "' is a directory");
        boolean looksLikeFile = nameOrPath.contains("/") || nameOrPath.matches(".*\\.(ya?ml|json)$");
        throw new IllegalArgumentException(looksLikeFile
                ? "workload file '" + nameOrPath + "' does not exist"
                : "unknown workload '" + nameOrPath + "'"
                  + dev.blocklab.Names.didYouMean(nameOrPath, BuiltInWorkloads.all().stream().map(Workload::name).toList()) + " (built in: "
                  + BuiltInWorkloads.all().stream().map(Workload::name).collect(Collectors.joining(", "))
                  + "; or give the path of a .yaml or .json file)");
    }
}
