package dev.blocklab.result;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The machine and JVM a result was measured on.
 *
 * @param cores     processors available to the JVM
 * @param cpuModel  from /proc/cpuinfo, or "unknown"
 * @param jvmFlags  the JVM's input arguments
 */
public record Environment(String jdk, String vendor, String os, String arch, int cores, String cpuModel,
                          long maxHeapBytes, List<String> jvmFlags) {

    public static Environment current() {
        return new Environment(Runtime.version().toString(), System.getProperty("java.vendor"),
                System.getProperty("os.name") + " " + System.getProperty("os.version"), System.getProperty("os.arch"),
                Runtime.getRuntime().availableProcessors(), readCpuModel(), Runtime.getRuntime().maxMemory(),
                List.copyOf(ManagementFactory.getRuntimeMXBean().getInputArguments()));
    }

    /** One line such as {@code JDK 25.0.3 (Eclipse Adoptium), 2 cores, AMD EPYC ..., Linux 6.1 amd64}. */
    public String summary() {
        return "JDK " + jdk + " (" + vendor + "), " + cores + " cores, " + cpuModel + ", " + os + " " + arch;
    }

    private static String readCpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
                    .filter(l -> l.startsWith("model name")).findFirst()
                    .map(l -> l.substring(l.indexOf(':') + 1).trim()).orElse("unknown");
        } catch (Exception e) {
            return "unknown";
        }
    }
}
