package dev.blocklab.audit;

import javax.management.JMException;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the virtual thread mounted on a carrier through the JVM's own thread print (the {@code Thread.print}
 * diagnostic command, what {@code jcmd PID Thread.print} shows, called in-process). It is taken at a safepoint,
 * lists the platform threads only, and under each carrier the frames of the virtual thread mounted on it
 * ({@code Mounted virtual thread #N}). The text is JDK 25's; a JDK that prints it otherwise finds nothing here, and
 * the stall is then reported with the carrier's own stack ({@code StalledCarrierAuditTest} fails on such a JDK).
 *
 * <p>Not {@code HotSpotDiagnosticMXBean.dumpThreads}: that snapshots every virtual thread with a handshake of its
 * own, which races virtual threads mounting and unmounting, and JDK 25.0.3 dies of it (docs/audit.md, "Limits").
 */
final class ThreadDumps {
    private static final ObjectName DIAGNOSTIC_COMMAND = name("com.sun.management:type=DiagnosticCommand");
    /** A thread's header line, e.g. {@code "ForkJoinPool-1-worker-1" #23 [17849] daemon prio=5 ...}. */
    private static final Pattern HEADER = Pattern.compile("^\".*\" #(\\d+) .*");
    private static final Pattern MOUNTED = Pattern.compile("^\\s+Mounted virtual thread #(\\d+)\\s*$");
    /** A hidden class's suffix ({@code Foo$$Lambda/0x0000000060040210}): not part of the class's name. */
    private static final Pattern HIDDEN = Pattern.compile("/0x[0-9a-fA-F]+");

    /** A thread in a dump: its name and stack. */
    record Mounted(String name, List<Frame> stack) {}

    private ThreadDumps() {}

    /**
     * Creates the platform MBean server that {@link #mountedOn(long)} prints through, unless it exists already. Its
     * first use registers every platform MBean, which took 240-560 ms on 2 shared cores (Temurin 25.0.3), while the
     * print itself takes 0-6 ms: paid at the first lookup, it let a stall end before the print was taken (a virtual
     * thread's native call of twice the stall threshold leaves one threshold for it), and the carrier's own stack was
     * reported. The watchdog calls this before it samples.
     */
    static void prepare() {
        ManagementFactory.getPlatformMBeanServer();
    }

    /** Prints this JVM's threads and returns the virtual thread mounted on {@code carrierTid}, if any. */
    static Optional<Mounted> mountedOn(long carrierTid) {
        try {
            String print = (String) ManagementFactory.getPlatformMBeanServer().invoke(DIAGNOSTIC_COMMAND, "threadPrint",
                    new Object[] {new String[0]}, new String[] {String[].class.getName()});
            return mountedOn(print, carrierTid);
        } catch (JMException e) {
            throw new IllegalStateException("cannot print the threads to look for a stalled carrier's virtual thread", e);
        }
    }

    /** Pure: the virtual thread mounted on the thread whose id is {@code carrierTid}, in a thread print. */
    static Optional<Mounted> mountedOn(String threadPrint, long carrierTid) {
        String[] lines = threadPrint.split("\\R");
        int i = 0;
        while (i < lines.length && !isHeaderOf(lines[i], carrierTid)) i++;
        for (i++; i < lines.length && !lines[i].isBlank() && !HEADER.matcher(lines[i]).matches(); i++) {
            Matcher mounted = MOUNTED.matcher(lines[i]);
            if (!mounted.matches()) continue;
            List<Frame> stack = new ArrayList<>();
            for (i++; i < lines.length; i++) {   // frames, and lock lines ("- locked <0x...>") among them
                String line = lines[i].strip();
                if (line.startsWith("at ")) frame(line.substring(3)).ifPresent(stack::add);
                else if (!line.startsWith("- ")) break;
            }
            // no frames (caught mounting): not found, so the watchdog looks again
            return stack.isEmpty() ? Optional.empty() : Optional.of(new Mounted("virtual thread #" + mounted.group(1), stack));
        }
        return Optional.empty();
    }

    /** One frame, or none for a line {@link Frame#parse} does not read (the rest of the stack still counts). */
    private static Optional<Frame> frame(String text) {
        try {
            return Optional.of(Frame.parse(HIDDEN.matcher(text).replaceAll("")));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static boolean isHeaderOf(String line, long tid) {
        Matcher m = HEADER.matcher(line);
        return m.matches() && m.group(1).equals(Long.toString(tid));
    }

    private static ObjectName name(String name) {
        try {
            return new ObjectName(name);
        } catch (MalformedObjectNameException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
