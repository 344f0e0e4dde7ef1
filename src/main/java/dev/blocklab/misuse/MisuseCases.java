package dev.blocklab.misuse;

import java.util.List;

/** The showcase's cases, each wrong one beside its correct one. Creating them starts no thread. */
public final class MisuseCases {
    private MisuseCases() {}

    public static List<MisuseCase> all() {
        return List.of(
                new EventLoopSleep(true), new EventLoopSleep(false),
                new CommonPoolSupplyAsync(true), new CommonPoolSupplyAsync(false),
                new ReactorParallel(true), new ReactorParallel(false),
                new RxComputation(true), new RxComputation(false),
                new PinnedUpcall(true), new PinnedUpcall(false),
                new ClassInitWait(true), new ClassInitWait(false),
                new NativeBlocking(true), new NativeBlocking(false));
    }
}
