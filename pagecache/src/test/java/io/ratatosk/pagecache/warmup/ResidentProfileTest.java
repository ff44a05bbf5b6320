package io.ratatosk.pagecache.warmup;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The profile's format round-trips, refuses damaged bytes with a reason, and its write is atomic. */
class ResidentProfileTest {
    @TempDir
    Path dir;

    private static ResidentProfile sample() {
        long[] pages = {0, 1, 2, 5, 100, 101, 1L << 40};
        return new ResidentProfile(8192, (1L << 40) + 1, "(dev=1,ino=2)", pages);
    }

    /**
     * A cut streamed from the profile on disk is the profile of the ids kept, byte for byte; a profile of another file or
     * page size, or none, is not cut; a corrupt one is refused, nothing written.
     */
    @Test
    void aStreamedCutIsTheProfileOfTheIdsKept() throws Exception {
        Path file = dir.resolve("cut.db");
        long[] pages = {0, 1, 5, 127, 128, 300, 16_383, 16_384, 1L << 40};
        new ResidentProfile(8192, 1L << 41, "key", pages).writeFor(file);
        for (long below : new long[] {0, 1, 6, 128, 129, 16_384, 1L << 40, (1L << 40) + 1}) {
            new ResidentProfile(8192, 1L << 41, "key", pages).writeFor(file);
            assertTrue(ResidentProfile.cutFor(file, 8192, "key", 77, below));
            long[] kept = Arrays.stream(pages).filter(p -> p < below).toArray();
            assertArrayEquals(new ResidentProfile(8192, 77, "key", kept).encode(),
                Files.readAllBytes(ResidentProfile.pathFor(file)), "cut below " + below);
        }
        byte[] before = Files.readAllBytes(ResidentProfile.pathFor(file));
        assertFalse(ResidentProfile.cutFor(file, 8192, "another", 1, 1));
        assertFalse(ResidentProfile.cutFor(file, 4096, "key", 1, 1));
        assertArrayEquals(before, Files.readAllBytes(ResidentProfile.pathFor(file)));
        assertFalse(ResidentProfile.cutFor(dir.resolve("none.db"), 8192, "key", 1, 1));
        byte[] corrupt = before.clone();
        corrupt[corrupt.length - 12] ^= 1;
        Files.write(ResidentProfile.pathFor(file), corrupt);
        assertThrows(ProfileException.class, () -> ResidentProfile.cutFor(file, 8192, "key", 1, 1));
        assertArrayEquals(corrupt, Files.readAllBytes(ResidentProfile.pathFor(file)));
    }

    @Test
    void roundTripsCompactly() throws Exception {
        ResidentProfile profile = sample();
        byte[] bytes = profile.encode();
        ResidentProfile back = ResidentProfile.decode(bytes);
        assertArrayEquals(profile.pages(), back.pages());
        assertEquals(8192, back.filePageSize());
        assertEquals((1L << 40) + 1, back.filePages());
        assertEquals("(dev=1,ino=2)", back.fileKey());

        long[] dense = new long[100_000];
        Arrays.setAll(dense, i -> 3L * i);
        byte[] denseBytes = new ResidentProfile(8192, 300_000, "k", dense).encode();
        assertTrue(denseBytes.length < 100_000 + 64, "a dense profile takes about a byte a page: " + denseBytes.length);
    }

