package dev.blocklab.frameworks;

import dev.blocklab.workload.RequestTimes.Path;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.blocklab.backend.Route;
import dev.blocklab.workload.Arrival;
import dev.blocklab.workload.CallInvocation;
import dev.blocklab.workload.Graph;
import dev.blocklab.workload.Latency;
import dev.blocklab.workload.Request;
import dev.blocklab.workload.Step;
import dev.blocklab.workload.Value;
import dev.blocklab.workload.Workload;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;

/**
 * Seed 002's use case: four downstream calls returning JSON, then an in-memory merge with real CPU work.
 *
 * <p>The calls are steps 0..3 of the workload's graph ({@link #CALLS}); every variant makes them through
 * {@link #invocation(Request, int)} and a {@link dev.blocklab.backend.Backend}, so the delays, failures and
 * answers are the engine's, identical for every variant and every backend. The graph's last step (the four
 * texts concatenated) exists only so that the engine's generic models can run the workload too; the variants of
 * this package compute the answer with {@link #postsAndComments} and {@link #albumsAndPhotos} instead.
 *
 * <p>Per request: the user 1..10 comes from a random source seeded by (seed, request id), so it is the same
 * under every variant. {@code postsAndComments} parses posts and comments with Jackson, keeps the user's
 * posts with their comments, runs the int half of the CPU step and renders text; {@code albumsAndPhotos} does
 * the same for albums and photos with the long half. The answer is the two texts joined.
 *
 * <p>The CPU step copies the shared lists (ints and longs in descending order, built once), sorts the copies
 * and multiplies every element by the user id; a checksum goes into the text so the work cannot be skipped.
 * Each merge records the kind of thread it ran on ({@link #cpuPlaces()}).
 *
 * <p>Thread-safe: every method may be called from any thread, concurrently.
 */
public final class FrameworksUseCase {
    /** The calls, in step order. */
    public static final List<String> CALLS = List.of("posts", "comments", "albums", "photos");
    /** Step indexes in the graph. */
    public static final int POSTS = 0, COMMENTS = 1, ALBUMS = 2, PHOTOS = 3;
    public static final int DEFAULT_INTS = 125_000;
    public static final int DEFAULT_LONGS = 62_500;
    public static final long SLOW_DELAY_NANOS = 200_000_000L;
    public static final long FAST_DELAY_NANOS = 20_000_000L;

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final TypeReference<List<PlaceholderData.Post>> POST_LIST = new TypeReference<>() {};
    private static final TypeReference<List<PlaceholderData.Comment>> COMMENT_LIST = new TypeReference<>() {};
    private static final TypeReference<List<PlaceholderData.Album>> ALBUM_LIST = new TypeReference<>() {};
    private static final TypeReference<List<PlaceholderData.Photo>> PHOTO_LIST = new TypeReference<>() {};

    static {
        // Jackson builds a type's deserializer on its first use, and threads parsing the same type meanwhile wait
        // for it (a monitor wait and a park): built here, a variant's first requests never wait on an event loop
        // (the auditor flagged 86 ms of it in vertx-event-loop's first request under --warmups 0)
        for (TypeReference<?> type : List.of(POST_LIST, COMMENT_LIST, ALBUM_LIST, PHOTO_LIST)) parse("[{}]", type);
    }

    private final List<Integer> sharedInts;
    private final List<Long> sharedLongs;
    private final Map<String, LongAdder> places = new ConcurrentHashMap<>();

    /**
     * @param ints  size of the shared int list the CPU step sorts (the article: 125,000)
     * @param longs size of the shared long list (the article: 62,500)
     */
    public FrameworksUseCase(int ints, int longs) {
        if (ints < 0 || longs < 0) throw new IllegalArgumentException("list sizes must be >= 0, got " + ints + " and " + longs);
        List<Integer> i = new ArrayList<>(ints);
        for (int k = ints; k > 0; k--) i.add(k);
        List<Long> l = new ArrayList<>(longs);
        for (long k = longs; k > 0; k--) l.add(k);
        sharedInts = Collections.unmodifiableList(i);
        sharedLongs = Collections.unmodifiableList(l);
    }

