package io.ratatosk.pagecache.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.agrona.UnsafeAccess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import sun.misc.Unsafe;

/** Both ways of moving pages (straight into page memory, and through a scratch copy) move the same bytes. */
class FileSwapperTest {
    private static final Unsafe UNSAFE = UnsafeAccess.UNSAFE;
    private static final int PAGE = 4096;

    @TempDir
    Path dir;
    /** Two pages of "frame" memory with a guard page after them, to catch a transfer that runs over. */
    private long frames;

    @BeforeEach
    void allocate() {
        frames = UNSAFE.allocateMemory(3L * PAGE);
        UNSAFE.setMemory(frames, 3L * PAGE, (byte) 0x5A);
    }

    @AfterEach
    void free() {
        UNSAFE.freeMemory(frames);
    }

    @Test
    void zeroCopyIoWorksOnThisJdk() {
        // Every JDK the project supports (17 and newer) lays java.nio.Buffer out as PageIoBuffer expects;
        // if a new one does not, the copying fallback keeps the cache correct, and this says so.
        assertTrue(PageIoBuffer.DIRECT_AVAILABLE, "zero-copy page IO unavailable: " + PageIoBuffer.DIRECT_UNAVAILABLE_REASON);
        assertNull(PageIoBuffer.DIRECT_UNAVAILABLE_REASON);
    }

    @ParameterizedTest(name = "zeroCopy={0}")
    @ValueSource(booleans = {true, false})
    void writesThenReadsBackEveryByteWithoutTouchingNeighbours(boolean zeroCopy) throws IOException {
        Path path = dir.resolve("pages.db");
        byte[] page0 = pattern(0);
        byte[] page1 = pattern(1);
        try (FileSwapper swapper = new FileSwapper(path, PAGE, true, zeroCopy)) {
            put(frames, page0);
            put(frames + PAGE, page1);
            swapper.write(1, frames + PAGE);
            swapper.write(0, frames);
            assertEquals(2, swapper.pageCount());

            UNSAFE.setMemory(frames, 2L * PAGE, (byte) 0);
            assertEquals(PAGE, swapper.read(1, frames));
            assertEquals(PAGE, swapper.read(0, frames + PAGE));
        }
        assertArrayEquals(page1, get(frames, PAGE), "page 1 read into frame 0");
        assertArrayEquals(page0, get(frames + PAGE, PAGE), "page 0 read into frame 1");
        assertEquals((byte) 0x5A, UNSAFE.getByte(frames + 2L * PAGE), "the byte after the frames was overwritten");
        byte[] onDisk = Files.readAllBytes(path);
        assertArrayEquals(page0, Arrays.copyOfRange(onDisk, 0, PAGE));
        assertArrayEquals(page1, Arrays.copyOfRange(onDisk, PAGE, 2 * PAGE));
    }

    @ParameterizedTest(name = "zeroCopy={0}")
    @ValueSource(booleans = {true, false})
    void aShortLastPageIsZeroFilledAndAPagePastTheEndIsAllZeros(boolean zeroCopy) throws IOException {
        Path path = dir.resolve("short.db");
        byte[] head = Arrays.copyOf(pattern(7), PAGE + 100);
        Files.write(path, head);
        try (FileSwapper swapper = new FileSwapper(path, PAGE, false, zeroCopy)) {
            assertEquals(100, swapper.read(1, frames));
            assertEquals(0, swapper.read(5, frames + PAGE));
        }
        byte[] expected = new byte[PAGE];
        System.arraycopy(head, PAGE, expected, 0, 100);
        assertArrayEquals(expected, get(frames, PAGE));
        assertArrayEquals(new byte[PAGE], get(frames + PAGE, PAGE));
        assertEquals((byte) 0x5A, UNSAFE.getByte(frames + 2L * PAGE));
    }

    @ParameterizedTest(name = "zeroCopy={0}")
    @ValueSource(booleans = {true, false})
    void aChannelThatMovesFewerBytesPerCallStillMovesWholePages(boolean zeroCopy) throws IOException {
        // Every transfer of a wrapped channel moves only part of what it is asked to: FileSwapper loops,
        // and page memory handed to the wrapper (zero-copy) reaches the real channel intact.
        FaultyFileChannel.Faults shortTransfers = new FaultyFileChannel.Faults(3);
        shortTransfers.shortTransfer = 1;
        shortTransfers.enabled = true;
        Path path = dir.resolve("short-transfers.db");
        byte[] page0 = pattern(0);
        byte[] page1 = pattern(1);
        FileChannelOpener opener = FaultyFileChannel.opener(FileChannelOpener.uninterruptible(), shortTransfers);
        try (FileSwapper swapper = new FileSwapper(path, PAGE, true, zeroCopy, opener)) {
            put(frames, page0);
            put(frames + PAGE, page1);
            swapper.write(0, frames);
            swapper.write(1, frames + PAGE);
            UNSAFE.setMemory(frames, 2L * PAGE, (byte) 0);
            assertEquals(PAGE, swapper.read(1, frames));
            assertEquals(PAGE, swapper.read(0, frames + PAGE));
        }
        assertTrue(shortTransfers.shortTransfers.get() >= 4, shortTransfers.toString());
        assertArrayEquals(page1, get(frames, PAGE));
        assertArrayEquals(page0, get(frames + PAGE, PAGE));
        assertEquals((byte) 0x5A, UNSAFE.getByte(frames + 2L * PAGE));
        byte[] onDisk = Files.readAllBytes(path);
        assertArrayEquals(page0, Arrays.copyOfRange(onDisk, 0, PAGE));
        assertArrayEquals(page1, Arrays.copyOfRange(onDisk, PAGE, 2 * PAGE));
    }

    private static byte[] pattern(int seed) {
        byte[] b = new byte[PAGE];
        for (int i = 0; i < PAGE; i++) {
            b[i] = (byte) (i * 31 + seed * 7 + 1);
        }
        return b;
    }

    private static void put(long address, byte[] bytes) {
        UNSAFE.copyMemory(bytes, Unsafe.ARRAY_BYTE_BASE_OFFSET, null, address, bytes.length);
    }

    private static byte[] get(long address, int length) {
        byte[] b = new byte[length];
        UNSAFE.copyMemory(null, address, b, Unsafe.ARRAY_BYTE_BASE_OFFSET, length);
        return b;
    }

    /**
     * A page size of 0 or less is refused naming it and the file, before the file is opened or created: 0 was taken, and
     * the first pageCount() (every map's) failed with "ArithmeticException: / by zero"; a negative one reached the page
     * buffers. The page cache checks its own maps, but the factory is public, and a tier or tool calls it directly.
     */
    @Test
    void aPageSizeOfZeroOrLessIsRefusedNamingItAndTheFile() {
        for (int pageSize : new int[] {0, -4096}) {
            Path file = dir.resolve("bad-" + (pageSize == 0 ? "zero" : "negative") + ".db");
            IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new FileSwapperFactory().create(file, 0, pageSize, true));
            assertTrue(e.getMessage().contains("filePageSize=" + pageSize) && e.getMessage().contains(file.toString()),
                e.getMessage());
            assertTrue(!Files.exists(file), "nothing created");
        }
    }
}
