package dev.blocklab.datastore;

import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.CommandOutput;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Lettuce's reply to any command as plain Java values, the shape Jedis gives: text for bulk and status replies,
 * {@code Long} for integers, nested {@code List}s for arrays, null for nil. (Lettuce's own outputs either expect
 * one reply type or wrap every reply in a list.) Each array frame counts down its elements, so nesting needs no
 * help from the decoder.
 */
final class ReplyOutput extends CommandOutput<String, String, Object> {
    private final Deque<Frame> open = new ArrayDeque<>();

    private record Frame(List<Object> values, int[] remaining) {}

    ReplyOutput() { super(StringCodec.UTF8, null); }

    @Override public void set(ByteBuffer bytes) { add(bytes == null ? null : StringCodec.UTF8.decodeValue(bytes)); }

    @Override public void setSingle(ByteBuffer bytes) { set(bytes); }

    @Override public void set(long integer) { add(integer); }

    @Override public void set(double number) { add(number); }

    @Override public void set(boolean value) { add(value); }

    @Override public void multi(int count) {
        if (count < 0) {
            add(null);
            return;
        }
        List<Object> values = new ArrayList<>(count);
        add(values);
        if (count > 0) open.push(new Frame(values, new int[]{count}));
    }

    private void add(Object value) {
        Frame frame = open.peek();
        if (frame == null) {
            output = value;
            return;
        }
        frame.values().add(value);
        if (--frame.remaining()[0] == 0) open.pop();
    }
}
