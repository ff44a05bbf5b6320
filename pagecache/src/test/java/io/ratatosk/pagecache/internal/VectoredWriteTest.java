package io.ratatosk.pagecache.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.nio.file.ExtendedOpenOption;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import org.agrona.UnsafeAccess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import sun.misc.Unsafe;

/**
 * FileSwapper's vectored write puts each page where its id says, from scattered page addresses, also
 * when the channel moves fewer bytes per call, and with direct IO from addresses that are not aligned.
 */
class VectoredWriteTest {
    private static final Unsafe UNSAFE = UnsafeAccess.UNSAFE;
    private static final int PAGE = 4096;
    private static final int PAGES = 9;

    @TempDir
    Path dir;
    /** Room for PAGES pages spread out (every other page slot), plus a spare page for misalignment. */
    private long memory;

    @BeforeEach
    void allocate() {
        memory = UNSAFE.allocateMemory((2L * PAGES + 2) * PAGE);
    }

    @AfterEach
    void free() {
        UNSAFE.freeMemory(memory);
    }

    /** PAGES page addresses, every other page slot from {@code base}, each filled with its pattern. */
    private long[] scatteredPages(long base) {
        long[] addresses = new long[PAGES];
        for (int i = 0; i < PAGES; i++) {
            addresses[i] = base + 2L * i * PAGE;
            byte[] bytes = pattern(i);
            UNSAFE.copyMemory(bytes, Unsafe.ARRAY_BYTE_BASE_OFFSET, null, addresses[i], PAGE);
        }
        return addresses;
    }

    private static byte[] pattern(int page) {
        byte[] b = new byte[PAGE];
        for (int i = 0; i < PAGE; i++) {
            b[i] = (byte) (i * 13 + page * 29 + 3);
        }
        return b;
    }

    private static void assertPagesAt(Path path, long firstPage) throws IOException {
        byte[] onDisk = Files.readAllBytes(path);
        assertEquals((firstPage + PAGES) * PAGE, onDisk.length);
        for (int i = 0; i < PAGES; i++) {
            long at = (firstPage + i) * PAGE;
            assertArrayEquals(pattern(i), Arrays.copyOfRange(onDisk, (int) at, (int) at + PAGE), "page " + (firstPage + i));
        }
    }

    @ParameterizedTest(name = "zeroCopy={0}")
    @ValueSource(booleans = {true, false})
    void aRunFromScatteredFramesLandsPageByPage(boolean zeroCopy) throws IOException {
        Path path = dir.resolve("run.db");
        long[] addresses = scatteredPages((memory + PAGE - 1) & -PAGE);
        try (FileSwapper swapper = new FileSwapper(path, PAGE, true, zeroCopy)) {
            swapper.write(3, addresses, PAGES);
        }
        assertPagesAt(path, 3);
    }

    @Test
    void shortGatheringWritesGoOnWhereTheyStopped() throws IOException {
        FaultyFileChannel.Faults faults = new FaultyFileChannel.Faults(11);
        faults.shortTransfer = 0.7;
        faults.enabled = true;
        Path path = dir.resolve("short.db");
        long[] addresses = scatteredPages((memory + PAGE - 1) & -PAGE);
        FileChannelOpener opener = FaultyFileChannel.opener(FileChannelOpener.uninterruptible(), faults);
        try (FileSwapper swapper = new FileSwapper(path, PAGE, true, true, opener)) {
            for (int round = 0; round < 5; round++) {
                swapper.write(0, addresses, PAGES);
            }
        }
        assertTrue(faults.shortTransfers.get() > 0, faults.toString());
        assertPagesAt(path, 0);
    }

    @Test
    void directIoWritesARunFromAddressesThatAreNotAligned() throws IOException {
        Path probe = Files.createFile(dir.resolve("probe"));
        int block;
        try (FileChannel ignored = FileChannel.open(probe, StandardOpenOption.READ, ExtendedOpenOption.DIRECT)) {
            block = (int) Files.getFileStore(probe).getBlockSize();
        } catch (IOException | UnsupportedOperationException e) {
            assumeTrue(false, "the file system of " + dir + " refuses O_DIRECT: " + e);
            return;
        }
        assumeTrue(block <= PAGE, "block size " + block + " above the page size");
        Path path = dir.resolve("direct.db");
        Files.createFile(path);
        long[] addresses = scatteredPages(((memory + PAGE - 1) & -PAGE) + 24); // like the NVM tier's slots: not aligned
        try (FileSwapper swapper = FileSwapper.direct(path, PAGE, false, DirectIo.opener(), DirectIo.alignment(path, PAGE))) {
            swapper.write(1, addresses, PAGES);
            long readInto = ((memory + PAGE - 1) & -PAGE) + 8;
            assertEquals(PAGE, swapper.read(2, readInto));
            byte[] back = new byte[PAGE];
            UNSAFE.copyMemory(null, readInto, back, Unsafe.ARRAY_BYTE_BASE_OFFSET, PAGE);
            assertArrayEquals(pattern(1), back);
        }
        assertPagesAt(path, 1);
    }
}
