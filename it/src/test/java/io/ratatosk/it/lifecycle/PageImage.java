package io.ratatosk.it.lifecycle;

import io.ratatosk.pagecache.PageCursor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The content every written page carries, so that a page read under any concurrency can be judged on
 * its own: the file's tag, the page id, a version and a checksum, then a body derived from all three.
 * A page of another file, of another page id, a mix of two versions (torn) or an older version than
 * was acknowledged are all recognised. Version 0 is never written: an all-zero page is one that was
 * never written.
 */
final class PageImage {
    static final int TAG = 0;
    static final int PAGE_ID = 8;
    static final int VERSION = 16;
    static final int CHECKSUM = 24;
    static final int BODY = 32;
    /** The smallest page that holds the header and a body word. */
    static final int MIN_PAGE_SIZE = BODY + Long.BYTES;

    private PageImage() {
    }

    static long bodyWord(long tag, long pageId, long version, int index) {
        long h = tag * 0xD6E8FEB86659FD93L + pageId * 0x9E3779B97F4A7C15L + version * 0xC2B2AE3D27D4EB4FL + index;
        h ^= h >>> 31;
        h *= 0xBF58476D1CE4E5B9L;
        return h ^ (h >>> 29);
    }

    static int words(int pageSize) {
        return pageSize / Long.BYTES;
    }

    /**
     * How a page's body words go through the cursor: as longs, each in narrower pieces (ints, shorts, bytes, in the
     * platform's order, as the cursor's accessors are), or the whole body at once as bytes; or through the relative
     * accessors (every width, word by word, or the body at once as bytes) from one {@code setOffset} before the read
     * loop, so that each retried round
     * reads from where the offset was set, as {@code shouldRetry()} promises; the header is always longs, absolute.
     * Each width crosses the cursor's bounds checks and addressing under the races the longs do.
     */
    enum Access {
        LONGS, INTS, SHORTS, BYTES, BLOCK, RELATIVE, RELATIVE_BLOCK;

        /** The body at once, as bytes. */
        boolean block() {
            return this == BLOCK || this == RELATIVE_BLOCK;
        }

        private static final Access[] ALL = values();

        /** An access chosen by {@code n} (a version, a page id): varied without a draw of the random source. */
        static Access of(long n) {
            return ALL[(int) Math.floorMod(n, (long) ALL.length)];
        }
    }

    /** Writes version {@code version} of page {@code pageId} of the file tagged {@code tag} through a pinned write cursor. */
    static void write(PageCursor c, long tag, long pageId, long version) {
        write(c, tag, pageId, version, Access.LONGS);
    }

    /** As above, the body written through {@code access}. */
    static void write(PageCursor c, long tag, long pageId, long version, Access access) {
        int words = words(c.getCurrentPageSize());
        long sum = 0;
        ByteBuffer block = ByteBuffer.allocate(access.block() ? words * Long.BYTES - BODY : 0)
            .order(ByteOrder.nativeOrder());
        if (access == Access.RELATIVE) {
            c.setOffset(BODY);
        }
        for (int i = BODY / Long.BYTES; i < words; i++) {
            long w = bodyWord(tag, pageId, version, i);
            sum = sum * 31 + w;
            if (access.block()) {
                block.putLong(i * Long.BYTES - BODY, w);
            } else if (access == Access.RELATIVE) {
                putRelative(c, i, w);
            } else {
                putWord(c, i * Long.BYTES, w, access);
            }
        }
        if (access == Access.BLOCK) {
            c.putBytes(BODY, block.array(), 0, block.capacity());
        } else if (access == Access.RELATIVE_BLOCK) {
            c.setOffset(BODY);
            c.putBytes(block.array());
        }
        c.putLong(TAG, tag);
        c.putLong(PAGE_ID, pageId);
        c.putLong(VERSION, version);
        c.putLong(CHECKSUM, sum);
    }

    private static void putWord(PageCursor c, int offset, long w, Access access) {
        ByteBuffer b = ByteBuffer.allocate(Long.BYTES).order(ByteOrder.nativeOrder()).putLong(0, w);
        switch (access) {
            case INTS -> {
                c.putInt(offset, b.getInt(0));
                c.putInt(offset + Integer.BYTES, b.getInt(Integer.BYTES));
            }
            case SHORTS -> {
                for (int k = 0; k < Long.BYTES; k += Short.BYTES) {
                    c.putShort(offset + k, b.getShort(k));
                }
            }
            case BYTES -> {
                for (int k = 0; k < Long.BYTES; k++) {
                    c.putByte(offset + k, b.get(k));
                }
            }
            default -> c.putLong(offset, w);
        }
    }

    /** Word {@code i} at the cursor's offset, which it advances, through relative accessors of a width chosen by {@code i}. */
    private static void putRelative(PageCursor c, int i, long w) {
        ByteBuffer b = ByteBuffer.allocate(Long.BYTES).order(ByteOrder.nativeOrder()).putLong(0, w);
        switch (i & 3) {
            case 1 -> {
                c.putInt(b.getInt(0));
                c.putInt(b.getInt(Integer.BYTES));
            }
            case 2 -> {
                for (int k = 0; k < Long.BYTES; k += Short.BYTES) {
                    c.putShort(b.getShort(k));
                }
            }
            case 3 -> {
                for (int k = 0; k < Long.BYTES; k++) {
                    c.putByte(b.get(k));
                }
            }
            default -> c.putLong(w);
        }
    }

