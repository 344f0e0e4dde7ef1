package dev.blocklab.driver;

/** Where long runs report how far they are. Called from the driver's thread, a few times a second at most. */
@FunctionalInterface
public interface Progress {
    Progress NONE = line -> {};

    /** One status line, replacing the previous one. */
    void update(String line);
}
