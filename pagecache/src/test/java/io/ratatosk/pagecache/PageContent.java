package io.ratatosk.pagecache;

/**
 * The test pattern every stress test writes: a page holds its own page id, a version, and a body
 * derived from both, so a torn page (parts of two versions), a misplaced page (another page's
 * content) and a lost write (an older version than was written) are all detectable.
 */
public final class PageContent {
    public static final int PAGE_ID_OFFSET = 0;
    public static final int VERSION_OFFSET = 8;
    public static final int BODY_OFFSET = 16;

    private PageContent() {
    }

    public static long word(long pageId, long version, int index) {
        long h = pageId * 0x9E3779B97F4A7C15L + version * 0xC2B2AE3D27D4EB4FL + index;
        h ^= h >>> 31;
        h *= 0xBF58476D1CE4E5B9L;
        return h ^ (h >>> 29);
    }

    /** Writes version {@code version} of page {@code pageId} through a write cursor on that page. */
    public static void write(PageCursor c, long pageId, long version) {
        c.putLong(PAGE_ID_OFFSET, pageId);
        c.putLong(VERSION_OFFSET, version);
        int words = (c.getCurrentPageSize() - BODY_OFFSET) / Long.BYTES;
        for (int i = 0; i < words; i++) {
            c.putLong(BODY_OFFSET + i * Long.BYTES, word(pageId, version, i));
        }
    }

    /**
     * Reads the page under the cursor and returns its version, or -1 if the page is all zeros (never
     * written); throws AssertionError describing the damage if the content is inconsistent. For a read
     * cursor, call only with data that {@code shouldRetry()} has validated, i.e. use {@link #readValidated}.
     */
    public static long check(long expectedPageId, long pageIdRead, long version, long[] body) {
        if (pageIdRead == 0 && version == 0 && allZero(body)) {
            return -1;
        }
        if (pageIdRead != expectedPageId) {
            throw new AssertionError("page " + expectedPageId + " holds the content of page " + pageIdRead);
        }
        for (int i = 0; i < body.length; i++) {
            if (body[i] != word(expectedPageId, version, i)) {
                throw new AssertionError("page " + expectedPageId + " version " + version + " is torn at word " + i);
            }
        }
        return version;
    }

    private static boolean allZero(long[] body) {
        for (long w : body) {
            if (w != 0) {
                return false;
            }
        }
        return true;
    }

    /** Reads the page under a read cursor with the optimistic-read protocol and checks it. */
    public static long readValidated(PageCursor c, long pageId, long[] body) throws java.io.IOException {
        long id;
        long version;
        do {
            id = c.getLong(PAGE_ID_OFFSET);
            version = c.getLong(VERSION_OFFSET);
            for (int i = 0; i < body.length; i++) {
                body[i] = c.getLong(BODY_OFFSET + i * Long.BYTES);
            }
        } while (c.shouldRetry());
        if (c.checkAndClearBoundsFlag()) {
            throw new AssertionError("bounds flag raised reading page " + pageId);
        }
        return check(pageId, id, version, body);
    }

    public static int bodyWords(int pageSize) {
        return (pageSize - BODY_OFFSET) / Long.BYTES;
    }
}
