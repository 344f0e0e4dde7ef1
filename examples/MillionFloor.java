import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * The bare floor of `blocklab run --workload ten-thousand-jobs --model virtual --requests 1000000`, as its own
 * process (for its peak RSS): N virtual threads started at once, each sleeping 100 ms, R rounds after a full GC
 * each, the wall time of each printed. Run it with the launcher's heap flags, e.g.
 * {@code /usr/bin/time -v java -XX:+UseParallelGC -Xmn2g -XX:-UseAdaptiveSizePolicy examples/MillionFloor.java 1000000 4}.
 */
public class MillionFloor {
    public static void main(String[] args) throws InterruptedException {
        int jobs = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        Duration job = Duration.ofMillis(100);
        for (int round = 1; round <= rounds; round++) {
            System.gc();
            CountDownLatch done = new CountDownLatch(jobs);
            long start = System.nanoTime();
            for (int i = 0; i < jobs; i++) {
                Thread.startVirtualThread(() -> {
                    try {
                        Thread.sleep(job);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } finally {
                        done.countDown();
                    }
                });
            }
            done.await();
            System.out.printf("round %d: %,d virtual threads sleeping %d ms in %.0f ms%n", round, jobs, job.toMillis(),
                    (System.nanoTime() - start) / 1e6);
        }
    }
}
