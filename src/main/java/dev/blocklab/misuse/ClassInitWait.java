package dev.blocklab.misuse;

import dev.blocklab.audit.Rule;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Virtual threads use a class whose static initialiser blocks. Wrong: the first one runs the initialiser and the
 * others wait for it; a virtual thread waiting for a class initialisation cannot unmount, so each holds its
 * carrier. Correct: the class is initialised up front, on the caller's platform thread, and the virtual threads
 * only wait with a plain sleep.
 */
public final class ClassInitWait extends Case {
    /** How long {@link SlowInit}'s initialiser blocks, in nanoseconds. */
    public static volatile long initialiserHoldNanos;

    ClassInitWait(boolean wrong) {
        super("virtual-pinned-by-class-init", wrong, Rule.VIRTUAL_THREAD_PINNED,
                "virtual threads touch a class whose static initialiser sleeps: they wait for it pinned to their carriers",
                "the class is initialised up front on a platform thread; virtual threads then sleep unpinned");
    }

    @Override public void run(int requests, long blockNanos) throws Exception {
        initialiserHoldNanos = blockNanos;
        ClassLoader fresh = new FreshCopy(SlowInit.class);
        String name = SlowInit.class.getName();
        if (!wrong()) Class.forName(name, true, fresh);
        try (ExecutorService virtual = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> uses = new ArrayList<>();
            for (int i = 0; i < requests; i++)
                uses.add(virtual.submit(() -> {
                    if (wrong()) { line = Lines.here(); Class.forName(name, true, fresh); }
                    else sleep(blockNanos);
                    return null;
                }));
            for (Future<?> f : uses) f.get();
        }
    }

    /** Defines its own copy of one class (so it is initialised afresh), delegating every other class. */
    private static final class FreshCopy extends ClassLoader {
        private final Class<?> original;

        FreshCopy(Class<?> original) {
            super(original.getClassLoader());
            this.original = original;
        }

        @Override protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.equals(original.getName())) return super.loadClass(name, resolve);
            synchronized (getClassLoadingLock(name)) {
                Class<?> loaded = findLoadedClass(name);
                if (loaded != null) return loaded;
                try (InputStream in = original.getResourceAsStream(original.getSimpleName() + ".class")) {
                    if (in == null) throw new ClassNotFoundException(name);
                    byte[] bytes = in.readAllBytes();
                    return defineClass(name, bytes, 0, bytes.length);
                } catch (IOException e) {
                    throw new ClassNotFoundException(name, e);
                }
            }
        }
    }
}
