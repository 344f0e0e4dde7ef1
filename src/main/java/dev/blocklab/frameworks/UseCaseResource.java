package dev.blocklab.frameworks;

import dev.blocklab.backend.Backend;
import dev.blocklab.workload.Request;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.Suspended;
import jakarta.ws.rs.core.MediaType;

import java.util.Map;
import java.util.concurrent.ExecutorService;

/**
 * Seed 002's resources as the article wrote them, in JAX-RS (Jersey): the blocking variants return the answer
 * from the request thread (Tomcat's); the asynchronous one takes a {@code @Suspended AsyncResponse}, returns at
 * once, and resumes it from the completion stage's callback on an I/O thread. Each request is looked up by its id
 * among the requests the client registered before sending (client and server share the process), so the server
 * makes exactly the calls the engine decided. Public only because Jersey invokes it reflectively.
 */
@Path("/")
@Produces(MediaType.TEXT_PLAIN)
public final class UseCaseResource {
    private final Backend backend;
    private final FrameworksUseCase useCase;
    private final ExecutorService io;
    private final Map<Long, Request> pending;

    UseCaseResource(Backend backend, FrameworksUseCase useCase, ExecutorService io, Map<Long, Request> pending) {
        this.backend = backend;
        this.useCase = useCase;
        this.io = io;
        this.pending = pending;
    }

    @GET @Path("ping")
    public String ping() { return "pong"; }

    @GET @Path("sequential/{id}")
    public String sequential(@PathParam("id") long id) throws Exception {
        return SequentialVariant.answer(backend, useCase, take(id));
    }

    @GET @Path("invokeall/{id}")
    public String invokeAll(@PathParam("id") long id) throws Exception {
        return InvokeAllVariant.answer(backend, useCase, take(id), io);
    }

    @GET @Path("supplyasync/{id}")
    public String supplyAsync(@PathParam("id") long id) throws Exception {
        return SupplyAsyncVariant.answer(backend, useCase, take(id), io);
    }

    @GET @Path("cf-suspended/{id}")
    public void suspended(@PathParam("id") long id, @Suspended AsyncResponse response) {
        SuspendedFuturesVariant.response(backend, useCase, take(id), io)
                .whenComplete((answer, failure) -> {
                    if (failure != null) response.resume(failure); // through the exception mappers
                    else response.resume(answer);
                });
    }

    private Request take(long id) {
        Request request = pending.remove(id);
        if (request == null) throw new NotFoundException("no pending request " + id);
        return request;
    }
}
