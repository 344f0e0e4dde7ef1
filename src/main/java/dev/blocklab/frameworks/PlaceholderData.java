package dev.blocklab.frameworks;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Backend data with JSONPlaceholder's shape, generated once from a fixed seed: 10 users, 100 posts, 500
 * comments, 100 albums and 5,000 photos. Ownership is regular: user {@code u} owns posts and albums
 * {@code 10(u-1)+1 .. 10u}; post {@code p} has comments {@code 5(p-1)+1 .. 5p}; album {@code a} has photos
 * {@code 50(a-1)+1 .. 50a}. Each list is served whole as JSON text, as the original's downstream services did;
 * the per-user filtering happens in the merge. Immutable and thread-safe.
 */
public final class PlaceholderData {
    public static final int USERS = 10;
    public static final int POSTS = 100;
    public static final int COMMENTS = 500;
    public static final int ALBUMS = 100;
    public static final int PHOTOS = 5_000;

    /** One post. */
    public record Post(int id, int userId, String title, String body) {}

    /** One comment on a post. */
    public record Comment(int id, int postId, String name, String email, String body) {}

    /** One album. */
    public record Album(int id, int userId, String title) {}

    /** One photo of an album. */
    public record Photo(int id, int albumId, String title, String url, String thumbnailUrl) {}

    private static final String[] WORDS = ("lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod "
            + "tempor incididunt ut labore et dolore magna aliqua enim ad minim veniam quis nostrud exercitation "
            + "ullamco laboris nisi aliquip ex ea commodo consequat").split(" ");

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final long DATA_SEED = 2018;

    /** The four lists as JSON arrays, in the order of {@link FrameworksUseCase#CALLS}. */
    static final String POSTS_JSON;
    static final String COMMENTS_JSON;
    static final String ALBUMS_JSON;
    static final String PHOTOS_JSON;

    static {
        SplittableRandom random = new SplittableRandom(DATA_SEED);
        List<Post> posts = new ArrayList<>();
        for (int id = 1; id <= POSTS; id++) posts.add(new Post(id, (id - 1) / 10 + 1, words(random, 5), words(random, 20)));
        List<Comment> comments = new ArrayList<>();
        for (int id = 1; id <= COMMENTS; id++) {
            String name = words(random, 3);
            comments.add(new Comment(id, (id - 1) / 5 + 1, name,
                    WORDS[random.nextInt(WORDS.length)] + id + "@mail.example", words(random, 15)));
        }
        List<Album> albums = new ArrayList<>();
        for (int id = 1; id <= ALBUMS; id++) albums.add(new Album(id, (id - 1) / 10 + 1, words(random, 4)));
        List<Photo> photos = new ArrayList<>();
        for (int id = 1; id <= PHOTOS; id++) {
            String colour = String.format(java.util.Locale.ROOT, "%06x", random.nextInt(1 << 24));
            photos.add(new Photo(id, (id - 1) / 50 + 1, words(random, 4), "https://placeholder.example/600/" + colour,
                    "https://placeholder.example/150/" + colour));
        }
        try {
            POSTS_JSON = MAPPER.writeValueAsString(posts);
            COMMENTS_JSON = MAPPER.writeValueAsString(comments);
            ALBUMS_JSON = MAPPER.writeValueAsString(albums);
            PHOTOS_JSON = MAPPER.writeValueAsString(photos);
        } catch (JsonProcessingException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private PlaceholderData() {}

    /** The JSON text a call of this name answers: {@code posts}, {@code comments}, {@code albums} or {@code photos}. */
    public static String json(String call) {
        return switch (call) {
            case "posts" -> POSTS_JSON;
            case "comments" -> COMMENTS_JSON;
            case "albums" -> ALBUMS_JSON;
            case "photos" -> PHOTOS_JSON;
            default -> throw new IllegalArgumentException("no list named '" + call + "'");
        };
    }

    private static String words(SplittableRandom random, int count) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < count; i++) {
            if (i > 0) sb.append(' ');
            sb.append(WORDS[random.nextInt(WORDS.length)]);
        }
        return sb.toString();
    }
}