    public FrameworksUseCase() { this(DEFAULT_INTS, DEFAULT_LONGS); }

    /**
     * The routes with which a {@link dev.blocklab.backend.BackendServer} serves this workload's calls over HTTP,
     * for {@link dev.blocklab.backend.HttpBackend#routed}: one per call step, {@code /NAME}, answering the step's
     * value (the same JSON as the simulated backend's) after the step's fixed delay, before the server's time scale.
     *
     * @throws IllegalArgumentException when a call's delay is not fixed or its value not constant
     */
    public static List<Route> routes(Workload workload) {
        List<Route> routes = new ArrayList<>();
        for (Step step : workload.graph().steps()) {
            if (!(step instanceof Step.Call call)) continue;
            if (!(call.latency() instanceof Latency.Fixed(long nanos)) || !(call.returns() instanceof Value.Constant(Object value)))
                throw new IllegalArgumentException("call '" + call.name() + "' needs a fixed delay and a constant value to be served as a route");
            routes.add(Route.fixed("/" + call.name(), nanos, String.valueOf(value)));
        }
        return List.copyOf(routes);
    }

    /** The article's workload: posts and albums after {@code slowDelayNanos}, comments and photos after 20 ms. */
    public static Workload workload(long slowDelayNanos, Arrival arrival) {
        return workload(slowDelayNanos, FAST_DELAY_NANOS, arrival, null, null);
    }

    /**
     * The use case's workload.
     *
     * @param slowDelayNanos delay of posts and albums (the article's mock service: 200 ms, or 400 ms)
     * @param fastDelayNanos delay of comments and photos (the article's public placeholder service)
     * @param failingCall    a call that always fails, or null
     * @param failure        what it throws (null: the engine's default)
     */
    public static Workload workload(long slowDelayNanos, long fastDelayNanos, Arrival arrival, String failingCall,
                                    Step.FailureSpec failure) {
        if (failingCall != null && !CALLS.contains(failingCall))
            throw new IllegalArgumentException("no call named '" + failingCall + "' (calls: " + CALLS + ")");
        List<Step> steps = new ArrayList<>();
        for (String call : CALLS) {
            long delay = call.equals("posts") || call.equals("albums") ? slowDelayNanos : fastDelayNanos;
            boolean fails = call.equals(failingCall);
            steps.add(new Step.Call(call, List.of(), new Latency.Fixed(delay), new Value.Constant(PlaceholderData.json(call)),
                    fails ? 1 : 0, fails ? failure : null, 0));
        }
        steps.add(new Step.Combine("answer", CALLS, new Value.Concat("")));
        return new Workload("frameworks", "seed 002: posts, comments, albums and photos as JSON, merged per user",
                new Graph(0L, steps), arrival);
    }

    /**
     * Why a variant cannot run a workload of this graph, or empty when it can: a variant makes the use case's
     * four calls itself ({@link #invocation}), so the graph's first steps must be those calls, with no inputs, each
     * attempted once, and the graph may have no other call (a variant would never make it). The calls may fail and
     * time out as any call does (docs/workloads.md, "Failures").
     */
    public static java.util.Optional<String> cannotRun(Graph graph) {
        List<Step> steps = graph.steps();
        for (int i = 0; i < CALLS.size(); i++) {
            if (i >= steps.size() || !(steps.get(i) instanceof Step.Call call) || !call.name().equals(CALLS.get(i)) || !call.inputs().isEmpty())
                return java.util.Optional.of("a seed 002 framework variant runs only the frameworks use case (its first steps the calls "
                        + String.join(", ", CALLS) + "): use --workload frameworks, or an engine model");
            if (!(call.attempts() instanceof Step.Attempts.Once))
                return java.util.Optional.of("call '" + call.name() + "' is retried or hedged, which a framework variant does not do "
                        + "(it makes the four calls its own way): use an engine model");
        }
        for (int i = CALLS.size(); i < steps.size(); i++)
            if (steps.get(i) instanceof Step.Call call)
                return java.util.Optional.of("call '" + call.name() + "' is not one of the use case's four calls, and a framework "
                        + "variant makes only those: use an engine model");
        return java.util.Optional.empty();
    }

