package io.ratatosk.it.lifecycle;

import io.ratatosk.pagecache.PageCursor;
import io.ratatosk.pagecache.PagedFile;
import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A worker's calls that the cache must refuse and survive: calls on closed cursors (IllegalStateException) and
 * arguments no file or cursor takes (IllegalArgumentException naming the bad value). {@link Worker} draws them; they
 * draw from its random source, in the order they always did.
 */
final class MisuseChecks {
    /** Page ids no page can have: negative, past the 48 bits of a page id, or whose byte offset overflows. */
    private static final long[] INVALID_IDS = {-1, Long.MIN_VALUE, 1L << 48, (1L << 48) + 7, Long.MAX_VALUE, Long.MAX_VALUE / 1024 + 1};
    /** Cursor flags io() refuses: no lock, both locks, a bit no flag has. */
    private static final int[] BAD_FLAGS = {0, PagedFile.PF_SHARED_READ_LOCK | PagedFile.PF_SHARED_WRITE_LOCK,
        PagedFile.PF_NO_GROW, PagedFile.PF_READ_AHEAD, PagedFile.PF_SHARED_READ_LOCK | 1 << 9, PagedFile.PF_SHARED_WRITE_LOCK | 1 << 30};
    /** The calls {@link #expectRefusedAfterClose} tries on a closed cursor, by the number it draws. */
    private static final String[] CLOSED_CURSOR_CALLS = {"next()", "next(0)", "shouldRetry()", "getLong(0)", "getLong()",
        "putLong(0, -1)", "getBytes(0, 8 bytes)", "putBytes(0, 8 bytes)", "fill(0, 8)", "getCurrentPageId()", "getOffset()",
        "setOffset(8)", "openLinkedCursor(0)", "copyTo(0, itself, 8, 8)", "checkAndClearBoundsFlag()",
        "checkAndClearCursorException()", "setCursorException()", "faultsWaitedFor()", "getCurrentPageSize()"};

    private final Worker worker;
    private final Scenario sc;
    private final SplittableRandom rnd;
    private final StringBuilder trace;

    MisuseChecks(Worker worker) {
        this.worker = worker;
        this.sc = worker.sc;
        this.rnd = worker.rnd;
        this.trace = worker.trace;
    }

    /**
     * A cursor (read or write, moved or not, with a link or without) closed, and closed again, which must do nothing;
     * then calls on it and on its link: each must throw IllegalStateException, never read, write or return a value.
     */
    void cursorMisuse() throws IOException {
        FileModel f = worker.randomFile();
        Ref ref = worker.ensureRef(f);
        boolean write = rnd.nextBoolean();
        long id = write ? worker.ownPage(f) : rnd.nextInt(f.pages);
        trace.append(ref).append(write ? " write" : " read").append(" io(").append(id).append(") ");
        PageCursor c = ref.pf().io(id, write ? PagedFile.PF_SHARED_WRITE_LOCK : PagedFile.PF_SHARED_READ_LOCK);
        PageCursor link = null;
        PendingWrite pending = new PendingWrite(f);
        try {
            if (rnd.nextBoolean()) {
                link = c.openLinkedCursor(write ? worker.ownPage(f) : rnd.nextInt(f.pages));
                trace.append("linked ");
            }
            if (rnd.nextBoolean()) {
                boolean moved = c.next();
                trace.append("next()=").append(moved).append(' ');
                if (write) {
                    if (!moved) {
                        throw worker.fail("write cursor next() to " + id + " on " + ref + " returned false", null);
                    }
                    worker.checkMappedWhilePinned(ref, id);
                    worker.writeIfOwn(c, f, id, pending);
                }
            }
            if (rnd.nextInt(4) == 0) {
                // closed on two threads at once (a cursor shared by mistake, or the parent here and its link there): one
                // close releases the page and uncounts the cursor, the other does nothing (the scenario's end checks that
                // no cache counts a cursor open: one uncounted twice would let a closed cache free memory under another)
                closeOnTwoThreads(c, link != null && rnd.nextBoolean() ? link : c);
            } else {
                worker.closeCursor(c);
            }
            pending.ack();
            worker.closeCursor(c); // a second close does nothing
            expectRefusedAfterClose(c, "a closed " + (write ? "write" : "read") + " cursor");
            if (link != null) {
                expectRefusedAfterClose(link, "a linked cursor closed with its parent");
            }
        } finally {
            worker.closeCursor(c);
            pending.ack();
        }
    }

