package dev.blocklab.workload;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/** Real CPU work of a given size. Deterministic: the same kind and size give the same checksum. */
public final class CpuWork {
    private CpuWork() {}

    /**
     * HASH: SHA-256 over {@code size} bytes, in 4 KiB chunks. SORT: sorts {@code size} ints filled in
     * descending order. Returns a checksum of the result so the work cannot be optimised away.
     */
    public static long perform(Step.CpuKind kind, int size) {
        return switch (kind) {
            case HASH -> hash(size);
            case SORT -> sort(size);
        };
    }

    private static long hash(int size) {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        byte[] chunk = new byte[Math.min(size, 4096)];
        for (int i = 0; i < chunk.length; i++) chunk[i] = (byte) i;
        int left = size;
        while (left > 0) {
            int n = Math.min(left, chunk.length);
            digest.update(chunk, 0, n);
            left -= n;
        }
        return ByteBuffer.wrap(digest.digest()).getLong();
    }

    private static long sort(int size) {
        int[] values = new int[size];
        for (int i = 0; i < size; i++) values[i] = size - i;
        Arrays.sort(values);
        long sum = 0;
        for (int v : values) sum = sum * 31 + v;
        return sum;
    }
}