    /** The call {@code callIndex} (0..3, see {@link #CALLS}) of this request, as the engine decides it. */
    public CallInvocation invocation(Request request, int callIndex) {
        if (callIndex < 0 || callIndex >= CALLS.size()) throw new IllegalArgumentException("call index " + callIndex);
        return request.invocation(callIndex, List.of());
    }

    /** The request's user, 1..10, from a random source seeded by the request's seed and id. */
    public static int userOf(Request request) {
        return new SplittableRandom(request.seed() * 0x9E3779B97F4A7C15L ^ (request.id() + 0x2545F4914F6CDD1DL))
                .nextInt(PlaceholderData.USERS) + 1;
    }

    /** Parses posts and comments, merges the user's posts with their comments, runs the int sort; text. */
    public String postsAndComments(Request request, Object postsJson, Object commentsJson) {
        return merged(request, "posts", postsJson, POST_LIST, PlaceholderData.Post::userId, PlaceholderData.Post::id,
                commentsJson, COMMENT_LIST, PlaceholderData.Comment::postId, (sb, p, comments) -> {
                    sb.append("post ").append(p.id()).append(": ").append(p.title()).append(" (").append(comments.size())
                            .append(" comments)\n");
                    for (PlaceholderData.Comment c : comments)
                        sb.append("  comment ").append(c.id()).append(" by ").append(c.email()).append(": ").append(c.name()).append('\n');
                }, "ints", this::sortInts);
    }

    /** Parses albums and photos, merges the user's albums with their photos, runs the long sort; text. */
    public String albumsAndPhotos(Request request, Object albumsJson, Object photosJson) {
        return merged(request, "albums", albumsJson, ALBUM_LIST, PlaceholderData.Album::userId, PlaceholderData.Album::id,
                photosJson, PHOTO_LIST, PlaceholderData.Photo::albumId, (sb, a, photos) -> {
                    sb.append("album ").append(a.id()).append(": ").append(a.title()).append(" (").append(photos.size())
                            .append(" photos)");
                    for (PlaceholderData.Photo p : photos) sb.append(' ').append(p.id());
                    sb.append('\n');
                }, "longs", this::sortLongs);
    }

    /** How one parent (a post, an album) is written with its children (comments, photos). */
    private interface ParentLine<P, C> {
        void append(StringBuilder sb, P parent, List<C> children);
    }

    /**
     * Counts the thread, parses the request's parents (posts, albums) and children (comments, photos), writes the
     * user's parents each with its children in id order under a heading, then runs the sort named {@code sortKind}.
     */
    private <P, C> String merged(Request request, String heading, Object parentsJson, TypeReference<List<P>> parentType,
                                 java.util.function.ToIntFunction<P> ownerOf, java.util.function.ToIntFunction<P> idOf,
                                 Object childrenJson, TypeReference<List<C>> childType,
                                 java.util.function.Function<C, Integer> parentOf, ParentLine<P, C> line,
                                 String sortKind, java.util.function.IntToLongFunction sort) {
        record();
        int user = userOf(request);
        List<P> parents = parse(parentsJson, parentType);
        Map<Integer, List<C>> byParent = parse(childrenJson, childType).stream()
                .collect(Collectors.groupingBy(parentOf, TreeMap::new, Collectors.toList()));
        StringBuilder sb = new StringBuilder("user ").append(user).append(' ').append(heading).append('\n');
        for (P p : parents) {
            if (ownerOf.applyAsInt(p) != user) continue;
            line.append(sb, p, byParent.getOrDefault(idOf.applyAsInt(p), List.of()));
        }
        sb.append("sorted ").append(sortKind).append(" x").append(user).append(": ").append(sort.applyAsLong(user)).append('\n');
        return sb.toString();
    }