    /**
     * Closes {@code mine} on this thread while another thread closes {@code theirs} (the same cursor, or its link) at the
     * same moment: both closes return normally, and neither waits for the other.
     */
    private void closeOnTwoThreads(PageCursor mine, PageCursor theirs) {
        trace.append(mine == theirs ? "closed on two threads at once " : "closed here, its link on another thread at once ");
        CountDownLatch start = new CountDownLatch(2);
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread other = new Thread(() -> {
            try {
                start.countDown();
                start.await();
                theirs.close();
            } catch (Throwable e) {
                failed.set(e);
            }
        }, Thread.currentThread().getName() + "-closer");
        other.setDaemon(true);
        other.start();
        start.countDown();
        try {
            start.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        worker.closeCursor(mine);
        // As long as any operation may take (the watchdog's bound, raised for a slow machine with ratatosk.op_timeout): the
        // other close takes microseconds, but on a loaded 2-core machine its thread may wait that long for a core
        Duration bound = sc.settings.opTimeout();
        try {
            other.join(bound.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (other.isAlive()) {
            throw worker.fail("PageCursor.close() on another thread, at the same time as this thread's close, has not returned"
                + " after " + bound.toSeconds() + " s", null);
        }
        if (failed.get() != null) {
            throw worker.fail("PageCursor.close() on another thread, at the same time as this thread's close, threw " + failed.get(),
                failed.get());
        }
        sc.cursorsClosedOnTwoThreads.incrementAndGet();
    }

    /** One to three calls on the closed cursor {@code c}, drawn from every method but close: each must throw IllegalStateException. */
    void expectRefusedAfterClose(PageCursor c, String what) {
        for (int n = 1 + rnd.nextInt(3); n > 0; n--) {
            int kind = rnd.nextInt(19);
            String name = CLOSED_CURSOR_CALLS[kind];
            Object result;
            try {
                result = switch (kind) {
                    case 0 -> c.next();
                    case 1 -> c.next(0);
                    case 2 -> c.shouldRetry();
                    case 3 -> c.getLong(0);
                    case 4 -> c.getLong();
                    case 5 -> {
                        c.putLong(0, -1L);
                        yield "returned";
                    }
                    case 6 -> {
                        byte[] into = new byte[8];
                        c.getBytes(0, into, 0, into.length);
                        yield Arrays.toString(into);
                    }
                    case 7 -> {
                        c.putBytes(0, new byte[] {1, 2, 3, 4, 5, 6, 7, 8}, 0, 8);
                        yield "returned";
                    }
                    case 8 -> {
                        c.fill(0, 8, (byte) 7);
                        yield "returned";
                    }
                    case 9 -> c.getCurrentPageId();
                    case 10 -> c.getOffset();
                    case 11 -> {
                        c.setOffset(8);
                        yield "returned";
                    }
                    case 12 -> {
                        PageCursor opened = c.openLinkedCursor(0);
                        opened.close();
                        yield "a linked cursor";
                    }
                    case 13 -> c.copyTo(0, c, 8, 8);
                    case 14 -> c.checkAndClearBoundsFlag();
                    case 15 -> {
                        c.checkAndClearCursorException();
                        yield "returned";
                    }
                    case 16 -> {
                        c.setCursorException("misuse");
                        yield "returned";
                    }
                    case 17 -> c.faultsWaitedFor();
                    default -> c.getCurrentPageSize();
                };
            } catch (IllegalStateException expected) {
                trace.append(name).append("=ISE ");
                sc.closedCursorRefusals.incrementAndGet();
                continue;
            } catch (Throwable e) {
                throw worker.fail(name + " on " + what + " threw " + e + " instead of IllegalStateException", e);
            }
            throw worker.fail(name + " on " + what + " returned " + result + " instead of throwing IllegalStateException", null);
        }
    }


    /**
     * A call with an argument no file or cursor takes: bad cursor flags, a negative truncate or touch count, a file page
     * size the cache cannot hold, a linked cursor's page id no file can have. Each must throw IllegalArgumentException
     * naming the bad value, and change nothing (the model then holds as it was).
     */
    void badInput() throws IOException {
        FileModel f = worker.randomFile();
        Ref ref = worker.ensureRef(f);
        int kind = rnd.nextInt(6);
        long bad = switch (kind) {
            case 0 -> BAD_FLAGS[rnd.nextInt(BAD_FLAGS.length)];
            case 1, 2 -> -1 - rnd.nextInt(1000);
            // above the cache's page size, not the files' (frames may be larger than 4 KiB)
            case 3 -> rnd.nextBoolean() ? -rnd.nextInt(5) : sc.config.cachePageSize() + 1 + rnd.nextInt(sc.config.cachePageSize());
            default -> INVALID_IDS[rnd.nextInt(INVALID_IDS.length)];
        };
        String call = switch (kind) {
            case 0 -> "io(0, flags " + bad + ")";
            case 1 -> "truncate(" + bad + ")";
            case 2 -> "touch(0, " + bad + ")";
            case 3 -> "map(" + f.name + ", page size " + bad + ")";
            case 4 -> "openLinkedCursor(" + bad + ") of a read cursor";
            default -> "openLinkedCursor(" + bad + ") of a write cursor";
        };
        trace.append(ref).append(' ').append(call).append("=IAE? ");
        Object result;
        try {
            result = switch (kind) {
                case 0 -> ref.pf().io(0, (int) bad);
                case 1 -> {
                    ref.pf().truncate(bad);
                    yield "returned";
                }
                case 2 -> ref.pf().touch(0, (int) bad);
                case 3 -> ref.gen().cache.map(f.spellings.get(0), (int) bad);
                default -> {
                    try (PageCursor c = ref.pf().io(0, kind == 4 ? PagedFile.PF_SHARED_READ_LOCK : PagedFile.PF_SHARED_WRITE_LOCK)) {
                        yield c.openLinkedCursor(bad);
                    }
                }
            };
        } catch (IllegalArgumentException e) {
            if (!String.valueOf(e.getMessage()).contains(Long.toString(bad))) {
                throw worker.fail(call + " on " + ref + " was refused without naming the bad value " + bad + ": " + e.getMessage(), e);
            }
            sc.badInputsRefused.incrementAndGet();
            return;
        }
        if (result instanceof PageCursor c) {
            c.close();
        } else if (result instanceof PagedFile pf) {
            pf.close();
        }
        throw worker.fail(call + " on " + ref + " returned " + result + " instead of throwing IllegalArgumentException", null);
    }


    /**
     * A write through the write cursor {@code c}, which holds page {@code id} of {@code ref}, that reaches out of the page:
     * a put of every width, absolute or relative, a {@code putBytes} or a {@code fill} straddling the page's end, or at a
     * negative offset. It must write nothing, not even the part inside the page, and raise the bounds flag; the page then
     * holds what it held, byte for byte. Only for a page this thread owns: write locks are shared, and the page's
     * owner may write it meanwhile through its own cursor. Draws from {@code r}.
     */
    void outOfBoundsWrite(PageCursor c, Ref ref, long id, SplittableRandom r) {
        int pageSize = ref.file().pageSize;
        long[] before = new long[PageImage.words(pageSize)];
        PageImage.readPinned(c, before);
        c.checkAndClearBoundsFlag(); // whatever came before
        int kind = r.nextInt(7);
        int size = switch (kind) {
            case 0, 4 -> Long.BYTES;
            case 1 -> Integer.BYTES;
            case 2 -> Short.BYTES;
            default -> 2 + r.nextInt(64); // putBytes, fill
        };
        // straddling the end by 1 to size - 1 bytes (past it for a byte), or negative
        int offset = r.nextInt(4) == 0 ? -1 - r.nextInt(size) : pageSize - size + 1 + r.nextInt(Math.max(1, size - 1));
        byte value = (byte) 0xA5;
        String call = switch (kind) {
            case 0 -> "putLong(" + offset + ")";
            case 1 -> "putInt(" + offset + ")";
            case 2 -> "putShort(" + offset + ")";
            case 3 -> "putBytes(" + offset + ", " + size + " bytes)";
            case 4 -> "setOffset(" + offset + ") putLong()";
            default -> "fill(" + offset + ", " + size + ")";
        };
        trace.append(call).append(" out of bounds ");
        switch (kind) {
            case 0 -> c.putLong(offset, -1L);
            case 1 -> c.putInt(offset, -1);
            case 2 -> c.putShort(offset, (short) -1);
            case 3 -> {
                byte[] src = new byte[size];
                Arrays.fill(src, value);
                c.putBytes(offset, src, 0, size);
            }
            case 4 -> {
                c.setOffset(offset);
                c.putLong(-1L);
            }
            default -> c.fill(offset, size, value);
        }
        if (!c.checkAndClearBoundsFlag()) {
            throw worker.fail(call + " through a write cursor on page " + id + " of " + ref + " (pages of " + pageSize
                + " bytes) reached out of the page, but did not raise the bounds flag", null);
        }
        long[] after = new long[before.length];
        PageImage.readPinned(c, after);
        for (int i = 0; i < before.length; i++) {
            if (after[i] != before[i]) {
                throw worker.fail(call + " through a write cursor on page " + id + " of " + ref + " reached out of the page"
                    + " and changed word " + i + " of it from " + Long.toHexString(before[i]) + " to "
                    + Long.toHexString(after[i]) + ": an access outside the page writes nothing", null);
            }
        }
    }

    /**
     * Relative reads through the write cursor {@code c} on page {@code id} of {@code ref} from a {@code setOffset} outside
     * the page (negative, at or past its end, or near Integer.MAX_VALUE, where offset + width overflows): setOffset takes
     * any value, and every read from it must be out of bounds as its absolute form: 0 (getBytes copying nothing), the
     * bounds flag raised, the offset still advancing by the width. Draws from {@code r}.
     */
    void outOfPageRelativeReads(PageCursor c, Ref ref, long id, SplittableRandom r) {
        int pageSize = ref.file().pageSize;
        c.checkAndClearBoundsFlag(); // whatever came before
        int start = switch (r.nextInt(4)) {
            case 0 -> -97 - r.nextInt(pageSize); // below -(6 reads of up to 16 bytes): never reaching 0
            case 1 -> pageSize + r.nextInt(pageSize);
            case 2 -> Integer.MAX_VALUE - r.nextInt(8);
            default -> Integer.MIN_VALUE + r.nextInt(8);
        };
        trace.append("setOffset(").append(start).append(") relative reads out of bounds ");
        c.setOffset(start);
        int expected = start;
        for (int i = 0, reads = 1 + r.nextInt(6); i < reads; i++) {
            int kind = r.nextInt(5);
            int width = kind == 4 ? 1 + r.nextInt(16) : 1 << (3 - kind);
            long got;
            String call;
            switch (kind) {
                case 0 -> { got = c.getLong(); call = "getLong()"; }
                case 1 -> { got = c.getInt(); call = "getInt()"; }
                case 2 -> { got = c.getShort(); call = "getShort()"; }
                case 3 -> { got = c.getByte(); call = "getByte()"; }
                default -> {
                    byte[] dst = new byte[width];
                    Arrays.fill(dst, (byte) 0x5A);
                    c.getBytes(dst);
                    got = 0;
                    for (byte b : dst) {
                        got |= b != 0x5A ? 1 : 0;
                    }
                    call = "getBytes(" + width + " bytes)";
                }
            }
            String where = call + " at offset " + expected + " (after setOffset(" + start + ")) through a write cursor on page "
                + id + " of " + ref + " (pages of " + pageSize + " bytes)";
            if (got != 0) {
                throw worker.fail(where + " read out of the page: returned (or copied) something, not nothing", null);
            }
            if (!c.checkAndClearBoundsFlag()) {
                throw worker.fail(where + " is out of the page but did not raise the bounds flag", null);
            }
            expected += width;
            if (c.getOffset() != expected) {
                throw worker.fail(where + " left the offset at " + c.getOffset() + ", not " + expected
                    + ": a relative read advances it by its width, in bounds or not", null);
            }
        }
    }

    /** {@code next(invalid id)} must throw IllegalArgumentException; so must {@code io(invalid id)}. */
    void invalidId(PageCursor c, Ref ref) throws IOException {
        long id = INVALID_IDS[rnd.nextInt(INVALID_IDS.length)];
        boolean onIo = rnd.nextInt(4) == 0;
        trace.append(onIo ? "io(" : "next(").append(id).append(")=IAE? ");
        try {
            if (onIo) {
                PageCursor other = ref.pf().io(id, PagedFile.PF_SHARED_READ_LOCK);
                other.close();
                throw worker.fail("io(" + id + ") on " + ref + " returned a cursor instead of throwing IllegalArgumentException", null);
            }
            boolean r = c.next(id);
            throw worker.fail("next(" + id + ") on " + ref + " returned " + r + " instead of throwing IllegalArgumentException", null);
        } catch (IllegalArgumentException expected) {
            // refused before anything was allocated
        }
    }

}
