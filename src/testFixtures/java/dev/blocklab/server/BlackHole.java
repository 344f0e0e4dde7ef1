package dev.blocklab.server;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.List;

/**
 * A backend on 127.0.0.1 that accepts connections and never answers: a call to it is in flight until its timeout or
 * its client's close, however slow the machine. Bounded: it holds at most 1,000 connections, all closed with it.
 */
final class BlackHole implements AutoCloseable {
    private final ServerSocket socket;
    private final List<Socket> held = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final Thread acceptor;

    BlackHole() throws IOException {
        socket = new ServerSocket();
        socket.bind(new InetSocketAddress("127.0.0.1", 0));
        acceptor = Thread.ofPlatform().daemon().name("black-hole").start(() -> {
            while (!socket.isClosed() && held.size() < 1_000) {
                try {
                    held.add(socket.accept());
                } catch (IOException closed) {
                    return;
                }
            }
        });
    }

    URI uri() { return URI.create("http://127.0.0.1:" + socket.getLocalPort()); }

    @Override public void close() throws IOException {
        socket.close();
        try {
            acceptor.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (Socket c : held) c.close();
    }
}
