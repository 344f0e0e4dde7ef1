package dev.blocklab.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.management.HotSpotDiagnosticMXBean;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Finds the virtual thread mounted on a carrier through the JDK's JSON thread dump
 * ({@code HotSpotDiagnosticMXBean.dumpThreads}), the one public API that lists virtual threads with their
 * carrier. It lists every virtual thread unless the JVM runs with {@code -Djdk.trackAllThreads=false} (then only
 * executors' threads). On JDK 25.0.3 the dump can crash the JVM while other virtual threads mount and unmount
 * (docs/audit.md, "Limits").
 */
final class ThreadDumps {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A thread in a dump: its name and stack. */
    record Mounted(String name, List<Frame> stack) {}

    private ThreadDumps() {}

    /** Dumps this JVM's threads and returns the virtual thread mounted on {@code carrierTid}, if listed. */
    static Optional<Mounted> mountedOn(long carrierTid) {
        Path file = null;
        try {
            file = Files.createTempFile("blocklab-audit-", ".json");
            Files.delete(file);   // dumpThreads refuses to overwrite
            ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                    .dumpThreads(file.toString(), HotSpotDiagnosticMXBean.ThreadDumpFormat.JSON);
            return mountedOn(Files.readString(file), carrierTid);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot dump the threads to look for a stalled carrier's virtual thread", e);
        } finally {
            if (file != null) try { Files.deleteIfExists(file); } catch (IOException ignored) { /* temp file */ }
        }
    }

    /** Pure: the thread whose {@code carrier} is {@code carrierTid} in a JSON thread dump. */
    static Optional<Mounted> mountedOn(String json, long carrierTid) throws IOException {
        JsonNode root = JSON.readTree(json).path("threadDump");
        for (JsonNode container : root.path("threadContainers"))
            for (JsonNode thread : container.path("threads"))
                if (thread.path("carrier").asText("").equals(Long.toString(carrierTid))) {
                    List<Frame> stack = new ArrayList<>();
                    for (JsonNode line : thread.path("stack")) stack.add(Frame.parse(line.asText()));
                    return Optional.of(new Mounted(thread.path("name").asText(""), stack));
                }
        return Optional.empty();
    }
}
