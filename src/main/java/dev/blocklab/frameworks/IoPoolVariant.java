package dev.blocklab.frameworks;

import dev.blocklab.backend.Backend;
import dev.blocklab.model.Model;
import dev.blocklab.model.Tasks;

import java.util.concurrent.ExecutorService;

/**
 * What the variants with the article's I/O pool share: the modelled server's request threads, an I/O pool of N
 * named platform threads for the blocking calls, the name {@code family:N} and closing both pools.
 */
abstract class IoPoolVariant implements Model {
    final Backend backend;
    final FrameworksUseCase useCase;
    final int poolSize;
    final RequestThreads requests = new RequestThreads();
    final ExecutorService io;
    private final String family;

    IoPoolVariant(Backend backend, FrameworksUseCase useCase, String family, int poolSize, String ioPrefix) {
        this.backend = backend;
        this.useCase = useCase;
        this.family = family;
        this.poolSize = poolSize;
        this.io = RequestThreads.fixed(ioPrefix, poolSize);
    }

    @Override public String name() { return family + ":" + poolSize; }

    @Override public void close() {
        requests.close();
        Tasks.shutdown(io);
    }
}