    /** As {@link #putRelative}, read. */
    private static long getRelative(PageCursor c, int i) {
        ByteBuffer b = ByteBuffer.allocate(Long.BYTES).order(ByteOrder.nativeOrder());
        switch (i & 3) {
            case 1 -> b.putInt(0, c.getInt()).putInt(Integer.BYTES, c.getInt());
            case 2 -> {
                for (int k = 0; k < Long.BYTES; k += Short.BYTES) {
                    b.putShort(k, c.getShort());
                }
            }
            case 3 -> {
                for (int k = 0; k < Long.BYTES; k++) {
                    b.put(k, c.getByte());
                }
            }
            default -> {
                return c.getLong();
            }
        }
        return b.getLong(0);
    }

    private static long getWord(PageCursor c, int offset, Access access) {
        ByteBuffer b = ByteBuffer.allocate(Long.BYTES).order(ByteOrder.nativeOrder());
        switch (access) {
            case INTS -> b.putInt(0, c.getInt(offset)).putInt(Integer.BYTES, c.getInt(offset + Integer.BYTES));
            case SHORTS -> {
                for (int k = 0; k < Long.BYTES; k += Short.BYTES) {
                    b.putShort(k, c.getShort(offset + k));
                }
            }
            case BYTES -> {
                for (int k = 0; k < Long.BYTES; k++) {
                    b.put(k, c.getByte(offset + k));
                }
            }
            default -> {
                return c.getLong(offset);
            }
        }
        return b.getLong(0);
    }

    /** Copies the page under a read cursor into {@code into} with the optimistic-read protocol. */
    static void readValidated(PageCursor c, long[] into, Runnable betweenWords) throws IOException {
        readValidated(c, into, betweenWords, Access.LONGS);
    }

    /** As above, the body read through {@code access}. */
    static void readValidated(PageCursor c, long[] into, Runnable betweenWords, Access access) throws IOException {
        int header = BODY / Long.BYTES;
        byte[] block = new byte[access.block() ? Math.max(0, into.length - header) * Long.BYTES : 0];
        if (access == Access.RELATIVE || access == Access.RELATIVE_BLOCK) {
            c.setOffset(BODY); // once: a retried round starts here again
        }
        do {
            for (int i = 0; i < (access.block() ? header : into.length); i++) {
                into[i] = i < header ? c.getLong(i * Long.BYTES)
                    : access == Access.RELATIVE ? getRelative(c, i) : getWord(c, i * Long.BYTES, access);
                if (betweenWords != null && (i & 127) == 0) {
                    betweenWords.run();
                }
            }
            if (access.block()) {
                Arrays.fill(block, (byte) 0); // out of bounds, getBytes copies nothing: not the last round's bytes either
                if (access == Access.RELATIVE_BLOCK) {
                    c.getBytes(block);
                } else {
                    c.getBytes(BODY, block, 0, block.length);
                }
                ByteBuffer b = ByteBuffer.wrap(block).order(ByteOrder.nativeOrder());
                for (int i = header; i < into.length; i++) {
                    into[i] = b.getLong(i * Long.BYTES - BODY);
                }
            }
        } while (c.shouldRetry());
    }

    /** Copies the page under a cursor that holds it locked (a write cursor): no retry needed. */
    static void readPinned(PageCursor c, long[] into) {
        for (int i = 0; i < into.length; i++) {
            into[i] = c.getLong(i * Long.BYTES);
        }
    }

    /** The bytes of a page image, in the order the cursor's accessors use (the platform's). */
    static byte[] bytes(long[] words) {
        ByteBuffer b = ByteBuffer.allocate(words.length * Long.BYTES).order(ByteOrder.nativeOrder());
        for (long w : words) {
            b.putLong(w);
        }
        return b.array();
    }

    /** Reads the page image from a file's bytes (little or native order as the cache wrote them). */
    static void fromBytes(ByteBuffer bytes, long[] into) {
        ByteBuffer b = bytes.duplicate().order(ByteOrder.nativeOrder());
        b.position(0);
        for (int i = 0; i < into.length; i++) {
            into[i] = b.getLong(i * Long.BYTES);
        }
    }

    /**
     * The version the page holds: 0 if all zero (never written); throws {@link DamagedPage} describing what
     * is wrong if it is not a consistent image of page {@code pageId} of the file tagged {@code tag}.
     */
    static long versionOf(long[] page, long tag, long pageId) {
        boolean zero = true;
        for (long w : page) {
            if (w != 0) {
                zero = false;
                break;
            }
        }
        if (zero) {
            return 0;
        }
        if (page[TAG / 8] != tag) {
            throw new DamagedPage("holds a page of another file: tag " + Long.toHexString(page[TAG / 8]) + " (page id "
                + page[PAGE_ID / 8] + ", version " + page[VERSION / 8] + "), expected tag " + Long.toHexString(tag));
        }
        if (page[PAGE_ID / 8] != pageId) {
            throw new DamagedPage("holds the content of page " + page[PAGE_ID / 8] + " (version " + page[VERSION / 8] + ")");
        }
        long version = page[VERSION / 8];
        if (version <= 0) {
            throw new DamagedPage("has version " + version + ", which is never written");
        }
        long sum = 0;
        for (int i = BODY / Long.BYTES; i < page.length; i++) {
            long expected = bodyWord(tag, pageId, version, i);
            if (page[i] != expected) {
                throw new DamagedPage("is torn: version " + version + " in the header, but body word " + i + " is "
                    + Long.toHexString(page[i]) + " instead of " + Long.toHexString(expected));
            }
            sum = sum * 31 + expected;
        }
        if (page[CHECKSUM / 8] != sum) {
            throw new DamagedPage("has a checksum that does not match its body (version " + version + ")");
        }
        return version;
    }

    /** A page image that is not a consistent image of the page expected. */
    static final class DamagedPage extends RuntimeException {
        private static final long serialVersionUID = 1L;

        DamagedPage(String message) {
            super(message);
        }
    }
}
