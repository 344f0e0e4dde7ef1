package dev.blocklab.preview;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.StructuredTaskScope;

/** JDK 25's preview {@link StructuredTaskScope}; loaded only through {@link StructuredConcurrency}. */
final class PreviewScopes {
    private PreviewScopes() {}

    static <T> List<T> forkAll(List<? extends Callable<? extends T>> tasks) throws Exception {
        try (var scope = StructuredTaskScope.open()) {
            List<StructuredTaskScope.Subtask<? extends T>> subtasks = new ArrayList<>(tasks.size());
            for (Callable<? extends T> task : tasks) subtasks.add(scope.fork(task));
            try {
                scope.join();
            } catch (StructuredTaskScope.FailedException e) {
                if (e.getCause() instanceof Exception cause) throw cause;
                if (e.getCause() instanceof Error error) throw error;
                throw e;
            }
            List<T> results = new ArrayList<>(subtasks.size());
            for (var subtask : subtasks) results.add(subtask.get());
            return results;
        }
    }

    /** Touches the preview API so that loading this class fails where it is not available. */
    static boolean probe() {
        return StructuredTaskScope.Subtask.State.SUCCESS != null;
    }
}
