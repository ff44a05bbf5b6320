package io.ratatosk.pagecache;

import static io.ratatosk.pagecache.PagedFile.PF_NO_GROW;
import static io.ratatosk.pagecache.PagedFile.PF_READ_AHEAD;
import static io.ratatosk.pagecache.PagedFile.PF_SHARED_READ_LOCK;
import static io.ratatosk.pagecache.PagedFile.PF_SHARED_WRITE_LOCK;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.ratatosk.core.ForwardingPageSwapper;
import io.ratatosk.core.PageKey;
import io.ratatosk.core.PageSwapperFactory;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every public method of {@link PageCache}, {@link PagedFile}, {@link PageCursor} and the records they return, called in
 * every lifecycle state ({@link State}), with legal and boundary arguments: each cell must return what the Javadoc and
 * docs/architecture.md ("What each misuse gets") say, or throw the documented type with a message naming the bad value or
 * state; never crash, hang, leave a cursor counted open, swallow the caller's interrupt, or leak the page memory. A new
 * public method fails {@link #everyPublicMethodHasARow()} until the table has a row for it.
 */
class ApiStateMatrixTest {
    private static final int PAGE = 8192;
    private static final int SMALL_PAGE = 100;
    /** Every byte of page 0; pages 1 and 2 hold {@link #OTHER}. */
    private static final byte FILL = 7;
    private static final byte OTHER = 9;
    private static final int LAST_PAGE = 2;
    /** The shared bound on a wait: a cell that has not returned within it hangs (a loaded machine is not a hang). */
    private static final Duration CELL_LIMIT = Duration.ofSeconds(Waits.BOUND_SECONDS);

    @TempDir
    static Path tempDir;
    /** Where the cells' files go: tmpfs where there is one, as every cell's close forces its files. */
    private static Path dir;

    @BeforeAll
    static void chooseFolder() throws IOException {
        Path shm = Path.of("/dev/shm");
        dir = Files.isDirectory(shm) && Files.isWritable(shm) ? Files.createTempDirectory(shm, "ratatosk-matrix") : tempDir;
    }

    @AfterAll
    static void removeFolder() throws IOException {
        if (dir != tempDir) {
            deleteAll(dir);
        }
    }

    private static void deleteAll(Path folder) throws IOException {
        try (Stream<Path> paths = Files.walk(folder)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** Where the cache, the file and the cursor under test stand when the call is made. */
    enum State {
        READ_BEFORE_NEXT(Cursor.READ, false, true, 1),
        READ_ON_PAGE(Cursor.READ, true, true, 1),
        READ_AFTER_NEXT_FALSE(Cursor.READ, false, true, 1, Trait.PAST_END),
        READ_AHEAD_ON_PAGE(Cursor.READ, true, true, 1),
        WRITE_BEFORE_NEXT(Cursor.WRITE, false, true, 1),
        WRITE_ON_PAGE(Cursor.WRITE, true, true, 1),
        /** A {@code PF_NO_GROW} write cursor whose next() past the end returned false. */
        WRITE_AFTER_NEXT_FALSE(Cursor.WRITE, false, true, 1, Trait.PAST_END, Trait.NO_GROW),
        /** A read cursor on a page with a linked cursor open on the same page. */
        READ_WITH_OPEN_LINK(Cursor.READ, true, true, 2, Trait.PARENT),
        WRITE_WITH_OPEN_LINK(Cursor.WRITE, true, true, 2, Trait.PARENT),
        /** A read cursor on a page with a link open on the next page, when the file's last mapping closed. */
        READ_WITH_OPEN_LINK_FILE_UNMAPPED(Cursor.READ, true, false, 2, Trait.PARENT),
        /** As {@link #READ_WITH_OPEN_LINK_FILE_UNMAPPED}, the cache closed instead. */
        READ_WITH_OPEN_LINK_CACHE_CLOSED(Cursor.READ, true, false, 2, Trait.PARENT, Trait.CACHE_CLOSED),
        /** The linked cursor itself, on the page of its parent, which is open. */
        OPEN_LINK(Cursor.READ, true, true, 2),
        CURSOR_CLOSED(Cursor.CLOSED, false, true, 0),
        LINK_OF_CLOSED_PARENT(Cursor.CLOSED, false, true, 0),
        /** The last mapping closed with a read cursor on a page. */
        FILE_UNMAPPED_CURSOR_OPEN(Cursor.READ, true, false, 1),
        /** The last mapping closed with a write cursor that had not moved yet (a pinned one refuses the close). */
        FILE_UNMAPPED_WRITE_CURSOR_OPEN(Cursor.WRITE, false, false, 1),
        /** Mapped twice (by two spellings of its path: one object), both closed by "another part of the store". */
        FILE_UNMAPPED_BY_OTHER_REFERENCE(Cursor.READ, true, false, 1),
        /** Unmapped with a cursor on a page, then mapped again: the file and cursor under test are the old ones. */
        FILE_REMAPPED(Cursor.READ, true, false, 1, Trait.REMAPPED),
        CACHE_CLOSED_FILE_MAPPED(Cursor.READ, false, false, 1, Trait.CACHE_CLOSED),
        CACHE_CLOSED_CURSOR_ON_PAGE(Cursor.READ, true, false, 1, Trait.CACHE_CLOSED),
        /** The cache closed with a cursor on a page, which closed after it: the page memory is freed. */
        CACHE_CLOSED_MEMORY_FREED(Cursor.CLOSED, false, false, 0, Trait.CACHE_CLOSED),
        /** The cache closed while a write cursor that had not moved yet was open (a pinned one refuses the close). */
        CACHE_CLOSED_WRITE_CURSOR_OPEN(Cursor.WRITE, false, false, 1, Trait.CACHE_CLOSED),
        /** The last mapping's close failed closing the file after the pages were dropped: a dead mapping, still registered. */
        SWAPPER_CLOSE_FAILED(Cursor.READ, true, false, 1),
        /** A file of small pages (neither a power of two nor a multiple of 8) in a cache of larger ones: a read cursor on one. */
        SMALL_PAGE_READ_ON_PAGE(Cursor.READ, true, true, 1, Trait.SMALL_PAGES),
        SMALL_PAGE_WRITE_ON_PAGE(Cursor.WRITE, true, true, 1, Trait.SMALL_PAGES),
        /** A flush's force failed (and sticks); the disk answers again. */
        FORCE_FAILED(Cursor.READ, true, true, 1, Trait.FORCE_FAILED),
        /** The file's writes fail (the disk is full) while pages 1 and 2 are dirty. */
        WRITES_FAILING(Cursor.READ, true, true, 1, Trait.WRITES_FAIL),
        /** As {@link #READ_ON_PAGE}, the calling thread interrupted just before the call. */
        INTERRUPTED(Cursor.READ, true, true, 1, Trait.INTERRUPTED),
        /** As {@link #INTERRUPTED}, in a cache with its background evictor and warm-up threads, which its close stops. */
        INTERRUPTED_WITH_WORKERS(Cursor.READ, true, true, 1, Trait.INTERRUPTED, Trait.WORKERS),
        /** A read cursor before its first next() on a file none of whose pages is in the cache; the caller interrupted. */
        INTERRUPTED_COLD(Cursor.READ, false, true, 1, Trait.INTERRUPTED, Trait.COLD);

        final Cursor cursor;
        final boolean pinned;
        final boolean mapped;
        final int openCursors;
        final Set<Trait> traits;

        State(Cursor cursor, boolean pinned, boolean mapped, int openCursors, Trait... traits) {
            this.cursor = cursor;
            this.pinned = pinned;
            this.mapped = mapped;
            this.openCursors = openCursors;
            this.traits = traits.length == 0 ? Set.of() : Set.copyOf(Arrays.asList(traits));
        }

        boolean is(Trait trait) {
            return traits.contains(trait);
        }

        boolean cursorOpen() {
            return cursor != Cursor.CLOSED;
        }

        /** The file's page size. */
        int page() {
            return is(Trait.SMALL_PAGES) ? SMALL_PAGE : PAGE;
        }

        boolean write() {
            return cursor == Cursor.WRITE;
        }

        boolean cacheOpen() {
            return !is(Trait.CACHE_CLOSED);
        }

        /** Pinned on a page its file no longer maps: reads see stale frame memory, never freed memory. */
        boolean stale() {
            return pinned && !mapped;
        }

        /** Cursors the cursor's close closes: itself and its link. */
        int closedByCursorClose() {
            return !cursorOpen() ? 0 : is(Trait.PARENT) ? 2 : 1;
        }
    }

    enum Trait { WORKERS, SMALL_PAGES, PAST_END, NO_GROW, PARENT, REMAPPED, CACHE_CLOSED, FORCE_FAILED, WRITES_FAIL, INTERRUPTED, COLD }

    enum Cursor { READ, WRITE, CLOSED }

    /** One cell's cache, file and cursor, built afresh for each. */
    final class World {
        final State state;
        final FaultySwapperFactory faults = new FaultySwapperFactory();
        /** Whether a swapper's close fails (the file cannot be closed). */
        volatile boolean failCloses;
        /** {@link #faults}' swappers, whose runs of pages fail to write as single pages do, and whose close may fail. */
        final PageSwapperFactory swappers = (file, fileId, pageSize, create) ->
            new ForwardingPageSwapper(faults.create(file, fileId, pageSize, create)) {
                @Override
                public void write(long startPageId, long[] addresses, int count) throws IOException {
                    if (faults.failWrites) { // the faulty swapper fails single writes only; a run of pages goes this way
                        throw new IOException("injected write failure: pages " + startPageId + " to " + (startPageId + count - 1));
                    }
                    super.write(startPageId, addresses, count);
                }

                @Override
                public void close() throws IOException {
                    if (failCloses) {
                        throw new IOException("injected close failure");
                    }
                    super.close();
                }
            };
        final PageCacheConfig config;
        final PageCache cache;
        final Path path;
        /** The file under test; in {@link State#FILE_REMAPPED} the old mapping, {@link #current} the new one. */
        PagedFile file;
        PagedFile current;
        PageCursor cursor;
        final List<PageCursor> opened = new ArrayList<>();
        final List<PageCache> otherCaches = new ArrayList<>();
        private PageCursor target;

        World(State state, String name) throws IOException {
            this.state = state;
            config = config(state);
            cache = PageCache.open(config, swappers);
            path = Files.createDirectory(dir.resolve(name)).resolve("file.db");
            file = cache.map(path, state.page());
            current = file;
            fill(0, FILL);
            for (long p = 1; p <= LAST_PAGE; p++) {
                fill(p, OTHER);
            }
            if (state.is(Trait.COLD)) {
                file.close();
                file = cache.map(path, state.page());
                current = file;
            }
            switch (state) {
                case READ_BEFORE_NEXT, CACHE_CLOSED_FILE_MAPPED, INTERRUPTED_COLD -> cursor = open(0, PF_SHARED_READ_LOCK);
                case READ_ON_PAGE, INTERRUPTED, INTERRUPTED_WITH_WORKERS, FILE_UNMAPPED_CURSOR_OPEN, FILE_UNMAPPED_BY_OTHER_REFERENCE, FILE_REMAPPED,
                     CACHE_CLOSED_CURSOR_ON_PAGE, FORCE_FAILED, WRITES_FAILING, SWAPPER_CLOSE_FAILED, SMALL_PAGE_READ_ON_PAGE,
                     CACHE_CLOSED_MEMORY_FREED ->
                    cursor = pinned(0, PF_SHARED_READ_LOCK);
                case READ_AHEAD_ON_PAGE -> cursor = pinned(0, PF_SHARED_READ_LOCK | PF_READ_AHEAD);
                case READ_AFTER_NEXT_FALSE -> {
                    cursor = open(LAST_PAGE + 1, PF_SHARED_READ_LOCK);
                    assertFalse(cursor.next());
                }
                case WRITE_BEFORE_NEXT, FILE_UNMAPPED_WRITE_CURSOR_OPEN, CACHE_CLOSED_WRITE_CURSOR_OPEN ->
                    cursor = open(0, PF_SHARED_WRITE_LOCK);
                case WRITE_ON_PAGE, SMALL_PAGE_WRITE_ON_PAGE -> cursor = pinned(0, PF_SHARED_WRITE_LOCK);
                case WRITE_AFTER_NEXT_FALSE -> {
                    cursor = open(LAST_PAGE + 1, PF_SHARED_WRITE_LOCK | PF_NO_GROW);
                    assertFalse(cursor.next());
                }
                case READ_WITH_OPEN_LINK, WRITE_WITH_OPEN_LINK -> {
                    cursor = pinned(0, state.write() ? PF_SHARED_WRITE_LOCK : PF_SHARED_READ_LOCK);
                    assertTrue(cursor.openLinkedCursor(0).next());
                }
                case READ_WITH_OPEN_LINK_FILE_UNMAPPED, READ_WITH_OPEN_LINK_CACHE_CLOSED -> {
                    cursor = pinned(0, PF_SHARED_READ_LOCK);
                    assertTrue(cursor.openLinkedCursor(1).next());
                }
                case OPEN_LINK -> {
                    cursor = pinned(0, PF_SHARED_READ_LOCK).openLinkedCursor(0);
                    assertTrue(cursor.next());
                }
                case CURSOR_CLOSED -> {
                    cursor = pinned(0, PF_SHARED_READ_LOCK);
                    cursor.close();
                }
                case LINK_OF_CLOSED_PARENT -> {
                    PageCursor parent = pinned(0, PF_SHARED_READ_LOCK);
                    cursor = parent.openLinkedCursor(1);
                    assertTrue(cursor.next());
                    parent.close();
                }
            }
            switch (state) {
                case FILE_UNMAPPED_CURSOR_OPEN, FILE_UNMAPPED_WRITE_CURSOR_OPEN, READ_WITH_OPEN_LINK_FILE_UNMAPPED -> file.close();
                case FILE_UNMAPPED_BY_OTHER_REFERENCE -> {
                    PagedFile other = cache.map(path.getParent().resolve(".").resolve("file.db"), state.page());
                    assertTrue(other == file, "one file, one object");
                    other.close();
                    file.close();
                }
                case FILE_REMAPPED -> {
                    file.close();
                    current = cache.map(path, state.page());
                }
                case CACHE_CLOSED_FILE_MAPPED, CACHE_CLOSED_CURSOR_ON_PAGE, CACHE_CLOSED_WRITE_CURSOR_OPEN,
                     READ_WITH_OPEN_LINK_CACHE_CLOSED -> cache.close();
                case CACHE_CLOSED_MEMORY_FREED -> {
                    cache.close();
                    cursor.close();
                    assertTrue(cache.isMemoryReleased(), "the last cursor's close freed the page memory");
                }
                case SWAPPER_CLOSE_FAILED -> {
                    failCloses = true;
                    try {
                        file.close();
                        fail("the injected close failure did not fail the close");
                    } catch (IOException expected) {
                        // the pages are dropped, the file is not closed: the next close, map or cache close retries
                    }
                    failCloses = false;
                }
                case FORCE_FAILED -> {
                    fill(1, OTHER);
                    faults.failForces = true;
                    try {
                        file.flush();
                        fail("the injected force failure did not fail the flush");
                    } catch (IOException expected) {
                        // the failure sticks from here on
                    }
                    faults.failForces = false;
                }
                case WRITES_FAILING -> {
                    file.flush();
                    fill(1, OTHER);
                    fill(2, OTHER); // a run of two dirty pages: one write call
                    faults.failWrites = true;
                }
                default -> {
                }
            }
        }

        private void fill(long pageId, byte value) throws IOException {
            try (PageCursor w = file.io(pageId, PF_SHARED_WRITE_LOCK)) {
                assertTrue(w.next());
                w.fill(0, state.page(), value);
            }
        }

        private PageCursor open(long pageId, int flags) throws IOException {
            PageCursor c = file.io(pageId, flags);
            opened.add(c);
            return c;
        }

        private PageCursor pinned(long pageId, int flags) throws IOException {
            PageCursor c = open(pageId, flags);
            assertTrue(c.next());
            return c;
        }

        /** A cache of its own, closed with the world. */
        PageCache otherCache() {
            PageCache other = PageCache.open(config());
            otherCaches.add(other);
            return other;
        }

        /** A write cursor on page 0 of a file of another cache (open in every state, unlike this cache), for copyTo. */
        PageCursor target() throws IOException {
            if (target == null) {
                PagedFile t = otherCache().map(path.resolveSibling(path.getFileName() + ".target"), state.page());
                target = t.io(0, PF_SHARED_WRITE_LOCK);
                opened.add(target);
                assertTrue(target.next());
            }
            return target;
        }

        /** A cursor of another cache of the given flags, on page 0, optionally closed. */
        PageCursor otherCursor(int flags, boolean closed) throws IOException {
            target();
            PagedFile t = otherCaches.get(0).map(path.resolveSibling(path.getFileName() + ".target"), state.page());
            PageCursor c = t.io(0, flags);
            opened.add(c);
            assertTrue(c.next());
            if (closed) {
                c.close();
            }
            return c;
        }

        /** Closes everything, then checks that nothing is left counted open and the page memory was freed. */
        void tearDown(String cell) throws IOException {
            faults.failWrites = false;
            for (PageCursor c : opened) {
                c.close();
            }
            try {
                cache.close();
            } catch (IOException e) {
                assertTrue(state == State.FORCE_FAILED, cell + "; the cache's close failed: " + e);
            }
            assertTrue(cache.isClosed(), cell + "; the cache closed");
            assertEquals(0, cache.openCursors(), cell + "; cursors left counted open");
            assertTrue(cache.isMemoryReleased(), cell + "; the page memory was freed");
            for (PageCache other : otherCaches) {
                other.close();
                assertTrue(other.isMemoryReleased(), cell + "; another cache's page memory was freed");
            }
            deleteAll(path.getParent());
        }
    }

    /** The cache's flags in {@code state}: with its background threads only where the state asks for them. */
    private static PageCacheConfig config(State state) {
        return state.is(Trait.WORKERS) ? config().with("pagecache.evictor.enabled", "true")
            .with("pagecache.warmup.enabled", "true") : config();
    }

    private static PageCacheConfig config() {
        return PageCacheConfig.parse(Map.of("pagecache.memory", "256k", "pagecache.page_size", String.valueOf(PAGE),
            "pagecache.evictor.enabled", "false", "pagecache.warmup.enabled", "false", "pagecache.jmx.enabled", "false"));
    }

    // ---- expectations ---------------------------------------------------------------------------

    @FunctionalInterface
    interface Call {
        Object call(World w) throws Exception;
    }

    @FunctionalInterface
    interface Check {
        void check(World w) throws Exception;
    }

    /** What a cell must do: return (a value, or one that passes a test), throw, or nothing to check (the cell makes no sense). */
    record Expect(String what, Predicate<Object> value, Class<? extends Throwable> thrown, List<String> fragments,
                  Boolean boundsFlag, Check after, Expect alternative) {
        Expect flag(boolean raised) {
            return new Expect(what, value, thrown, fragments, raised, after, alternative);
        }

        Expect then(Check check) {
            return new Expect(what, value, thrown, fragments, boundsFlag, check, alternative);
        }

        /** Either this or {@code other} is right: two misuses at once (a null array given to a closed cursor). */
        Expect or(Expect other) {
            return new Expect(what + ", or " + other.what, value, thrown, fragments, boundsFlag, after, other);
        }

        boolean skipped() {
            return value == null && thrown == null;
        }

        /** Whether {@code t} is this exception (or the alternative's), its message holding every fragment. */
        boolean matches(Throwable t) {
            if (thrown != null && thrown.isInstance(t)
                && fragments.stream().allMatch(f -> t.getMessage() != null && t.getMessage().contains(f))) {
                return true;
            }
            return alternative != null && alternative.matches(t);
        }
    }

    static Expect ret(Object expected) {
        return new Expect("returns " + expected, v -> Objects.equals(v, expected), null, List.of(), null, null, null);
    }

    static Expect retAny() {
        return new Expect("returns", v -> true, null, List.of(), null, null, null);
    }

    static Expect retWhere(String what, Predicate<Object> test) {
        return new Expect("returns " + what, test, null, List.of(), null, null, null);
    }

    static Expect thr(Class<? extends Throwable> type, String... fragments) {
        return new Expect("throws " + type.getSimpleName() + " saying " + Arrays.toString(fragments), null, type,
            List.of(fragments), null, null, null);
    }

    static Expect na(String why) {
        return new Expect("not applicable: " + why, null, null, List.of(), null, null, null);
    }

    private static final String CLOSED = "is closed";
    private static final String NOT_MAPPED = "is not mapped";
    private static final String CACHE_CLOSED = "page cache is closed";
    private static final String READ_ONLY = "was opened with PF_SHARED_READ_LOCK";

    /** A row: one method (its signature, as {@link #signature} writes it) called one way, and what each state must give. */
    record Row(String signature, String args, Call call, Function<State, Expect> expect, boolean pure) {
        String name() {
            return signature.replaceFirst("\\(.*", "") + "(" + args + ")";
        }
    }

    private static Row row(String signature, String args, Call call, Function<State, Expect> expect) {
        return new Row(signature, args, call, expect, false);
    }

    /**
     * A row whose call changes nothing another row would see (a getter, a refusal, an access outside the page, whose flag
     * is cleared after it): the pure rows of a state share one world, as a world per call made the matrix take half a
     * minute. That every refusal leaves the cursor, its offset and the open cursors as they were is checked after each.
     */
    private static Row look(String signature, String args, Call call, Function<State, Expect> expect) {
        return new Row(signature, args, call, expect, true);
    }

    // ---- the cursor's rules ---------------------------------------------------------------------

    private static Expect onCursor(State s, Function<State, Expect> open) {
        return s.cursorOpen() ? open.apply(s) : thr(IllegalStateException.class, CLOSED);
    }

    /** A null array: refused naming the parameter; on a closed cursor, either misuse may be the one said. */
    private static Expect nullArray(State s, String parameter) {
        Expect npe = thr(NullPointerException.class, parameter);
        return s.cursorOpen() ? npe : thr(IllegalStateException.class, CLOSED).or(npe);
    }

    /** A read of {@code value} at an offset inside the page: 0 and the flag raised on no page; any value on a stale one. */
    private static Expect read(State s, Object value, Object zero) {
        return onCursor(s, o -> !s.pinned ? ret(zero).flag(true) : s.stale() ? retAny().flag(false) : ret(value).flag(false));
    }

    /** A read outside the page (or of a cursor on no page): 0 and the bounds flag raised. */
    private static Expect readOutside(State s, Object zero) {
        return onCursor(s, o -> ret(zero).flag(true));
    }

    /** A write inside the page: refused on a read cursor, the flag on no page; else {@code written} holds after. */
    private static Expect write(State s, Check written) {
        return onCursor(s, o -> !s.write() ? thr(IllegalStateException.class, READ_ONLY)
            : !s.pinned ? retAny().flag(true) : ret(null).flag(false).then(written));
    }

    private static Expect writeOutside(State s) {
        return onCursor(s, o -> !s.write() ? thr(IllegalStateException.class, READ_ONLY) : retAny().flag(true));
    }

    private static Check reads(Call read, Object expected) {
        return w -> assertEquals(expected, read.call(w), "read back");
    }

    private static byte[] filled(int length, byte value) {
        byte[] b = new byte[length];
        Arrays.fill(b, value);
        return b;
    }

    private static Predicate<Object> bytes(byte[] expected) {
        return v -> Arrays.equals((byte[]) v, expected);
    }

    private static Expect readBytes(State s, int length) {
        return onCursor(s, o -> !s.pinned ? retWhere("zeros", bytes(new byte[length])).flag(true)
            : s.stale() ? retAny().flag(false) : retWhere(length + " bytes of page 0", bytes(filled(length, FILL))).flag(false));
    }

    private static final String P = "PageCursor.";

    private static List<Row> cursorRows(int page) {
        List<Row> rows = new ArrayList<>();
        // moving
        rows.add(row(P + "next()", "", w -> w.cursor.next(), s -> onCursor(s, o -> !s.mapped
            ? thr(IllegalStateException.class, NOT_MAPPED)
            : s.is(Trait.PAST_END) ? ret(false).then(w -> assertEquals(-1, w.cursor.getCurrentPageId()))
            : ret(true).then(w -> assertEquals(s.pinned ? 1 : 0, w.cursor.getCurrentPageId())))));
        for (long pageId : new long[] {0, LAST_PAGE}) {
            rows.add(row(P + "next(long)", String.valueOf(pageId), w -> w.cursor.next(pageId), s -> onCursor(s, o -> !s.mapped
                ? thr(IllegalStateException.class, NOT_MAPPED)
                : ret(true).then(w -> assertEquals(pageId, w.cursor.getCurrentPageId())))));
        }
        rows.add(row(P + "next(long)", "last + 1", w -> w.cursor.next(LAST_PAGE + 1), s -> onCursor(s, o -> !s.mapped
            ? thr(IllegalStateException.class, NOT_MAPPED)
            : s.write() && !s.is(Trait.NO_GROW) ? ret(true).then(w -> assertEquals(LAST_PAGE + 1, w.file.getLastPageId(), "grown"))
            : ret(false).then(w -> assertEquals(-1, w.cursor.getCurrentPageId())))));
        rows.add(row(P + "next(long)", "maxPageId", w -> w.cursor.next(w.file.maxPageId()), s -> s.write()
            ? na("a write there makes a sparse file of 2^61 bytes") : onCursor(s, o -> !s.mapped
            ? thr(IllegalStateException.class, NOT_MAPPED) : ret(false))));
        rows.add(look(P + "next(long)", "maxPageId + 1", w -> w.cursor.next(w.file.maxPageId() + 1),
            s -> onCursor(s, o -> thr(IllegalArgumentException.class, "pageId="))));
        for (long bad : new long[] {-1, Long.MIN_VALUE, Long.MAX_VALUE}) {
            rows.add(look(P + "next(long)", String.valueOf(bad), w -> w.cursor.next(bad),
                s -> onCursor(s, o -> thr(IllegalArgumentException.class, "pageId=" + bad))));
        }
        rows.add(row(P + "shouldRetry()", "", w -> w.cursor.shouldRetry(), s -> onCursor(s, o -> s.stale()
            ? thr(IllegalStateException.class, NOT_MAPPED) : ret(false))));
        rows.add(look(P + "getCurrentPageId()", "", w -> w.cursor.getCurrentPageId(), s -> onCursor(s, o -> ret(s.pinned ? 0L : -1L))));
        rows.add(look(P + "getCurrentPageSize()", "", w -> w.cursor.getCurrentPageSize(), s -> onCursor(s, o -> ret(page))));
        rows.add(look(P + "faultsWaitedFor()", "", w -> w.cursor.faultsWaitedFor(),
            s -> onCursor(s, o -> retWhere(">= 0", v -> (Long) v >= 0))));
        rows.add(look(P + "checkAndClearBoundsFlag()", "", w -> w.cursor.checkAndClearBoundsFlag(), s -> onCursor(s, o -> ret(false))));
        rows.add(row(P + "close()", "", w -> {
            w.cursor.close();
            return null;
        }, s -> ret(null).then(w -> {
            Exception e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, () -> w.cursor.next());
            assertTrue(e.getMessage().contains(CLOSED), e.getMessage());
            assertEquals(s.openCursors - s.closedByCursorClose(), w.cache.openCursors(), "cursors open after the close");
        })));

        // absolute reads: inside, at the last place a value fits, just past the end, far off
        rows.add(look(P + "getByte(int)", "0", w -> w.cursor.getByte(0), s -> read(s, FILL, (byte) 0)));
        rows.add(look(P + "getShort(int)", "0", w -> w.cursor.getShort(0), s -> read(s, (short) 0x0707, (short) 0)));
        rows.add(look(P + "getInt(int)", "0", w -> w.cursor.getInt(0), s -> read(s, 0x07070707, 0)));
        rows.add(look(P + "getLong(int)", "0", w -> w.cursor.getLong(0), s -> read(s, 0x0707070707070707L, 0L)));
        rows.add(look(P + "getByte(int)", "page - 1", w -> w.cursor.getByte(page - 1), s -> read(s, FILL, (byte) 0)));
        rows.add(look(P + "getShort(int)", "page - 2", w -> w.cursor.getShort(page - 2), s -> read(s, (short) 0x0707, (short) 0)));
        rows.add(look(P + "getInt(int)", "page - 4", w -> w.cursor.getInt(page - 4), s -> read(s, 0x07070707, 0)));
        rows.add(look(P + "getLong(int)", "page - 8", w -> w.cursor.getLong(page - 8), s -> read(s, 0x0707070707070707L, 0L)));
        for (int bad : new int[] {-1, page, Integer.MIN_VALUE, Integer.MAX_VALUE}) {
            rows.add(look(P + "getByte(int)", String.valueOf(bad), w -> w.cursor.getByte(bad), s -> readOutside(s, (byte) 0)));
            rows.add(look(P + "getLong(int)", String.valueOf(bad), w -> w.cursor.getLong(bad), s -> readOutside(s, 0L)));
        }
        rows.add(look(P + "getShort(int)", "page - 1", w -> w.cursor.getShort(page - 1), s -> readOutside(s, (short) 0)));
        rows.add(look(P + "getInt(int)", "page - 3", w -> w.cursor.getInt(page - 3), s -> readOutside(s, 0)));
        rows.add(look(P + "getLong(int)", "page - 7", w -> w.cursor.getLong(page - 7), s -> readOutside(s, 0L)));
        rows.add(look(P + "getBytes(int,byte[],int,int)", "0, [8], 0, 8", w -> {
            byte[] d = new byte[8];
            w.cursor.getBytes(0, d, 0, 8);
            return d;
        }, s -> readBytes(s, 8)));
        rows.add(look(P + "getBytes(int,byte[],int,int)", "page, [0], 0, 0", w -> {
            w.cursor.getBytes(page, new byte[0], 0, 0);
            return null;
        }, s -> onCursor(s, o -> ret(null).flag(!s.pinned))));
        for (int offset : new int[] {-1, page - 4, Integer.MAX_VALUE}) {
            rows.add(look(P + "getBytes(int,byte[],int,int)", offset + ", [8], 0, 8", w -> {
                byte[] d = new byte[8];
                w.cursor.getBytes(offset, d, 0, 8);
                return d;
            }, s -> onCursor(s, o -> retWhere("zeros", bytes(new byte[8])).flag(true))));
        }
        int[][] badRanges = {{-1, 1}, {0, -1}, {4, 8}, {9, 0}, {Integer.MAX_VALUE, 1}, {1, Integer.MAX_VALUE}};
        for (int[] range : badRanges) {
            rows.add(look(P + "getBytes(int,byte[],int,int)", "0, [8], " + range[0] + ", " + range[1], w -> {
                w.cursor.getBytes(0, new byte[8], range[0], range[1]);
                return null;
            }, s -> onCursor(s, o -> thr(IndexOutOfBoundsException.class, "[" + range[0] + ", +" + range[1] + ")", "length 8"))));
            rows.add(look(P + "putBytes(int,byte[],int,int)", "0, [8], " + range[0] + ", " + range[1], w -> {
                w.cursor.putBytes(0, new byte[8], range[0], range[1]);
                return null;
            }, s -> onCursor(s, o -> thr(IndexOutOfBoundsException.class, "[" + range[0] + ", +" + range[1] + ")", "length 8"))));
        }
        rows.add(look(P + "getBytes(int,byte[],int,int)", "0, null, 0, 8", w -> {
            w.cursor.getBytes(0, null, 0, 8);
            return null;
        }, s -> nullArray(s, "dst")));

        // absolute writes
        rows.add(row(P + "putByte(int,byte)", "0", w -> {
            w.cursor.putByte(0, (byte) 1);
            return null;
        }, s -> write(s, reads(w -> w.cursor.getByte(0), (byte) 1))));
        rows.add(row(P + "putShort(int,short)", "page - 2", w -> {
            w.cursor.putShort(page - 2, (short) 2);
            return null;
        }, s -> write(s, reads(w -> w.cursor.getShort(page - 2), (short) 2))));
        rows.add(row(P + "putInt(int,int)", "page - 4", w -> {
            w.cursor.putInt(page - 4, 3);
            return null;
        }, s -> write(s, reads(w -> w.cursor.getInt(page - 4), 3))));
        rows.add(row(P + "putLong(int,long)", "page - 8", w -> {
            w.cursor.putLong(page - 8, 4L);
            return null;
        }, s -> write(s, reads(w -> w.cursor.getLong(page - 8), 4L))));
        for (int bad : new int[] {-1, page, Integer.MIN_VALUE, Integer.MAX_VALUE}) {
            rows.add(look(P + "putByte(int,byte)", String.valueOf(bad), w -> {
                w.cursor.putByte(bad, (byte) 1);
                return null;
            }, ApiStateMatrixTest::writeOutside));
            rows.add(look(P + "putLong(int,long)", String.valueOf(bad), w -> {
                w.cursor.putLong(bad, 1L);
                return null;
            }, ApiStateMatrixTest::writeOutside));
        }
        rows.add(look(P + "putShort(int,short)", "page - 1", w -> {
            w.cursor.putShort(page - 1, (short) 1);
            return null;
        }, ApiStateMatrixTest::writeOutside));
        rows.add(look(P + "putInt(int,int)", "page - 3", w -> {
            w.cursor.putInt(page - 3, 1);
            return null;
        }, ApiStateMatrixTest::writeOutside));
        rows.add(row(P + "putBytes(int,byte[],int,int)", "page - 8, [8], 0, 8", w -> {
            w.cursor.putBytes(page - 8, filled(8, (byte) 5), 0, 8);
            return null;
        }, s -> write(s, reads(w -> w.cursor.getLong(page - 8), 0x0505050505050505L))));
        rows.add(row(P + "putBytes(int,byte[],int,int)", "page - 4, [8], 0, 8", w -> {
            w.cursor.putBytes(page - 4, new byte[8], 0, 8);
            return null;
        }, s -> onCursor(s, o -> !s.write() ? thr(IllegalStateException.class, READ_ONLY)
            : retAny().flag(true).then(reads(w -> s.pinned ? w.cursor.getInt(page - 4) : 0x07070707, 0x07070707)))));
        rows.add(look(P + "putBytes(int,byte[],int,int)", "0, null, 0, 8", w -> {
            w.cursor.putBytes(0, null, 0, 8);
            return null;
        }, s -> nullArray(s, "src")));
        rows.add(row(P + "fill(int,int,byte)", "0, page", w -> {
            w.cursor.fill(0, page, (byte) 3);
            return null;
        }, s -> write(s, reads(w -> w.cursor.getLong(page - 8), 0x0303030303030303L))));
        rows.add(look(P + "fill(int,int,byte)", "page, 0", w -> {
            w.cursor.fill(page, 0, (byte) 3);
            return null;
        }, s -> onCursor(s, o -> !s.write() ? thr(IllegalStateException.class, READ_ONLY) : retAny().flag(!s.pinned))));
        for (int[] bad : new int[][] {{-1, 1}, {0, -1}, {1, page}, {page, 1}, {0, Integer.MAX_VALUE}, {Integer.MAX_VALUE, 1},
                                      {Integer.MIN_VALUE, Integer.MIN_VALUE}}) {
            rows.add(look(P + "fill(int,int,byte)", bad[0] + ", " + bad[1], w -> {
                w.cursor.fill(bad[0], bad[1], (byte) 3);
                return null;
            }, ApiStateMatrixTest::writeOutside));
        }

        // copying: to a write cursor of another cache, open in every state
        rows.add(look(P + "copyTo(int,PageCursor,int,int)", "0, target, 0, 8", w -> w.cursor.copyTo(0, w.target(), 0, 8),
            s -> onCursor(s, o -> !s.pinned ? ret(0).flag(true) : s.stale() ? ret(8).flag(false)
                : ret(8).flag(false).then(reads(w -> w.target().getLong(0), 0x0707070707070707L)))));
        rows.add(look(P + "copyTo(int,PageCursor,int,int)", "page - 4, target, 0, 8", w -> w.cursor.copyTo(page - 4, w.target(), 0, 8),
            s -> onCursor(s, o -> s.pinned ? ret(4).flag(false) : ret(0).flag(true))));
        rows.add(look(P + "copyTo(int,PageCursor,int,int)", "0, target, 0, MAX", w -> w.cursor.copyTo(0, w.target(), 0,
            Integer.MAX_VALUE), s -> onCursor(s, o -> s.pinned ? ret(page).flag(false) : ret(0).flag(true))));
        rows.add(look(P + "copyTo(int,PageCursor,int,int)", "0, target, 0, 0", w -> w.cursor.copyTo(0, w.target(), 0, 0),
            s -> onCursor(s, o -> ret(0).flag(false))));
        for (int[] bad : new int[][] {{-1, 0, 8}, {0, -1, 8}, {0, 0, -1}, {page, 0, 1}, {0, page, 1}, {Integer.MAX_VALUE, 0, 1},
                                      {Integer.MIN_VALUE, Integer.MIN_VALUE, Integer.MIN_VALUE}}) {
            rows.add(look(P + "copyTo(int,PageCursor,int,int)", bad[0] + ", target, " + bad[1] + ", " + bad[2],
                w -> w.cursor.copyTo(bad[0], w.target(), bad[1], bad[2]), s -> onCursor(s, o -> ret(0).flag(true))));
        }
        rows.add(row(P + "copyTo(int,PageCursor,int,int)", "0, itself, 4, 8 (overlapping)", w -> {
            if (w.state.write() && w.state.pinned) {
                w.cursor.putLong(0, 0x0102030405060708L);
            }
            return w.cursor.copyTo(0, w.cursor, 4, 8);
        }, s -> onCursor(s, o -> !s.write() ? thr(IllegalArgumentException.class, "must be a PF_SHARED_WRITE_LOCK cursor")
            : !s.pinned ? ret(0).flag(true) : ret(8).flag(false).then(reads(w -> w.cursor.getLong(4), 0x0102030405060708L)))));
        rows.add(look(P + "copyTo(int,PageCursor,int,int)", "0, null, 0, 8", w -> w.cursor.copyTo(0, null, 0, 8),
            s -> nullArray(s, "target")));
        rows.add(look(P + "copyTo(int,PageCursor,int,int)", "0, read cursor, 0, 8",
            w -> w.cursor.copyTo(0, w.otherCursor(PF_SHARED_READ_LOCK, false), 0, 8),
            s -> onCursor(s, o -> thr(IllegalArgumentException.class, "must be a PF_SHARED_WRITE_LOCK cursor"))));
        rows.add(look(P + "copyTo(int,PageCursor,int,int)", "0, closed target, 0, 8",
            w -> w.cursor.copyTo(0, w.otherCursor(PF_SHARED_WRITE_LOCK, true), 0, 8),
            s -> onCursor(s, o -> thr(IllegalStateException.class, CLOSED))));

        // relative access
        rows.add(look(P + "getOffset()", "", w -> w.cursor.getOffset(), s -> onCursor(s, o -> ret(0))));
        for (int offset : new int[] {5, -1, Integer.MAX_VALUE, Integer.MIN_VALUE}) {
            rows.add(row(P + "setOffset(int)", String.valueOf(offset), w -> {
                w.cursor.setOffset(offset);
                return null;
            }, s -> onCursor(s, o -> ret(null).then(reads(w -> w.cursor.getOffset(), offset)))));
        }
        rows.add(row(P + "setOffset(int)", "-1, then getLong()", w -> {
            w.cursor.setOffset(-1);
            return w.cursor.getLong();
        }, s -> readOutside(s, 0L)));
        rows.add(row(P + "setOffset(int)", "MAX - 3, then getLong()", w -> {
            w.cursor.setOffset(Integer.MAX_VALUE - 3);
            return w.cursor.getLong();
        }, s -> readOutside(s, 0L)));
        rows.add(row(P + "getByte()", "", w -> w.cursor.getByte(), s -> read(s, FILL, (byte) 0)));
        rows.add(row(P + "getShort()", "", w -> w.cursor.getShort(), s -> read(s, (short) 0x0707, (short) 0)));
        rows.add(row(P + "getInt()", "", w -> w.cursor.getInt(), s -> read(s, 0x07070707, 0)));
        rows.add(row(P + "getLong()", "", w -> w.cursor.getLong(), s -> read(s, 0x0707070707070707L, 0L)));
        rows.add(row(P + "getBytes(byte[])", "[8]", w -> {
            byte[] d = new byte[8];
            w.cursor.getBytes(d);
            return d;
        }, s -> readBytes(s, 8)));
        rows.add(row(P + "getBytes(byte[])", "[page + 1]", w -> {
            byte[] d = new byte[page + 1];
            w.cursor.getBytes(d);
            return d;
        }, s -> onCursor(s, o -> retWhere("zeros", bytes(new byte[page + 1])).flag(true))));
        rows.add(look(P + "getBytes(byte[])", "null", w -> {
            w.cursor.getBytes((byte[]) null);
            return null;
        }, s -> nullArray(s, "dst")));
        rows.add(row(P + "getBytes(byte[],int,int)", "[8], 0, 8", w -> {
            byte[] d = new byte[8];
            w.cursor.getBytes(d, 0, 8);
            return d;
        }, s -> readBytes(s, 8)));
        rows.add(look(P + "getBytes(byte[],int,int)", "[8], 4, 8", w -> {
            w.cursor.getBytes(new byte[8], 4, 8);
            return null;
        }, s -> onCursor(s, o -> thr(IndexOutOfBoundsException.class, "[4, +8)", "length 8"))));
        rows.add(look(P + "getBytes(byte[],int,int)", "null, 0, 8", w -> {
            w.cursor.getBytes(null, 0, 8);
            return null;
        }, s -> nullArray(s, "dst")));
        rows.add(row(P + "putByte(byte)", "", w -> {
            w.cursor.putByte((byte) 1);
            return null;
        }, s -> write(s, reads(w -> w.cursor.getByte(0), (byte) 1))));
        rows.add(row(P + "putShort(short)", "", w -> {
            w.cursor.putShort((short) 2);
            return null;
        }, s -> write(s, reads(w -> w.cursor.getShort(0), (short) 2))));
        rows.add(row(P + "putInt(int)", "", w -> {
            w.cursor.putInt(3);
            return null;
        }, s -> write(s, reads(w -> w.cursor.getInt(0), 3))));
        rows.add(row(P + "putLong(long)", "", w -> {
            w.cursor.putLong(4L);
            return null;
        }, s -> write(s, reads(w -> w.cursor.getLong(0), 4L))));
        rows.add(row(P + "putLong(long)", "at offset page - 4", w -> {
            w.cursor.setOffset(page - 4);
            w.cursor.putLong(4L);
            return null;
        }, s -> !s.cursorOpen() ? writeOutside(s) : writeOutside(s).then(w -> assertEquals(s.write() ? page + 4 : page - 4, w.cursor.getOffset(),
            "advanced past the page, or left where it was by the refusal"))));
        rows.add(row(P + "putBytes(byte[])", "[8]", w -> {
            w.cursor.putBytes(filled(8, (byte) 5));
            return null;
        }, s -> write(s, reads(w -> w.cursor.getLong(0), 0x0505050505050505L))));
        rows.add(look(P + "putBytes(byte[])", "null", w -> {
            w.cursor.putBytes((byte[]) null);
            return null;
        }, s -> nullArray(s, "src")));
        rows.add(row(P + "putBytes(byte[],int,int)", "[8], 0, 8", w -> {
            w.cursor.putBytes(filled(8, (byte) 5), 0, 8);
            return null;
        }, s -> write(s, reads(w -> w.cursor.getLong(0), 0x0505050505050505L))));
        rows.add(look(P + "putBytes(byte[],int,int)", "[8], -1, 8", w -> {
            w.cursor.putBytes(new byte[8], -1, 8);
            return null;
        }, s -> onCursor(s, o -> thr(IndexOutOfBoundsException.class, "[-1, +8)", "length 8"))));
        rows.add(look(P + "putBytes(byte[],int,int)", "null, 0, 8", w -> {
            w.cursor.putBytes(null, 0, 8);
            return null;
        }, s -> nullArray(s, "src")));

        // cursor exceptions
        rows.add(row(P + "setCursorException(String)", "\"bad length\"", w -> {
            w.cursor.setCursorException("bad length");
            return null;
        }, s -> onCursor(s, o -> ret(null).then(w -> {
            CursorException e = org.junit.jupiter.api.Assertions.assertThrows(CursorException.class,
                () -> w.cursor.checkAndClearCursorException());
            assertEquals("bad length", e.getMessage());
        }))));
        rows.add(row(P + "setCursorException(String)", "null", w -> {
            w.cursor.setCursorException(null);
            return null;
        }, s -> onCursor(s, o -> ret(null).then(w -> {
            CursorException e = org.junit.jupiter.api.Assertions.assertThrows(CursorException.class,
                () -> w.cursor.checkAndClearCursorException());
            assertEquals("cursor exception with no message", e.getMessage());
        }))));
        rows.add(look(P + "checkAndClearCursorException()", "", w -> {
            w.cursor.checkAndClearCursorException();
            return null;
        }, s -> onCursor(s, o -> ret(null))));
        rows.add(look(P + "clearCursorException()", "", w -> {
            w.cursor.clearCursorException();
            return null;
        }, s -> onCursor(s, o -> ret(null))));

        // linked cursors
        rows.add(row(P + "openLinkedCursor(long)", "1", w -> w.cursor.openLinkedCursor(1), s -> onCursor(s, o -> !s.mapped
            ? thr(IllegalStateException.class, NOT_MAPPED)
            : retWhere("a cursor", v -> v instanceof PageCursor).then(w -> {
                PageCursor link = w.opened.get(w.opened.size() - 1);
                assertTrue(link.next(), "the link moves to page 1");
                assertEquals(1, link.getCurrentPageId());
                assertEquals(s.openCursors + 1, w.cache.openCursors());
            }))));
        for (long bad : new long[] {-1, Long.MIN_VALUE, Long.MAX_VALUE}) {
            rows.add(look(P + "openLinkedCursor(long)", String.valueOf(bad), w -> w.cursor.openLinkedCursor(bad),
                s -> onCursor(s, o -> thr(IllegalArgumentException.class, "pageId=" + bad))));
        }
        return rows;
    }

    // ---- the file's rows ------------------------------------------------------------------------

    private static final String F = "PagedFile.";

    /** A call that must fail once the file is unmapped, else return as {@code mapped} says. */
    private static Expect onFile(State s, Function<State, Expect> mapped) {
        return s.mapped ? mapped.apply(s) : thr(IllegalStateException.class, NOT_MAPPED);
    }

    private static List<Row> fileRows(int page) {
        List<Row> rows = new ArrayList<>();
        for (int flags : new int[] {PF_SHARED_READ_LOCK, PF_SHARED_WRITE_LOCK, PF_SHARED_READ_LOCK | PF_READ_AHEAD,
                                    PF_SHARED_READ_LOCK | PF_NO_GROW, PF_SHARED_WRITE_LOCK | PF_NO_GROW,
                                    PF_SHARED_WRITE_LOCK | PF_NO_GROW | PF_READ_AHEAD}) {
            rows.add(row(F + "io(long,int)", "0, " + flags, w -> w.file.io(0, flags), s -> onFile(s, o -> retWhere("a cursor",
                v -> v instanceof PageCursor).then(w -> {
                    PageCursor c = w.opened.get(w.opened.size() - 1);
                    assertTrue(c.next());
                    assertEquals(s.openCursors + 1, w.cache.openCursors());
                }))));
        }
        rows.add(row(F + "io(long,int)", "maxPageId, read", w -> w.file.io(w.file.maxPageId(), PF_SHARED_READ_LOCK),
            s -> onFile(s, o -> retWhere("a cursor", v -> v instanceof PageCursor).then(w ->
                assertFalse(w.opened.get(w.opened.size() - 1).next(), "past the end")))));
        rows.add(look(F + "io(long,int)", "maxPageId + 1, read", w -> w.file.io(w.file.maxPageId() + 1, PF_SHARED_READ_LOCK),
            s -> thr(IllegalArgumentException.class, "pageId=")));
        for (long bad : new long[] {-1, Long.MIN_VALUE, Long.MAX_VALUE}) {
            rows.add(look(F + "io(long,int)", bad + ", read", w -> w.file.io(bad, PF_SHARED_READ_LOCK),
                s -> thr(IllegalArgumentException.class, "pageId=" + bad)));
        }
        for (int bad : new int[] {0, PF_SHARED_READ_LOCK | PF_SHARED_WRITE_LOCK, PF_NO_GROW, PF_READ_AHEAD,
                                  PF_NO_GROW | PF_READ_AHEAD, PF_SHARED_READ_LOCK | 1 << 4, -1, Integer.MIN_VALUE,
                                  Integer.MIN_VALUE | PF_SHARED_WRITE_LOCK}) {
            rows.add(look(F + "io(long,int)", "0, " + bad, w -> w.file.io(0, bad),
                s -> thr(IllegalArgumentException.class, "flags=" + bad)));
        }
        rows.add(look(F + "pageSize()", "", w -> w.file.pageSize(), s -> ret(page)));
        rows.add(look(F + "path()", "", w -> w.file.path(), s -> retWhere("the file's real path", v -> {
            try {
                return v.equals(pathUnderTest().toRealPath());
            } catch (IOException e) {
                return false;
            }
        })));
        rows.add(look(F + "getLastPageId()", "", w -> w.file.getLastPageId(), s -> s.mapped ? ret((long) LAST_PAGE) : retAny()));
        rows.add(look(F + "fileSize()", "", w -> w.file.fileSize(), s -> s.mapped ? ret((LAST_PAGE + 1L) * page) : retAny()));
        rows.add(look(F + "maxPageId()", "", w -> w.file.maxPageId(), s -> retWhere("the most a page key and a byte offset"
            + " can address", v -> {
                long max = (Long) v;
                return max <= PageKey.MAX_PAGE_ID && Math.multiplyHigh(max + 1, page) == 0 && (max + 1) * page > 0;
            })));
        rows.add(look(F + "numberOfCachedPages()", "", w -> w.file.numberOfCachedPages(),
            s -> ret(s.mapped && !s.is(Trait.COLD) ? LAST_PAGE + 1L : 0L)));
        rows.add(look(F + "toString()", "", w -> w.file.toString(), s -> retWhere("naming the file",
            v -> ((String) v).contains(pathUnderTest().getFileName().toString()))));

        rows.add(row(F + "truncate(long)", "last + 1", w -> {
            w.file.truncate(LAST_PAGE + 1);
            return null;
        }, s -> onFile(s, o -> ret(null).then(reads(w -> w.file.getLastPageId(), (long) LAST_PAGE)))));
        rows.add(row(F + "truncate(long)", "MAX", w -> {
            w.file.truncate(Long.MAX_VALUE);
            return null;
        }, s -> onFile(s, o -> ret(null).then(reads(w -> w.file.getLastPageId(), (long) LAST_PAGE)))));
        rows.add(row(F + "truncate(long)", "0", w -> {
            w.file.truncate(0);
            return null;
        }, s -> onFile(s, o -> s.write() && s.pinned ? thr(IllegalStateException.class, "write cursor")
            : ret(null).then(reads(w -> w.file.getLastPageId(), -1L)))));
        for (long bad : new long[] {-1, Long.MIN_VALUE}) {
            rows.add(look(F + "truncate(long)", String.valueOf(bad), w -> {
                w.file.truncate(bad);
                return null;
            }, s -> thr(IllegalArgumentException.class, "pageCount=" + bad)));
        }
        rows.add(row(F + "touch(long,int)", "0, 3", w -> w.file.touch(0, 3), s -> onFile(s, o -> ret(s.is(Trait.COLD) ? 3 : 0))));
        rows.add(row(F + "touch(long,int)", "0, 0", w -> w.file.touch(0, 0), s -> onFile(s, o -> ret(0))));
        rows.add(row(F + "touch(long,int)", "0, MAX", w -> w.file.touch(0, Integer.MAX_VALUE),
            s -> onFile(s, o -> ret(s.is(Trait.COLD) ? LAST_PAGE + 1 : 0))));
        rows.add(row(F + "touch(long,int)", "maxPageId, MAX", w -> w.file.touch(w.file.maxPageId(), Integer.MAX_VALUE),
            s -> onFile(s, o -> ret(0))));
        for (long bad : new long[] {-1, Long.MIN_VALUE, Long.MAX_VALUE}) {
            rows.add(look(F + "touch(long,int)", bad + ", 1", w -> w.file.touch(bad, 1),
                s -> thr(IllegalArgumentException.class, "pageId=" + bad)));
        }
        for (int bad : new int[] {-1, Integer.MIN_VALUE}) {
            rows.add(look(F + "touch(long,int)", "0, " + bad, w -> w.file.touch(0, bad),
                s -> thr(IllegalArgumentException.class, "count=" + bad)));
        }
        rows.add(row(F + "flush()", "", w -> {
            w.file.flush();
            return null;
        }, s -> onFile(s, o -> s.is(Trait.FORCE_FAILED) ? thr(IOException.class, "an earlier force of")
            : s.is(Trait.WRITES_FAIL) ? thr(IOException.class, "injected write failure") : ret(null))));
        rows.add(row(F + "close()", "", w -> {
            w.file.close();
            return null;
        }, s -> !s.mapped ? ret(null).then(w -> {
            if (w.current != w.file) {
                w.opened.add(w.current.io(0, PF_SHARED_READ_LOCK)); // closing the old mapping left the new one mapped
            }
        }) : s.write() && s.pinned ? thr(IllegalStateException.class, "write cursor")
            : s.is(Trait.FORCE_FAILED) ? thr(IOException.class, "an earlier force of")
            : s.is(Trait.WRITES_FAIL) ? thr(IOException.class, "injected write failure").then(w ->
                w.opened.add(w.file.io(0, PF_SHARED_READ_LOCK))) // still mapped
            : ret(null).then(w -> org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> w.file.io(0, PF_SHARED_READ_LOCK), "unmapped"))));
        return rows;
    }

    /** The file under test's path, for the expectations that name it; set by each cell. */
    private static final ThreadLocal<Path> CURRENT_PATH = new ThreadLocal<>();

    private static Path pathUnderTest() {
        return CURRENT_PATH.get();
    }

    // ---- the cache's rows -----------------------------------------------------------------------

    private static final String C = "PageCache.";

    private static Expect onCache(State s, Function<State, Expect> open) {
        return s.cacheOpen() ? open.apply(s) : thr(IllegalStateException.class, CACHE_CLOSED);
    }

    private static List<Row> cacheRows(int page) {
        List<Row> rows = new ArrayList<>();
        rows.add(row(C + "map(Path,int)", "new file", w -> w.cache.map(w.path.resolveSibling("new.db"), page),
            s -> onCache(s, o -> retWhere("a mapping", v -> v instanceof PagedFile))));
        rows.add(row(C + "map(Path,int)", "the file", w -> w.cache.map(w.path, page), s -> onCache(s, o -> s.mapped || s
            == State.FILE_REMAPPED ? retWhere("the file's mapping", v -> v != null).then(w -> assertTrue(
                w.cache.map(w.path, page) == w.current, "the same object")) : retWhere("a new mapping", v -> v != null))));
        rows.add(row(C + "map(Path,int)", "the file, page / 2", w -> w.cache.map(w.path, page / 2), s -> onCache(s,
            o -> s.mapped || s == State.FILE_REMAPPED ? thr(IllegalArgumentException.class, "page size") : retAny())));
        rows.add(look(C + "map(Path,int)", "null", w -> w.cache.map(null, page), s -> thr(NullPointerException.class, "path")));
        for (int bad : new int[] {0, -1, config().pageSize() + 1, Integer.MIN_VALUE, Integer.MAX_VALUE}) {
            rows.add(look(C + "map(Path,int)", "the file, " + bad, w -> w.cache.map(w.path, bad),
                s -> thr(IllegalArgumentException.class, "filePageSize=" + bad)));
        }
        rows.add(look(C + "map(Path,int)", "a folder", w -> w.cache.map(w.path.getParent(), page),
            s -> onCache(s, o -> thr(IOException.class))));
        rows.add(look(C + "map(Path,int,boolean)", "missing, false", w -> w.cache.map(w.path.resolveSibling("missing.db"), page,
            false), s -> onCache(s, o -> thr(NoSuchFileException.class, "missing.db"))));
        rows.add(row(C + "map(Path,int,boolean)", "missing, true", w -> w.cache.map(w.path.resolveSibling("created.db"), page,
            true), s -> onCache(s, o -> retWhere("a mapping", v -> v instanceof PagedFile))));
        rows.add(look(C + "map(Path,int,boolean)", "null, true", w -> w.cache.map(null, page, true),
            s -> thr(NullPointerException.class, "path")));
        rows.add(row(C + "flushAndForce()", "", w -> {
            w.cache.flushAndForce();
            return null;
        }, s -> onCache(s, o -> s.is(Trait.FORCE_FAILED) ? thr(IOException.class, "an earlier force of")
            : s.is(Trait.WRITES_FAIL) ? thr(IOException.class, "injected write failure") : ret(null))));
        rows.add(look(C + "stats()", "", w -> w.cache.stats(), s -> retWhere("the counters", v -> {
            PageCacheStats stats = (PageCacheStats) v;
            return stats.frames() == config().frames() && stats.freeFrames() >= 0 && stats.freeFrames() <= stats.frames()
                && stats.hits() >= 0 && stats.faults() >= 0 && stats.nvm() != null && stats.io() != null
                && stats.toString().contains("policy=");
        })));
        rows.add(look(C + "tier()", "", w -> w.cache.tier(), s -> ret(null)));
        rows.add(look(C + "mbeanName()", "", w -> w.cache.mbeanName(), s -> ret(null)));
        rows.add(look(C + "config()", "", w -> w.cache.config(), s -> ret(config(s))));
        rows.add(look(C + "pageSize()", "", w -> w.cache.pageSize(), s -> ret(config().pageSize())));
        rows.add(look(C + "frameCount()", "", w -> w.cache.frameCount(), s -> ret(config().frames())));
        rows.add(look(C + "isClosed()", "", w -> w.cache.isClosed(), s -> ret(!s.cacheOpen())));
        rows.add(look(C + "openCursors()", "", w -> w.cache.openCursors(), s -> ret((long) s.openCursors)));
        rows.add(row(C + "close()", "", w -> {
            w.cache.close();
            return null;
        }, s -> !s.cacheOpen() ? ret(null)
            : s.write() && s.pinned ? thr(IllegalStateException.class, "write cursor").then(w -> assertFalse(w.cache.isClosed()))
            : s.is(Trait.FORCE_FAILED) ? thr(IOException.class, "an earlier force of")
            : s.is(Trait.WRITES_FAIL) ? thr(IOException.class, "injected write failure").then(w -> assertFalse(w.cache.isClosed()))
            : ret(null).then(w -> assertTrue(w.cache.isClosed()))));
        rows.add(look(C + "open(PageCacheConfig)", "null", w -> PageCache.open(null),
            s -> thr(NullPointerException.class, "config")));
        rows.add(look(C + "open(PageCacheConfig)", "config", w -> {
            PageCache other = PageCache.open(config());
            w.otherCaches.add(other);
            return other;
        }, s -> retWhere("an open cache", v -> !((PageCache) v).isClosed())));
        rows.add(look(C + "open(PageCacheConfig,PageSwapperFactory)", "config, null", w -> PageCache.open(config(), null),
            s -> thr(NullPointerException.class, "swappers")));
        rows.add(look(C + "open(PageCacheConfig,PageSwapperFactory)", "config, this cache's factory", w -> {
            PageCache other = PageCache.open(config(), w.swappers);
            w.otherCaches.add(other);
            return other;
        }, s -> s.cacheOpen() ? thr(IllegalArgumentException.class, "already serves an open page cache")
            : retWhere("an open cache", v -> !((PageCache) v).isClosed())));
        return rows;
    }

    // ---- the records' rows ----------------------------------------------------------------------

    private static final PageCacheStats SAMPLE = new PageCacheStats(3, 1, 1, 2, 1, 4, 8192, 16384, 0, 32, 30, "clock",
        "", NvmCacheStats.NONE, new IoStats(6, 3, 0), "off");

    private static List<Row> recordRows() {
        List<Row> rows = new ArrayList<>();
        String s = "PageCacheStats.";
        rows.add(row(s + "evictions()", "", w -> SAMPLE.evictions(), st -> ret(SAMPLE.backgroundEvictions()
            + SAMPLE.cooperativeEvictions())));
        rows.add(row(s + "hitRatio()", "", w -> SAMPLE.hitRatio(), st -> ret((double) SAMPLE.hits()
            / (SAMPLE.hits() + SAMPLE.faults()))));
        rows.add(row(s + "hitRatio()", "no pin yet", w -> new PageCacheStats(0, 0, 0, 0, 0, 0, 0, 0, 0, 32, 32, "clock", "",
            NvmCacheStats.NONE, IoStats.NONE, "off").hitRatio(), st -> ret(0.0)));
        rows.add(row(s + "toString()", "", w -> SAMPLE.toString(), st -> retWhere("the counters", v -> ((String) v)
            .contains("hits=3") && ((String) v).contains("pagesWritten=6"))));
        rows.add(row(s + "equals(Object)", "", w -> SAMPLE.equals(SAMPLE), st -> ret(true)));
        rows.add(row(s + "hashCode()", "", w -> SAMPLE.hashCode(), st -> retAny()));
        String i = "IoStats.";
        rows.add(row(i + "pagesPerWriteCall()", "", w -> SAMPLE.io().pagesPerWriteCall(), st -> ret(2.0)));
        rows.add(row(i + "pagesPerWriteCall()", "no write", w -> IoStats.NONE.pagesPerWriteCall(), st -> ret(0.0)));
        rows.add(row(i + "toString()", "", w -> SAMPLE.io().toString(), st -> retWhere("the counters",
            v -> ((String) v).contains("writeCalls=3"))));
        rows.add(row(i + "equals(Object)", "", w -> IoStats.NONE.equals(new IoStats(0, 0, 0)), st -> ret(true)));
        rows.add(row(i + "hashCode()", "", w -> IoStats.NONE.hashCode(), st -> ret(new IoStats(0, 0, 0).hashCode())));
        String n = "NvmCacheStats.";
        rows.add(row(n + "toString()", "", w -> NvmCacheStats.NONE.toString(), st -> retWhere("the counters",
            v -> ((String) v).startsWith("nvm reads=0"))));
        rows.add(row(n + "equals(Object)", "", w -> NvmCacheStats.NONE.equals(SAMPLE.nvm()), st -> ret(true)));
        rows.add(row(n + "hashCode()", "", w -> NvmCacheStats.NONE.hashCode(), st -> retAny()));
        rows.add(row("CursorException.<init>(String)", "", w -> new CursorException("m").getMessage(), st -> ret("m")));
        return rows;
    }

    /** Signatures the record rows cover by reflection: each component's accessor returns what the constructor was given. */
    private static final List<Class<? extends Record>> RECORDS = List.of(PageCacheStats.class, IoStats.class,
        NvmCacheStats.class);

    // ---- running the table ----------------------------------------------------------------------

    /** The rows for a file of {@code page}-byte pages. */
    private static List<Row> stateRows(int page) {
        List<Row> rows = new ArrayList<>();
        rows.addAll(cursorRows(page));
        rows.addAll(fileRows(page));
        rows.addAll(cacheRows(page));
        return rows;
    }

    @TestFactory
    Stream<DynamicTest> everyMethodInEveryState() {
        List<DynamicTest> cells = new ArrayList<>();
        int[] n = {0};
        for (State state : State.values()) {
            List<Row> pure = new ArrayList<>();
            for (Row row : stateRows(state.page())) {
                if (row.expect().apply(state).skipped()) {
                    continue;
                }
                if (row.pure()) {
                    pure.add(row);
                    continue;
                }
                String name = "cell" + n[0]++;
                cells.add(DynamicTest.dynamicTest(state + " " + row.name(), () -> cell(state + " " + row.name(),
                    () -> runCells(state, List.of(row), name))));
            }
            String name = "cell" + n[0]++;
            cells.add(DynamicTest.dynamicTest(state + ": " + pure.size() + " calls that change nothing",
                () -> cell(state + ": the calls that change nothing", () -> runCells(state, pure, name))));
        }
        return cells.stream();
    }

    @Test
    void theRecordsDoWhatTheySay() throws Exception {
        for (Row row : recordRows()) {
            Object value = row.call().call(null);
            Expect expect = row.expect().apply(State.READ_ON_PAGE);
            assertTrue(expect.value().test(value), row.name() + ": " + expect.what() + ", got " + value);
        }
        for (Class<? extends Record> type : RECORDS) {
            RecordComponent[] components = type.getRecordComponents();
            Object[] args = new Object[components.length];
            for (int i = 0; i < components.length; i++) {
                args[i] = sampleOf(components[i].getType(), i);
            }
            Constructor<? extends Record> constructor = type.getDeclaredConstructor(
                Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new));
            Record record = constructor.newInstance(args);
            for (int i = 0; i < components.length; i++) {
                assertEquals(args[i], components[i].getAccessor().invoke(record), type.getSimpleName() + "."
                    + components[i].getName());
            }
        }
    }

    /**
     * A null component of a record the API returns is refused when the record is made, naming the component: a
     * PageCacheStats with a null policyState, nvm or io was accepted, and its toString() failed later, far from the code
     * that made it (a tool subtracting two snapshots), with a bare NullPointerException.
     */
    @Test
    void aRecordRefusesANullComponentNamingIt() throws Exception {
        for (Class<? extends Record> type : RECORDS) {
            RecordComponent[] components = type.getRecordComponents();
            Constructor<? extends Record> constructor = type.getDeclaredConstructor(
                Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new));
            for (int nulled = 0; nulled < components.length; nulled++) {
                if (components[nulled].getType().isPrimitive()) {
                    continue;
                }
                Object[] args = new Object[components.length];
                for (int i = 0; i < components.length; i++) {
                    args[i] = i == nulled ? null : sampleOf(components[i].getType(), i);
                }
                String what = type.getSimpleName() + " with a null " + components[nulled].getName();
                try {
                    Record made = constructor.newInstance(args);
                    fail(what + " was made: " + made);
                } catch (java.lang.reflect.InvocationTargetException e) {
                    Throwable refusal = e.getCause();
                    assertTrue(refusal instanceof NullPointerException && refusal.getMessage() != null
                        && refusal.getMessage().contains(components[nulled].getName()), what + ": " + refusal);
                }
            }
        }
    }

    private static Object sampleOf(Class<?> type, int i) {
        if (type == long.class) {
            return (long) i + 1;
        } else if (type == int.class) {
            return i + 1;
        } else if (type == double.class) {
            return i + 0.5;
        } else if (type == String.class) {
            return "s" + i;
        } else if (type == NvmCacheStats.class) {
            return NvmCacheStats.NONE;
        } else if (type == IoStats.class) {
            return new IoStats(1, 1, 1);
        }
        throw new AssertionError("no sample of " + type);
    }

    /**
     * Runs a cell on the one cell thread (a thread per cell cost more than the cell on a small machine), failing it if it
     * has not returned within {@link #CELL_LIMIT}: a hang. A hung thread is abandoned, the next cell gets a new one.
     */
    private void cell(String what, Executable run) throws Throwable {
        ExecutorService executor = cellThread();
        Future<?> running = executor.submit(() -> {
            try {
                run.execute();
            } catch (Exception | Error e) {
                throw e;
            } catch (Throwable t) {
                throw new AssertionError(t);
            }
            return null;
        });
        try {
            running.get(CELL_LIMIT.toSeconds(), TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw e.getCause();
        } catch (TimeoutException e) {
            cellThread = null;
            executor.shutdownNow();
            fail(what + " did not return within " + CELL_LIMIT.toSeconds() + " s (ratatosk.test.wait_s)");
        }
    }

    private static ExecutorService cellThread;

    private static synchronized ExecutorService cellThread() {
        if (cellThread == null) {
            cellThread = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "api-state-matrix-cell");
                t.setDaemon(true);
                return t;
            });
        }
        return cellThread;
    }

    @AfterAll
    static void stopCellThread() {
        if (cellThread != null) {
            cellThread.shutdownNow();
            cellThread = null;
        }
    }

    /** Builds the world of {@code state}, makes each row's call on it, checking each, and then tears the world down. */
    private void runCells(State state, List<Row> rows, String name) throws Exception {
        World w = new World(state, name);
        CURRENT_PATH.set(w.path);
        List<Throwable> failures = new ArrayList<>();
        try {
            for (Row row : rows) {
                try {
                    check(w, state, row);
                } catch (AssertionError | Exception e) {
                    failures.add(e);
                }
            }
        } finally {
            Thread.interrupted();
            try {
                w.tearDown(state + " " + (rows.size() == 1 ? rows.get(0).name() : "(calls that change nothing)"));
            } catch (AssertionError | Exception e) {
                failures.add(e);
            }
            CURRENT_PATH.remove();
        }
        if (!failures.isEmpty()) {
            AssertionError all = new AssertionError(failures.size() + " of " + rows.size() + " calls failed: "
                + failures.stream().map(Throwable::getMessage).collect(Collectors.joining("\n")), failures.get(0));
            failures.stream().skip(1).forEach(all::addSuppressed);
            throw all;
        }
    }

    /** One call and its checks; a pure row also must leave the cursor where it was. */
    private static void check(World w, State state, Row row) throws Exception {
        Expect expect = row.expect().apply(state);
        String cell = state + " " + row.name() + ": expected it " + expect.what();
        boolean onCursor = row.signature().startsWith(P) && state.cursorOpen();
        long openBefore = w.cache.openCursors();
        int offsetBefore = onCursor ? w.cursor.getOffset() : 0;
        long pageBefore = onCursor ? w.cursor.getCurrentPageId() : 0;
        Object value = null;
        Throwable thrown = null;
        if (state.is(Trait.INTERRUPTED)) {
            Thread.currentThread().interrupt();
        }
        try {
            value = row.call().call(w);
        } catch (Throwable t) {
            thrown = t;
        } finally {
            if (state.is(Trait.INTERRUPTED)) {
                assertTrue(Thread.interrupted(), cell + "; the call cleared the caller's interrupt");
            }
        }
        if (value instanceof PageCursor c) {
            w.opened.add(c);
        }
        if (expect.thrown() != null) {
            if (thrown == null) {
                fail(cell + "; it returned " + value);
            }
            if (!expect.matches(thrown)) {
                throw new AssertionError(cell + "; it threw " + thrown, thrown);
            }
            if (!(row.signature().endsWith(".close()"))) {
                assertEquals(openBefore, w.cache.openCursors(), cell + "; the refused call left a cursor counted open");
            }
            if (onCursor && !row.args().startsWith("at offset")) {
                assertEquals(offsetBefore, w.cursor.getOffset(), cell + "; the refused call moved the cursor's offset");
            }
        } else {
            if (thrown != null) {
                throw new AssertionError(cell + "; it threw " + thrown, thrown);
            }
            if (!expect.value().test(value)) {
                fail(cell + "; it returned " + (value instanceof byte[] b ? Arrays.toString(b) : value));
            }
            if (expect.boundsFlag() != null) {
                assertEquals(expect.boundsFlag(), w.cursor.checkAndClearBoundsFlag(), cell + "; the bounds flag");
            }
        }
        if (expect.after() != null) {
            expect.after().check(w);
        }
        if (w.cache.isClosed()) {
            // A cursor still open may read its pinned page: the memory must outlive it, and no longer
            assertEquals(w.cache.openCursors() == 0, w.cache.isMemoryReleased(), cell + "; the page memory is freed"
                + " exactly when the closed cache has no cursor open (" + w.cache.openCursors() + " open)");
        }
        if (row.pure()) {
            assertEquals(openBefore, w.cache.openCursors(), cell + "; cursors open");
            if (onCursor) {
                w.cursor.checkAndClearBoundsFlag(); // raised by a refusal outside the page: the next call starts clean
                assertEquals(offsetBefore, w.cursor.getOffset(), cell + "; the cursor's offset");
                assertEquals(pageBefore, w.cursor.getCurrentPageId(), cell + "; the cursor's page");
            }
        }
    }

    // ---- the table covers the API ---------------------------------------------------------------

    private static String signature(Method m) {
        return m.getDeclaringClass().getSimpleName() + "." + m.getName() + "(" + Arrays.stream(m.getParameterTypes())
            .map(Class::getSimpleName).collect(Collectors.joining(",")) + ")";
    }

    private static String signature(Constructor<?> c) {
        return c.getDeclaringClass().getSimpleName() + ".<init>(" + Arrays.stream(c.getParameterTypes())
            .map(Class::getSimpleName).collect(Collectors.joining(",")) + ")";
    }

    /** A public method (or constructor) added to the API without a row here fails this: the matrix guards it too. */
    @Test
    void everyPublicMethodHasARow() throws Exception {
        Set<String> covered = new TreeSet<>();
        Stream.of(stateRows(PAGE), recordRows()).flatMap(List::stream).map(Row::signature).forEach(covered::add);
        for (Class<? extends Record> type : RECORDS) {
            for (RecordComponent component : type.getRecordComponents()) {
                covered.add(signature(component.getAccessor()));
            }
            covered.add(signature(type.getDeclaredConstructor(Arrays.stream(type.getRecordComponents())
                .map(RecordComponent::getType).toArray(Class<?>[]::new))));
        }
        Set<String> api = new TreeSet<>();
        for (Class<?> type : List.of(PageCache.class, PagedFile.class, PageCursor.class, PageCacheStats.class, IoStats.class,
                                     NvmCacheStats.class, CursorException.class)) {
            for (Method m : type.getDeclaredMethods()) {
                if (Modifier.isPublic(m.getModifiers()) && !m.isSynthetic() && !m.isBridge()) {
                    api.add(signature(m));
                }
            }
            for (Constructor<?> c : type.getConstructors()) {
                api.add(signature(c));
            }
        }
        Set<String> missing = new TreeSet<>(api);
        missing.removeAll(covered);
        assertEquals(Set.of(), missing, "public methods without a row in the matrix");
        Set<String> stale = new TreeSet<>(covered);
        stale.removeAll(api);
        assertEquals(Set.of(), stale, "rows for methods that are not public API (renamed or removed?)");
    }
}
