package dev.blocklab.frameworks;

import com.lmax.disruptor.dsl.Disruptor;
import dev.blocklab.workload.Request;

import java.util.concurrent.CompletableFuture;

/**
 * A Disruptor ring's slot for one request and the response it will complete: what the request thread publishes
 * in both Disruptor variants. Slots are reused; the handler that finishes with a slot clears it.
 */
class RequestEvent {
    Request request;
    CompletableFuture<Object> response;

    /** Publishes {@code request} with a fresh response onto {@code ring}; the response, for a handler to complete. */
    static <E extends RequestEvent> CompletableFuture<Object> publish(Disruptor<E> ring, Request request) {
        CompletableFuture<Object> response = new CompletableFuture<>();
        ring.publishEvent((e, seq) -> {
            e.request = request;
            e.response = response;
        });
        return response;
    }
}
