package dev.blocklab;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.List;

/** Reading the lab's own text files (routes, saved results, shard records) with the one-line error every door shows. */
public final class TextFiles {
    private TextFiles() {}

    /**
     * The lines of {@code file} (UTF-8); when it cannot be read, an {@link IllegalArgumentException} whose message is
     * {@code error}, a colon, and the {@link #reason}, e.g. {@code "cannot read results.jsonl: no such file"}.
     */
    public static List<String> lines(Path file, String error) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new IllegalArgumentException(error + ": " + reason(e));
        }
    }

    /**
     * The lines of a file, and whether the writer stopped in the middle of the last one: a file whose last byte is
     * not a line feed (a process killed while writing a long line leaves the line's first part).
     */
    public record Lines(List<String> lines, boolean lastCut) {
        public Lines { lines = List.copyOf(lines); }

        /** True when line {@code index} (from 0) is the last one and was cut short. */
        public boolean isCut(int index) { return lastCut && index == lines.size() - 1; }
    }

    /**
     * {@link #lines(Path, String)}, telling also whether the last line was cut short. A last line cut short may end
     * inside a character: its bytes that are not UTF-8 read as U+FFFD; anywhere else they are an error naming the
     * line.
     */
    public static Lines linesOf(Path file, String error) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new IllegalArgumentException(error + ": " + reason(e));
        }
        boolean cut = bytes.length > 0 && bytes[bytes.length - 1] != '\n';
        List<String> lines = new java.util.ArrayList<>();
        for (int start = 0; start < bytes.length; ) {
            int end = start;
            while (end < bytes.length && bytes[end] != '\n') end++;
            int last = end > start && bytes[end - 1] == '\r' ? end - 1 : end;
            boolean isCut = end == bytes.length && cut;
            try {
                lines.add(isCut ? new String(bytes, start, last - start, StandardCharsets.UTF_8)
                        : StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(bytes, start, last - start)).toString());
            } catch (java.nio.charset.CharacterCodingException e) {
                throw new IllegalArgumentException(error + ": line " + (lines.size() + 1) + " is not UTF-8 text");
            }
            start = end + 1;
        }
        return new Lines(lines, cut);
    }

    /**
     * Why a document or a line could not be read, in one line. Jackson's message is reduced to its gist, any location
     * in it as {@code line N, column M} without the source it names, and none appended (the caller names the file
     * and line), e.g. {@code Unexpected end-of-input: expected close marker for Object (start marker at line 1,
     * column 1872)}; another exception gives the first line of its message.
     */
    public static String readProblem(Exception e) {
        String message = e instanceof com.fasterxml.jackson.core.JacksonException j ? j.getOriginalMessage() : e.getMessage();
        if (message == null) return e.getClass().getSimpleName();
        message = message.lines().findFirst().orElse(message).trim();
        return message.replaceAll("\\[Source: [^;]*; line: (\\d+), column: (\\d+)]", "line $1, column $2")
                .replaceAll("\\s*\\(?at \\[Source:.*$", "");
    }

    /**
     * Why a file could not be read or written, for a person: "no such file", "permission denied", "is a directory",
     * "not a directory", "file system is read-only", "FILE already exists", or the reason the exception gives. java.nio's exceptions' own
     * message is often only the path, which the caller's message names already.
     */
    public static String reason(IOException e) {
        return switch (e) {
            case NoSuchFileException x -> "no such file";
            case AccessDeniedException x -> "permission denied";
            case NotDirectoryException x -> "not a directory";
            // also what creating a file's directories says when a file is in the way: name which one
            case FileAlreadyExistsException x -> x.getFile() == null ? "already exists" : x.getFile() + " already exists";
            case FileSystemException x when x.getReason() != null -> plain(x.getReason());
            case java.nio.file.DirectoryNotEmptyException x -> "directory not empty";
            case FileSystemException x -> x.getClass().getSimpleName();   // its message would be the path alone
            // java.io's: "PATH (No such file or directory)"
            case FileNotFoundException x when x.getMessage() != null && x.getMessage().endsWith(")") && x.getMessage().contains(" (") ->
                    plain(x.getMessage().substring(x.getMessage().lastIndexOf(" (") + 2, x.getMessage().length() - 1));
            default -> e.getMessage() == null ? e.getClass().getSimpleName() : plain(e.getMessage());
        };
    }

    /** The operating system's words for the common reasons, in the lab's. */
    private static String plain(String reason) {
        return switch (reason) {
            case "No such file or directory" -> "no such file";
            case "Permission denied" -> "permission denied";
            case "Is a directory" -> "is a directory";
            case "Not a directory" -> "not a directory";
            case "Read-only file system" -> "file system is read-only";
            default -> reason;
        };
    }
}