    /**
     * A profile the format cannot read back is refused when it is made, naming what is wrong: a negative page id (written
     * as a delta that reads back as "page ids do not increase") and a key longer than a header takes were accepted, and
     * the profile written was refused as corrupt at every map of the file.
     */
    @Test
    void aProfileTheFormatCannotReadBackIsRefusedWhenMade() {
        IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
            () -> new ResidentProfile(8192, 10, "k", new long[] {-5, 3}));
        assertTrue(negative.getMessage().contains("-5"), negative.getMessage());
        String longKey = "k".repeat(1025);
        IllegalArgumentException key = assertThrows(IllegalArgumentException.class,
            () -> new ResidentProfile(8192, 10, longKey, new long[] {1}));
        assertTrue(key.getMessage().contains("1025 bytes"), key.getMessage());
        assertThrows(NullPointerException.class, () -> new ResidentProfile(8192, 10, null, new long[] {1}));
        assertThrows(NullPointerException.class, () -> new ResidentProfile(8192, 10, "k", null));
        // The largest key the header takes still round-trips.
        String longestKey = "k".repeat(1024);
        assertEquals(longestKey, assertDoesNotThrow(() -> ResidentProfile.decode(
            new ResidentProfile(8192, 10, longestKey, new long[] {0, 9}).encode())).fileKey());
        // Read back, such a key of bytes that are no UTF-8 (each a 3-byte replacement character) is a corrupt profile.
        byte[] bytes = new ResidentProfile(8192, 10, longestKey, new long[] {0, 9}).encode();
        int keyStart = bytes.length - 8 - 2 - 1024; // before the two page ids and the checksum
        Arrays.fill(bytes, keyStart, keyStart + 1024, (byte) 0xFF);
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(bytes, 0, bytes.length - 8);
        java.nio.ByteBuffer.wrap(bytes, bytes.length - 8, 8).putLong(crc.getValue());
        ProfileException notUtf8 = assertThrows(ProfileException.class, () -> ResidentProfile.decode(bytes));
        assertTrue(notUtf8.getMessage().startsWith("corrupt"), notUtf8.getMessage());
    }

    @Test
    void everyTruncationIsRefused() {
        byte[] bytes = sample().encode();
        for (int length = 0; length < bytes.length; length++) {
            byte[] cut = Arrays.copyOf(bytes, length);
            assertThrows(ProfileException.class, () -> ResidentProfile.decode(cut), "cut to " + length + " bytes");
        }
    }

    @Test
    void everyFlippedByteIsRefused() {
        byte[] bytes = sample().encode();
        for (int i = 0; i < bytes.length; i++) {
            byte[] bad = bytes.clone();
            bad[i] ^= 0x10;
            assertThrows(ProfileException.class, () -> ResidentProfile.decode(bad), "byte " + i + " flipped");
        }
    }

    @Test
    void aFailedRenameLeavesTheOldProfileAndNoTemporaryFile() throws Exception {
        Path file = dir.resolve("data.db");
        ResidentProfile old = new ResidentProfile(4096, 10, "k", new long[] {1, 2, 3});
        old.writeFor(file);
        ResidentProfile next = new ResidentProfile(4096, 10, "k", new long[] {7, 8});
        List<Path> renamedFrom = new ArrayList<>();
        assertThrows(IOException.class, () -> next.writeFor(file, (from, to) -> {
            renamedFrom.add(from);
            assertArrayEquals(next.encode(), Files.readAllBytes(from), "the new profile was written to the temporary file");
            throw new IOException("crash before rename");
        }));
        assertArrayEquals(new long[] {1, 2, 3}, ResidentProfile.readFor(file).pages(), "the old profile is intact");
        assertFalse(Files.exists(renamedFrom.get(0)), "the temporary file is gone");

        next.writeFor(file);
        assertArrayEquals(new long[] {7, 8}, ResidentProfile.readFor(file).pages());
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of(ResidentProfile.pathFor(file)), files.toList(), "only the profile is left");
        }
    }

    /** A write takes the first temporary name no file has: a live write's file there is never written. */
    @Test
    void eachWriteHasATemporaryFileOfItsOwn() throws Exception {
        Path file = dir.resolve("data.db");
        Path first = ResidentProfile.tempPathFor(file, 0);
        assertEquals("data.db" + ResidentProfile.SUFFIX + ".0" + ResidentProfile.TEMP_SUFFIX, first.getFileName().toString());
        assertNotEquals(first, ResidentProfile.tempPathFor(file, 1));
        byte[] another = "RTSKPROF another write".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        Files.write(first, another);
        List<Path> renamedFrom = new ArrayList<>();
        sample().writeFor(file, (from, to) -> {
            renamedFrom.add(from);
            ResidentProfile.Rename.ATOMIC.move(from, to);
        });
        assertEquals(List.of(ResidentProfile.tempPathFor(file, 1)), renamedFrom);
        assertArrayEquals(another, Files.readAllBytes(first), "the other write's file is untouched");
        assertArrayEquals(sample().pages(), ResidentProfile.readFor(file).pages());
    }

    /**
     * A file at the profile's path far longer than its header allows (zeros, or a profile's header on a sparse file): it
     * was read whole into the heap before anything in it was looked at, so a file of a gigabyte or two took that much
     * heap from the host, under the mapping lock, to be refused. Its header is read first now, and nothing more.
     */
    @Test
    void aFileLongerThanItsHeaderAllowsIsRefusedWithoutReadingItWhole() throws Exception {
        long length = 64L << 20;
        byte[] header = Arrays.copyOf(sample().encode(), 64); // magic, version, sizes: 7 pages announced
        for (byte[] start : List.of(new byte[0], header)) {
            Path file = dir.resolve("store" + start.length + ".db");
            try (java.io.RandomAccessFile sparse = new java.io.RandomAccessFile(ResidentProfile.pathFor(file).toFile(), "rw")) {
                sparse.write(start);
                sparse.setLength(length);
            }
            com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
            long before = threads.getCurrentThreadAllocatedBytes();
            ProfileException e = assertThrows(ProfileException.class, () -> ResidentProfile.readFor(file));
            long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            assertTrue(e.getMessage().startsWith("corrupt"), e.getMessage());
            assertTrue(allocated < length / 8, "refusing a file of " + length + " bytes allocated " + allocated + " bytes: "
                + e.getMessage());
        }
    }

    /** A read that keeps only the first page ids still reads and checks the whole profile. */
    @Test
    void aReadOfTheFirstPagesKeepsThemAndStillChecksTheWhole() throws Exception {
        Path file = dir.resolve("first.db");
        ResidentProfile profile = sample();
        profile.writeFor(file);
        assertArrayEquals(Arrays.copyOf(profile.pages(), 3), ResidentProfile.readFor(file, 3).pages());
        assertArrayEquals(profile.pages(), ResidentProfile.readFor(file, 100).pages());
        byte[] bytes = Files.readAllBytes(ResidentProfile.pathFor(file));
        bytes[bytes.length - 10] ^= 0x10; // in the last page id, past the ones kept
        Files.write(ResidentProfile.pathFor(file), bytes);
        assertThrows(ProfileException.class, () -> ResidentProfile.readFor(file, 1));
    }

    /**
     * A write that finds every temporary name taken (writes under way, or what writes that died less than an hour ago
     * left) fails naming them all and why: it once failed with a bare FileAlreadyExistsException naming the last name
     * only, which sent the operator to one file of sixteen, as if that were the profile's trouble.
     */
    @Test
    void aWriteThatFindsEveryTemporaryNameTakenSaysWhichAndWhy() throws Exception {
        Path file = dir.resolve("data.db");
        ResidentProfile old = new ResidentProfile(4096, 10, "k", new long[] {1, 2, 3});
        old.writeFor(file);
        byte[] cut = Arrays.copyOf(old.encode(), 12);
        for (int n = 0; n < 16; n++) {
            Files.write(ResidentProfile.tempPathFor(file, n), cut);
        }

        IOException taken = assertThrows(IOException.class, () -> sample().writeFor(file));
        String message = taken.getMessage();
        assertTrue(message.contains(ResidentProfile.tempPathFor(file, 0).toString()) && message.contains(".15.tmp")
            && message.contains("16") && message.contains("an hour"), message);
        for (int n = 0; n < 16; n++) {
            assertArrayEquals(cut, Files.readAllBytes(ResidentProfile.tempPathFor(file, n)), "another write's file, untouched");
        }
        assertArrayEquals(new long[] {1, 2, 3}, ResidentProfile.readFor(file).pages(), "the old profile is left");
    }

    /**
     * A write that finds every temporary name taken by writes that died long ago removes those and writes: only a map
     * removed them, so a file mapped once for a long run (a server's store) whose names were all taken at its map, by
     * leftovers then younger than an hour, had no profile written for the rest of the run.
     */
    @Test
    void aWriteThatFindsEveryTemporaryNameTakenByDeadWritesRemovesThemAndWrites() throws Exception {
        Path file = dir.resolve("data.db");
        byte[] cut = Arrays.copyOf(sample().encode(), 12);
        java.nio.file.attribute.FileTime longAgo = java.nio.file.attribute.FileTime.from(
            java.time.Instant.now().minus(java.time.Duration.ofDays(1)));
        for (int n = 0; n < 16; n++) {
            Files.setLastModifiedTime(Files.write(ResidentProfile.tempPathFor(file, n), cut), longAgo);
        }

        sample().writeFor(file);
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of(ResidentProfile.pathFor(file)), files.toList(), "the dead writes' files are gone");
        }
        assertArrayEquals(sample().pages(), ResidentProfile.readFor(file).pages());
    }

    /**
     * A write that died before its rename (a crash, a kill) left its temporary file beside the store for good: nothing
     * removed one. The map's read of the profile removes those of this profile's temporary names that no live write can
     * hold (untouched for long) and that hold what a write of a profile begins with (nothing, or the profile's magic):
     * a recent one may be another process's write in progress, and one that begins otherwise is not ours to remove.
     */
    @Test
    void theMapRemovesTemporaryFilesOfWritesThatDied() throws Exception {
        Path file = dir.resolve("data.db");
        sample().writeFor(file);
        byte[] profile = Files.readAllBytes(ResidentProfile.pathFor(file));
        java.nio.file.attribute.FileTime longAgo = java.nio.file.attribute.FileTime.from(
            java.time.Instant.now().minus(java.time.Duration.ofDays(1)));
        Path cut = Files.write(dir.resolve("data.db.cacheprof.0.tmp"), Arrays.copyOf(profile, 20));
        Path empty = Files.write(dir.resolve("data.db.cacheprof.5.tmp"), new byte[0]);
        Path live = Files.write(dir.resolve("data.db.cacheprof.3.tmp"), Arrays.copyOf(profile, 20));
        Path notOurs = Files.write(dir.resolve("data.db.cacheprof.7.tmp"), new byte[4096]);
        for (Path old : List.of(cut, empty, notOurs)) {
            Files.setLastModifiedTime(old, longAgo);
        }

        assertArrayEquals(sample().pages(), ResidentProfile.readFor(file).pages());
        assertFalse(Files.exists(cut), "a write cut short long ago is removed");
        assertFalse(Files.exists(empty), "a write that died before its first byte long ago is removed");
        assertTrue(Files.exists(live), "a recent write may be live: left");
        assertTrue(Files.exists(notOurs), "a file that no profile's write begins as is left");
    }

    /**
     * Only a regular file under a temporary name is ever removed, and nothing else there is opened: a link (to a dead
     * write's file elsewhere, which is no leftover of this profile), a folder or a named pipe of that name, however old,
     * is left, and the map reads the profile past them (a named pipe opened to be read would wait for a writer for ever);
     * a write takes a name none of them has.
     */
    @Test
    void theMapLeavesWhatIsNoRegularFileUnderATemporaryName() throws Exception {
        Path file = dir.resolve("data.db");
        sample().writeFor(file);
        java.nio.file.attribute.FileTime longAgo = java.nio.file.attribute.FileTime.from(
            java.time.Instant.now().minus(java.time.Duration.ofDays(1)));
        Path elsewhere = Files.createDirectory(dir.resolve("elsewhere"));
        Path linked = Files.write(elsewhere.resolve("cut"), Arrays.copyOf(Files.readAllBytes(ResidentProfile.pathFor(file)), 20));
        Files.setLastModifiedTime(linked, longAgo);
        Path link = Files.createSymbolicLink(ResidentProfile.tempPathFor(file, 0), linked);
        Files.getFileAttributeView(link, java.nio.file.attribute.BasicFileAttributeView.class,
            java.nio.file.LinkOption.NOFOLLOW_LINKS).setTimes(longAgo, null, null);
        Path folder = Files.createDirectory(ResidentProfile.tempPathFor(file, 1));
        Files.setLastModifiedTime(folder, longAgo);
        Path pipe = ResidentProfile.tempPathFor(file, 2);
        // touch -h: Files.setLastModifiedTime opens the file to set its times, and an open of a named pipe waits for ever
        boolean piped = new ProcessBuilder("mkfifo", pipe.toString()).start().waitFor() == 0;
        if (piped) {
            new ProcessBuilder("touch", "-h", "-d", "2 days ago", pipe.toString()).start().waitFor();
        }

        assertTimeoutPreemptively(java.time.Duration.ofMinutes(1),
            () -> assertArrayEquals(sample().pages(), ResidentProfile.readFor(file).pages()));
        assertTrue(Files.isSymbolicLink(link) && Files.exists(linked), "the link and what it links to are left");
        assertTrue(Files.isDirectory(folder), "the folder is left");
        assertTrue(!piped || Files.exists(pipe, java.nio.file.LinkOption.NOFOLLOW_LINKS), "the pipe is left");
        List<Path> renamedFrom = new ArrayList<>();
        sample().writeFor(file, (from, to) -> {
            renamedFrom.add(from);
            ResidentProfile.Rename.ATOMIC.move(from, to);
        });
        assertEquals(List.of(ResidentProfile.tempPathFor(file, piped ? 3 : 2)), renamedFrom);
    }

    @Test
    void aMissingProfileIsNull() throws Exception {
        assertNull(ResidentProfile.readFor(dir.resolve("none.db")));
    }
}