    /**
     * The prediction of a variant whose four calls overlap: one request alone takes the graph's critical path;
     * {@code how} says what bounds it beyond that, e.g. {@code "no thread waits"}.
     */
    static dev.blocklab.model.Prediction overlapping(dev.blocklab.model.Demand d, String how) {
        return new dev.blocklab.model.Prediction(d.slowestNanos(Path.CRITICAL), "one request alone: the four calls overlap, "
                + d.describe(Path.CRITICAL) + "; " + how, Path.CRITICAL);
    }

    /**
     * The same for a variant whose calls each hold one of {@code ioThreads} threads for the call's time: the pool
     * serves the batch's calls one after another on each thread, so the batch takes at least its calls' total time
     * over the threads (100 requests of 440 ms of calls on 16 threads: 2,750 ms), and never less than one request
     * alone.
     */
    static dev.blocklab.model.Prediction overlapping(dev.blocklab.model.Demand d, long ioThreads, String how) {
        long threads = Math.max(1, ioThreads);
        long callTime = d.expectedNanos(Path.SERIAL);
        long poolBound = (d.requests() * callTime + threads - 1) / threads + d.cpuFloor(threads);
        if (poolBound <= d.slowestNanos(Path.CRITICAL)) return overlapping(d, how);
        return new dev.blocklab.model.Prediction(poolBound, d.requests() + " requests x " + d.describe(Path.SERIAL)
                + " of calls / " + threads + " I/O threads; " + how, Path.SERIAL);
    }

    /** The request's answer: the two merged texts joined. */
    public static String answer(String postsAndComments, String albumsAndPhotos) {
        return postsAndComments + albumsAndPhotos;
    }

    /**
     * How many merges ran on each kind of thread since this use case was made, e.g.
     * {@code {request thread=40, virtual=0}}; sorted by kind.
     */
    public Map<String, Long> cpuPlaces() {
        Map<String, Long> out = new TreeMap<>();
        places.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }

    /** The kinds of {@link #cpuPlaces()} joined with " + ", or "-" when none ran. */
    public String cpuPlacesLabel() {
        Map<String, Long> p = cpuPlaces();
        return p.isEmpty() ? "-" : String.join(" + ", p.keySet());
    }

    private void record() {
        places.computeIfAbsent(threadKind(Thread.currentThread()), k -> new LongAdder()).increment();
    }

    /**
     * The kind of a thread, for the report: {@code virtual}, {@code request thread} (the modelled server pool),
     * {@code actor dispatcher}, {@code backend timer}, {@code event loop} (Vert.x's), else the thread's name without its trailing number.
     */
    static String threadKind(Thread thread) {
        if (thread.isVirtual()) return "virtual";
        String name = thread.getName();
        if (name.startsWith(RequestThreads.PREFIX)) return "request thread";
        if (name.contains("dispatcher")) return "actor dispatcher";
        if (name.startsWith("blocklab-backend-timer")) return "backend timer";
        if (name.startsWith("vert.x-eventloop-thread")) return "event loop";
        String kind = name.replaceAll("-\\d+$", "");
        return kind.isEmpty() ? "unnamed" : kind;
    }

    private long sortInts(int user) { return sortedChecksum(sharedInts, i -> i * user); }

    private long sortLongs(int user) { return sortedChecksum(sharedLongs, l -> l * user); }

    /** Sorts a copy of {@code shared}, multiplies each element by the user, and folds them into a checksum. */
    private static <N extends Number & Comparable<? super N>> long sortedChecksum(List<N> shared,
                                                                               java.util.function.UnaryOperator<N> timesUser) {
        List<N> copy = new ArrayList<>(shared);
        Collections.sort(copy);
        long checksum = 0;
        for (int i = 0; i < copy.size(); i++) {
            copy.set(i, timesUser.apply(copy.get(i)));
            checksum = checksum * 31 + copy.get(i).longValue();
        }
        return checksum;
    }

    private static <T> T parse(Object json, TypeReference<T> type) {
        try {
            return MAPPER.readValue(String.valueOf(json), type);
        } catch (IOException e) {
            throw new UncheckedIOException("could not parse the downstream JSON: " + e.getMessage(), e);
        }
    }
}
