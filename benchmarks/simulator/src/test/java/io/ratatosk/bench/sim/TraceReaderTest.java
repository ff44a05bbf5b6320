package io.ratatosk.bench.sim;

import static io.ratatosk.bench.sim.TraceFiles.bzip2;
import static io.ratatosk.bench.sim.TraceFiles.gzip;
import static io.ratatosk.bench.sim.TraceFiles.ints;
import static io.ratatosk.bench.sim.TraceFiles.longs;
import static io.ratatosk.bench.sim.TraceFiles.text;
import static io.ratatosk.bench.sim.TraceFiles.truncate;
import static io.ratatosk.bench.sim.TraceFiles.write;
import static io.ratatosk.bench.sim.TraceFiles.xz;
import static io.ratatosk.bench.sim.TraceFiles.zstd;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.core.PageKey;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

class TraceReaderTest {
    @TempDir
    Path dir;

    /** The trace's requests as dense ids: equal raw keys map to equal ids, in first-seen order. */
    private static int[] ids(Trace t) {
        return t.keys();
    }

    /** Reading fails with a {@link TraceFormatException} whose message holds every fragment. */
    static TraceFormatException assertFails(Executable read, String... fragments) {
        TraceFormatException e = assertThrows(TraceFormatException.class, read);
        for (String fragment : fragments) {
            assertTrue(e.getMessage().contains(fragment), () -> "message lacks '" + fragment + "': " + e.getMessage());
        }
        return e;
    }

    @Test
    void lirsTextSkipsMarkerAndBlankLinesAndAcceptsCrlf() throws IOException {
        Path f = write(dir, "lirs/t.trace.gz", gzip(text("5\r\n7\n*\n5\n\n 9 \n*\n7\n")));
        Trace t = TraceReader.read(f);
        assertEquals("lirs", t.format());
        assertArrayEquals(new int[] {0, 1, 0, 2, 1}, ids(t));
        assertEquals(5, t.requests());
        assertEquals(3, t.distinct());
        assertEquals("lirs/t.trace.gz", t.name());
    }

    /**
     * A text trace whose line runs on without a break (a binary trace read as text, a damaged one) is refused at that
     * line, naming the file and the line: readLine gathered the whole line, and a large file's ran the heap out.
     */
    @Test
    void aTextLineLongerThanTheBoundIsRefusedNamingTheFileAndTheLine() throws IOException {
        byte[] noBreak = new byte[8 << 20];
        Arrays.fill(noBreak, (byte) '7');
        for (String[] trace : new String[][] {{"lirs/long.trace.gz", "5\n"}, {"arc/long.lis.gz", "5 1 0 0\r\n"}}) {
            byte[] firstLine = text(trace[1]);
            byte[] data = Arrays.copyOf(firstLine, firstLine.length + noBreak.length);
            System.arraycopy(noBreak, 0, data, firstLine.length, noBreak.length);
            Path f = write(dir, trace[0], gzip(data));
            assertFails(() -> TraceReader.read(f), f + ": line 2: a line of more than "
                + String.format(java.util.Locale.ROOT, "%,d", TextKeyDecoder.MAX_LINE_CHARS) + " characters");
        }
    }

    /** The text decoders stop within a little more than the bound of a line without a break, whatever follows it. */
    @Test
    void aTextDecoderReadsLittleMoreThanTheBoundOfALineWithoutABreak() {
        for (TraceFormat format : new TraceFormat[] {TraceFormat.LIRS, TraceFormat.ARC}) {
            CountingInputStream digits = new CountingInputStream(new java.io.InputStream() {
                private long left = 32 << 20;

                @Override
                public int read() {
                    return left-- > 0 ? '7' : -1;
                }

                @Override
                public int read(byte[] b, int off, int len) {
                    int n = (int) Math.min(len, left);
                    Arrays.fill(b, off, off + n, (byte) '7');
                    left -= n;
                    return n == 0 && len > 0 ? -1 : n;
                }
            });
            KeyDecoder decoder = format.decoderFor(dir.resolve("digits"));
            assertThrows(TraceFormatException.class, () -> decoder.decode(digits, key -> { }), format.id());
            assertTrue(digits.count() <= 4 * TextKeyDecoder.MAX_LINE_CHARS, format.id() + ": read " + digits.count() + " bytes");
        }
    }

    @Test
    void textLinesEndAtLineFeedCarriageReturnOrBothAcrossTheDecodersChunks() throws IOException {
        // A key on each side of every chunk boundary the decoder's 64k characters could fall on, ended three ways.
        StringBuilder text = new StringBuilder();
        List<Long> keys = new java.util.ArrayList<>();
        String[] ends = {"\n", "\r", "\r\n"};
        for (int key = 0; text.length() < 3 * 65536; key++) {
            text.append(key).append(ends[key % 3]);
            keys.add((long) key);
        }
        text.append("9999999"); // the last line without an end
        keys.add(9_999_999L);
        List<Long> read = new java.util.ArrayList<>();
        decoderOf(TraceFormat.LIRS).decode(new java.io.ByteArrayInputStream(text(text.toString())), read::add);
        assertEquals(keys, read);
    }

    private KeyDecoder decoderOf(TraceFormat format) {
        return format.decoderFor(dir.resolve("t"));
    }

    @Test
    void arcLinesExpandToConsecutiveKeysFromStart() throws IOException {
        Path f = write(dir, "arc/t.lis.zst", zstd(text("10 3 0 0\n11 1 0 1\n\n100 0 0 2\n10 2 0 3\n")));
        Trace t = TraceReader.read(f);
        assertEquals("arc", t.format());
        // keys 10 11 12 | 11 | (none) | 10 11
        assertArrayEquals(new int[] {0, 1, 2, 1, 0, 1}, ids(t));
    }

    /** A key or a start is any 64-bit integer, a sign allowed (docs/simulator.md); past the range is refused. */
    @Test
    void textKeysAreAny64BitIntegerSignedOrNot() throws IOException {
        Path lirs = write(dir, "lirs/signed.trace", text("-5\n+5\n5\n-9223372036854775808\n9223372036854775807\n-5\n"));
        assertArrayEquals(new int[] {0, 1, 1, 2, 3, 0}, ids(TraceReader.read(lirs)));
        Path arc = write(dir, "arc/signed.lis", text("-1 3 0 0\n+0 1 0 1\n"));
        assertArrayEquals(new int[] {0, 1, 2, 1}, ids(TraceReader.read(arc)), "keys -1 0 1 | 0");
        Path past = write(dir, "lirs/past.trace", text("1\n-9223372036854775809\n"));
        assertFails(() -> TraceReader.read(past), past.toString(), "line 2");
    }

    @Test
    void cache2kXzHoldsBigEndianUnsigned32BitKeys() throws IOException {
        Path f = write(dir, "cache2k/t.trace.xz", xz(ints(1, 0xFFFF_FFFFL, 1, 0x0100_0000L, 0xFFFF_FFFFL)));
        Trace t = TraceReader.read(f);
        assertEquals("cache2k", t.format());
        assertArrayEquals(new int[] {0, 1, 0, 2, 1}, ids(t));
    }

    @Test
    void cloudphysicsFolderSelectsTheCloudphysicsFormat() throws IOException {
        Path f = write(dir, "cloudphysics/w.trace.xz", xz(ints(3, 4, 3)));
        assertEquals("cloudphysics", TraceReader.read(f).format());
    }

    @Test
    void cordaGzipHolds64BitKeysThatDifferOnlyInTheHighWord() throws IOException {
        Path f = write(dir, "corda/vault.gz", gzip(longs(1L << 40, 1, 1L << 40, -1L)));
        Trace t = TraceReader.read(f);
        assertEquals("corda", t.format());
        assertArrayEquals(new int[] {0, 1, 0, 2}, ids(t));
    }

    @Test
    void scarabXzHolds64BitKeys() throws IOException {
        Path f = write(dir, "scarab/s.trace.xz", xz(longs(7L << 33, 7, 7L << 33)));
        Trace t = TraceReader.read(f);
        assertEquals("scarab", t.format());
        assertArrayEquals(new int[] {0, 1, 0}, ids(t));
    }

    @Test
    void pageTraceWrittenByThePageTraceWriterReadsBackPlainAndGzipped() throws IOException {
        long[] keys = {PageKey.of(0, 1), PageKey.of(1, 1), PageKey.of(0, 1), PageKey.of(3, 1L << 40)};
        for (String name : new String[] {"run.pagetrace", "run.pagetrace.gz"}) {
            Path f = dir.resolve(name);
            try (PageTraceWriter w = new PageTraceWriter(f)) {
                for (long k : keys) {
                    w.append(k);
                }
            }
            Trace t = TraceReader.read(f);
            assertEquals("pagetrace", t.format());
            assertArrayEquals(new int[] {0, 1, 0, 2}, ids(t), name);
        }
    }

    /**
     * The writer's name check reads the ending in any case (.GZ passes as gzip), but it gzipped only a name ending in
     * lower-case .gz: run.pagetrace.GZ held plain keys under a gzip name, which zcat refused. Now it is gzipped.
     */
    @Test
    void aPageTraceNamedGzInCapitalsIsGzipped() throws IOException {
        Path f = dir.resolve("run.pagetrace.GZ");
        try (PageTraceWriter w = new PageTraceWriter(f)) {
            w.append(PageKey.of(0, 1));
        }
        byte[] head = java.util.Arrays.copyOf(java.nio.file.Files.readAllBytes(f), 2);
        assertArrayEquals(new byte[] {0x1f, (byte) 0x8b}, head, "gzip's magic number");
        assertArrayEquals(new int[] {0}, ids(TraceReader.read(f)));
    }

    /** A folder given as a trace is refused naming it: read, it failed with an IOException "Is a directory" alone. */
    @Test
    void aFolderIsRefusedNamingIt() throws IOException {
        Path folder = java.nio.file.Files.createDirectories(dir.resolve("lirs/folder.trace"));
        for (TraceFormat format : TraceFormat.values()) {
            IOException e = assertThrows(IOException.class, () -> TraceReader.read(folder, format), format.id());
            assertEquals(folder + ": a folder, not a trace file", e.getMessage());
        }
    }

    @Test
    void pageTraceWriterRefusesTheUnboundKey() throws IOException {
        try (PageTraceWriter w = new PageTraceWriter(dir.resolve("x.pagetrace"))) {
            assertThrows(IllegalArgumentException.class, () -> w.append(PageKey.UNBOUND));
        }
    }

    /**
     * A page trace's key whose file part (file id + 1) is 0 is no page's key, and is refused naming it and the offset:
     * another format's 64-bit keys under a .pagetrace name (small numbers, all of them such keys) were read as pages
     * without a word. The writer refuses to write one, so that what it writes reads back.
     */
    @Test
    void aPageTraceKeyNamingNoFileIsRefusedByTheReaderAndTheWriter() throws IOException {
        long noFile = PageKey.MAX_PAGE_ID; // every page bit set, no file bit
        Path f = write(dir, "corda-keys.pagetrace", longs(PageKey.of(0, 5), noFile));
        assertFails(() -> TraceReader.read(f), f.toString(), "decompressed byte 8",
            String.format(java.util.Locale.ROOT, "page key 0x%016x names no file", noFile));
        try (PageTraceWriter w = new PageTraceWriter(dir.resolve("x.pagetrace"))) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> w.append(5));
            assertTrue(e.getMessage().contains("0x0000000000000005 names no file"), e.getMessage());
            w.append(PageKey.of(PageKey.MAX_FILE_ID, PageKey.MAX_PAGE_ID)); // the largest key still names a file
        }
    }

    @Test
    void pageTraceWithKeyZeroFailsNamingTheOffset() throws IOException {
        Path f = write(dir, "bad.pagetrace", longs(PageKey.of(0, 5), 0));
        assertFails(() -> TraceReader.read(f), f.toString(), "decompressed byte 8", "page key 0");
    }

    /** The same ARC trace plain and in every compression reads the same keys, whatever its name says. */
    @Test
    void compressionIsReadFromTheBytesNotTheName() throws IOException {
        byte[] plain = text("10 3 0 0\n11 1 0 1\n");
        int[] expected = {0, 1, 2, 1};
        byte[][] forms = {plain, gzip(plain), zstd(plain), xz(plain), bzip2(plain)};
        String[] names = {"a.lis", "b.lis.gz", "c.lis.zst", "d.lis.xz", "e.lis.bz2"};
        for (int i = 0; i < forms.length; i++) {
            assertArrayEquals(expected, ids(TraceReader.read(write(dir, "arc/" + names[i], forms[i]))), names[i]);
            // the bytes decide, not the suffix: zstd bytes in a file named .gz
            Path misnamed = write(dir, "arc/misnamed" + i + ".lis.gz", forms[i]);
            assertArrayEquals(expected, ids(TraceReader.read(misnamed)), "misnamed " + names[i]);
        }
        Path binary = write(dir, "keys.bin", bzip2(ints(7, 8, 7)));
        assertArrayEquals(new int[] {0, 1, 0}, ids(TraceReader.read(binary, TraceFormat.CACHE2K)));
        Path lirsPlain = write(dir, "lirs/plain.trace", text("1\n2\n1\n"));
        assertArrayEquals(new int[] {0, 1, 0}, ids(TraceReader.read(lirsPlain)));
    }

    /**
     * A plain binary trace whose first key begins with a compression's magic number was read as compressed, and refused
     * as corrupt compressed data ('after decompressed byte 0 ...: corrupt gzip data: ...'): a valid trace, named as
     * plain, could not be read at all. Where the name says plain it is now read as it is once the decompression fails;
     * where the name says nothing the refusal says why it was read as compressed; a compressed file under a plain name
     * still reads.
     */
    @Test
    void aPlainTraceWhoseFirstKeyBeginsWithAMagicNumberIsReadWhereItsNameSaysPlain() throws IOException {
        long gzip = 0x1f8b_0800L;
        long bzip2 = 0x425a_6839L; // "BZh9"
        long zstd = 0x28b5_2ffdL;
        long xz = 0xfd37_7a58_5a00_0001L;
        assertArrayEquals(new int[] {0, 1, 0}, ids(TraceReader.read(write(dir, "cache2k/g.trace", ints(gzip, 5, gzip)))));
        assertArrayEquals(new int[] {0, 1, 0}, ids(TraceReader.read(write(dir, "cache2k/b.trace", ints(bzip2, 5, bzip2)))));
        assertArrayEquals(new int[] {0, 1, 0}, ids(TraceReader.read(write(dir, "cloudphysics/z.trace", ints(zstd, 5, zstd)))));
        assertArrayEquals(new int[] {0, 1, 0}, ids(TraceReader.read(write(dir, "corda/x.trace", longs(xz, 5, xz)))));
        long pageKey = (gzip << 32) | 7; // file id 0x1f8a, page 0x08_0000_0007
        assertArrayEquals(new int[] {0, 0, 1}, ids(TraceReader.read(write(dir, "run.pagetrace", longs(pageKey, pageKey,
            PageKey.of(0, 5))))));

        Path unnamed = write(dir, "keys.bin", ints(gzip, 5, gzip));
        assertFails(() -> TraceReader.read(unnamed, TraceFormat.CACHE2K), unnamed.toString(), "(read as gzip because its"
            + " first bytes are gzip's magic number; a plain trace whose first key begins so is read as it is where its name"
            + " says plain: *.trace, *.lis, *.pagetrace)");

        assertArrayEquals(new int[] {0, 1, 0}, ids(TraceReader.read(write(dir, "cache2k/xz.trace", xz(ints(7, 8, 7))))),
            "compressed under a plain name");
        Path damaged = write(dir, "lirs/cut.trace", Arrays.copyOf(gzip(text("1\n2\n3\n")), 8)); // cut in its header
        TraceFormatException e = assertFails(() -> TraceReader.read(damaged), damaged + ": line 1: ",
            "(read as it is, as its name says, its first bytes being gzip's magic number but no gzip data: " + damaged
            + ": the gzip data is truncated: ");
        assertEquals(1, e.getSuppressed().length, "the gzip failure is kept");
    }

    /**
     * Compressed data under a plain name that fails past its start is damaged compressed data, not a plain trace: it is
     * refused as such, not read as keys (a cut gzip of 32-bit keys, cut at a whole key, read as the gzip's bytes).
     */
    @Test
    void compressedDataUnderAPlainNameThatFailsPastItsStartIsRefusedNotReadAsKeys() throws IOException {
        byte[] whole = gzip(ints(manyKeys()));
        Path cut = write(dir, "cache2k/cut.trace", Arrays.copyOf(whole, (whole.length / 2) & ~3));
        TraceFormatException e = assertFails(() -> TraceReader.read(cut), cut + ": the gzip data is truncated: ");
        assertTrue(!e.getMessage().contains("read as it is"), e.getMessage());
    }

    /**
     * The same for a small trace: the bytes that came out were counted a read of 8 KiB at a time, and the read that
     * failed counted none, so a cut gzip of 1,000 keys (4,000 bytes) counted none, was taken for a plain trace whose
     * first key begins with gzip's magic number, and was read as its gzip bytes, each four a key, without a word.
     */
    @Test
    void aSmallCutGzipUnderAPlainNameIsRefusedNotReadAsKeys() throws IOException {
        long[] keys = Arrays.copyOf(manyKeys(), 1_000);
        assertTrue(keys.length * Integer.BYTES < 8192, "less than one read comes out");
        byte[] whole = gzip(ints(keys));
        Path cut = write(dir, "cache2k/small-cut.trace", Arrays.copyOf(whole, (whole.length / 2) & ~3));
        TraceFormatException e = assertFails(() -> TraceReader.read(cut), cut + ": the gzip data is truncated: ");
        assertTrue(!e.getMessage().contains("read as it is"), e.getMessage());
        // Its keys all out, its trailer cut: 6 bytes came out, one read's worth, which counted none
        Path noTrailer = write(dir, "lirs/no-trailer.trace", truncate(gzip(text("1\n2\n3\n")), 6));
        e = assertFails(() -> TraceReader.read(noTrailer), noTrailer + ": the gzip data is truncated: ");
        assertTrue(!e.getMessage().contains("read as it is"), e.getMessage());
    }

    /**
     * The same where nothing can come out before the damage: bzip2 and xz check a whole block before they deliver a byte,
     * so a cut bzip2 or xz trace under a plain name delivered none, was taken for a plain trace, and was read as its
     * compressed bytes. Past its magic number, each stream's header (bzip2's block magic, xz's header checksum) tells
     * its data from a plain key.
     */
    @Test
    void aCutBzip2OrXzUnderAPlainNameIsRefusedNotReadAsKeys() throws IOException {
        byte[] keys = ints(manyKeys());
        for (byte[] whole : List.of(bzip2(keys), xz(keys))) {
            Path cut = write(dir, "cache2k/cut-block.trace", Arrays.copyOf(whole, (whole.length / 2) & ~3));
            TraceFormatException e = assertThrows(TraceFormatException.class, () -> TraceReader.read(cut));
            assertTrue(!e.getMessage().contains("read as it is"), e.getMessage());
            assertTrue(e.getMessage().contains(TraceCompression.of(cut).displayName()), e.getMessage());
        }
    }

    /**
     * The same for zstd, whose frame header has no checksum: a zstd trace cut inside its first block delivers nothing (a
     * block is decoded whole), so under a plain name it was read as its compressed bytes, each four a key, without a
     * word. A frame and block header that check out, the block running past the file's end, are a cut zstd stream.
     */
    @Test
    void aZstdTraceCutInsideItsFirstBlockUnderAPlainNameIsRefusedNotReadAsKeys() throws IOException {
        byte[] whole = zstd(ints(manyKeys()));
        for (int cutAt : new int[] {16, 100, 1_000}) {
            Path cut = write(dir, "cache2k/cut-zstd-" + cutAt + ".trace", Arrays.copyOf(whole, cutAt));
            TraceFormatException e = assertFails(() -> TraceReader.read(cut), cut + ": the zstd data is truncated: ");
            assertTrue(!e.getMessage().contains("read as it is"), e.getMessage());
        }
    }

    /**
     * A zstd trace whose first block is damaged (bytes changed inside it, the file whole) under a plain name: zstd
     * delivers nothing before a whole block decodes, and the frame and block headers were taken as proof only where the
     * block ran past the file's end, so it was taken for a plain trace whose first key begins with zstd's magic and
     * read as its compressed bytes, each four a key, exit 0. Its frames, walked header by header, end exactly at the
     * file's end, which a plain trace's bytes do about once in the largest block's size.
     */
    @Test
    void aZstdTraceDamagedInsideItsFirstBlockUnderAPlainNameIsRefusedNotReadAsKeys() throws IOException {
        byte[] frame = zstd(ints(manyKeys()));
        byte[] skippable = {0x50, 0x2a, 0x4d, 0x18, 4, 0, 0, 0, 1, 2, 3, 4}; // pzstd's, before its frame
        for (byte[] whole : List.of(frame, concat(skippable, frame))) {
            for (int at : new int[] {12, 20, 40}) { // inside the first block, where the change fails its decoding
                byte[] damaged = whole.clone();
                for (int i = whole.length - frame.length + at, end = i + 16; i < end; i++) {
                    damaged[i] = (byte) ~damaged[i];
                }
                Path file = write(dir, "cache2k/damaged-zstd-" + whole.length + "-" + at + ".trace", damaged);
                TraceFormatException e = assertFails(() -> TraceReader.read(file), file + ": ", " zstd data");
                assertTrue(!e.getMessage().contains("read as it is"), e.getMessage());
            }
        }
    }

    /**
     * A whole compressed trace damaged inside (bytes changed, none cut) is said corrupt, not truncated: a zstd file
     * smaller than zstd-jni's read (128 KiB) was read whole at the first read, so its failure, whatever it was, was said
     * "the zstd data is truncated: the file ends at byte N before the end of the compressed stream", sending the user to
     * download again a file whose every byte was there.
     */
    @Test
    void aWholeCompressedTraceDamagedInsideIsSaidCorruptNotTruncated() throws IOException {
        byte[] zstd = zstd(ints(manyKeys()));
        byte[] gzip = gzip(ints(manyKeys()));
        Path zstdDamaged = write(dir, "cache2k/damaged.trace.zst", flipped(zstd, 20)); // "Data corruption detected"
        Path gzipDamaged = write(dir, "cache2k/damaged.trace.gz", flipped(gzip, gzip.length / 2)); // its CRC32 fails
        for (Path file : List.of(zstdDamaged, gzipDamaged)) {
            TraceFormatException e = assertFails(() -> TraceReader.read(file), file + ": ",
                "corrupt " + TraceCompression.of(file).displayName() + " data");
            assertTrue(!e.getMessage().contains("truncated"), e.getMessage());
        }
        Path cut = write(dir, "cache2k/cut.trace.zst", Arrays.copyOf(zstd, zstd.length - 3));
        assertFails(() -> TraceReader.read(cut), cut + ": the zstd data is truncated: ");
    }

    /** {@code bytes} with the 16 from {@code from} inverted. */
    private static byte[] flipped(byte[] bytes, int from) {
        byte[] changed = bytes.clone();
        for (int i = from; i < from + 16; i++) {
            changed[i] = (byte) ~changed[i];
        }
        return changed;
    }

    /**
     * A zstd trace of several frames (pzstd's, each after a skippable frame; zstd's output concatenated) cut inside a
     * later frame: zstd-jni ended its stream without a word at the end of the last whole frame, so the trace was read as
     * the keys of its first frames alone, exit 0. Whole, every frame's keys are read.
     */
    @Test
    void aZstdTraceOfSeveralFramesCutInsideALaterFrameIsRefused() throws IOException {
        byte[] first = zstd(ints(7, 8, 7));
        byte[] second = zstd(ints(manyKeys()));
        byte[] skippable = {0x50, 0x2a, 0x4d, 0x18, 4, 0, 0, 0, 1, 2, 3, 4}; // pzstd's: the next frame's size
        for (boolean pzstd : new boolean[] {true, false}) {
            java.io.ByteArrayOutputStream whole = new java.io.ByteArrayOutputStream();
            for (byte[] frame : List.of(first, second)) {
                whole.write(pzstd ? skippable : new byte[0]);
                whole.write(frame);
            }
            byte[] bytes = whole.toByteArray();
            Path all = write(dir, "cache2k/frames-" + pzstd + ".trace.zst", bytes);
            assertEquals(3 + manyKeys().length, TraceReader.read(all).requests());
            Path cut = write(dir, "cache2k/cut-frames-" + pzstd + ".trace.zst", Arrays.copyOf(bytes, bytes.length - 100));
            assertFails(() -> TraceReader.read(cut), cut + ": the zstd data is truncated: the file ends at byte "
                + (bytes.length - 100) + " inside a zstd frame");
        }
    }

    /**
     * The same, cut inside the later frame's magic number (one to three of its four bytes there): zstd-jni ends there
     * without a word, and the walk of the frames took bytes that are no magic number for the decoder's to judge, so the
     * trace was read as its first frame alone, exit 0.
     */
    @Test
    void aZstdTraceCutInsideALaterFramesMagicNumberIsRefused() throws IOException {
        byte[] first = zstd(ints(7, 8, 7));
        byte[] second = zstd(ints(manyKeys()));
        byte[] skippable = {0x50, 0x2a, 0x4d, 0x18, 4, 0, 0, 0, 1, 2, 3, 4}; // pzstd's: the next frame's size
        for (boolean pzstd : new boolean[] {true, false}) {
            byte[] firstFrame = pzstd ? concat(skippable, first) : first;
            byte[] secondFrame = pzstd ? concat(skippable, second) : second;
            for (int left = 1; left < 4; left++) {
                int magicAt = firstFrame.length + (pzstd ? skippable.length : 0);
                Path cut = write(dir, "cache2k/cut-magic-" + pzstd + left + ".trace.zst",
                    Arrays.copyOf(concat(firstFrame, secondFrame), magicAt + left));
                assertFails(() -> TraceReader.read(cut), cut + ": the zstd data is truncated: the file ends at byte "
                    + (magicAt + left) + " inside a zstd frame");
            }
        }
    }

    /**
     * zstd --long=31 (or --long=28 and up) over a stream of unknown size writes a frame whose window is 2 GiB, past the
     * 128 MiB zstd-jni's decoder takes by default: a whole, valid trace was refused as 'corrupt zstd data: Frame
     * requires too much memory for decoding' (said truncated where the file was under 128 KiB).
     */
    @Test
    void aZstdTraceWrittenWithALongWindowIsRead() throws IOException {
        long[] keys = manyKeys();
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        try (com.github.luben.zstd.ZstdOutputStream z = new com.github.luben.zstd.ZstdOutputStream(out)) {
            byte[] data = ints(keys);
            z.write(data, 0, 4);
            z.flush(); // the frame's header written before its size is known, as zstd writes from a pipe
            z.write(data, 4, data.length - 4);
        }
        byte[] file = out.toByteArray();
        assertEquals(0, file[4] & 0x20, "a frame with a window descriptor (not single segment)");
        file[5] = (byte) 0xa8; // the window descriptor zstd --long=31 writes there: 2 GiB, a window no smaller one needs
        Trace t = TraceReader.read(write(dir, "cache2k/long.trace.zst", file));
        assertEquals(keys.length, t.requests());
        assertArrayEquals(ids(TraceReader.read(write(dir, "cache2k/plain.trace", ints(keys)))), ids(t));
    }

    /**
     * gzip -d and gzip -t take zero bytes after the last member as padding (a tape's or a block device's, dd's conv=sync),
     * without a word: such a whole trace was refused as 'corrupt gzip data: Garbage after a valid .gz stream'. So do
     * bzip2 -d and -t after the last stream (with a warning, status 0): such a bzip2 trace was refused as 'Garbage after
     * a valid BZip2 stream'. Anything else after a member or stream is still refused.
     */
    @Test
    void zeroBytesAfterTheLastGzipMemberOrBzip2StreamArePadding() throws IOException {
        long[] keys = manyKeys();
        byte[] data = ints(keys);
        int[] expected = ids(TraceReader.read(write(dir, "cache2k/plain.trace", data)));
        byte[] head = Arrays.copyOf(data, 4000);
        byte[] tail = Arrays.copyOfRange(data, 4000, data.length);
        String[][] forms = {{"gz", "gzip", "Garbage after a valid .gz stream"},
            {"bz2", "bzip2", "Garbage after a valid BZip2 stream"}};
        for (String[] form : forms) {
            boolean gz = form[0].equals("gz");
            byte[] one = gz ? gzip(data) : bzip2(data);
            byte[] twoStreams = gz ? concat(gzip(head), gzip(tail)) : concat(bzip2(head), bzip2(tail));
            for (int zeros : new int[] {1, 3, 512, 100_000}) {
                for (byte[] whole : List.of(one, twoStreams)) {
                    Path padded = write(dir, "cache2k/padded-" + zeros + "-" + whole.length + ".trace." + form[0],
                        concat(whole, new byte[zeros]));
                    assertArrayEquals(expected, ids(TraceReader.read(padded)), padded.toString());
                }
            }
            byte[] garbage = concat(one, new byte[16]);
            garbage[garbage.length - 1] = 7;
            Path f = write(dir, "cache2k/garbage.trace." + form[0], garbage);
            assertFails(() -> TraceReader.read(f), f.toString(), "corrupt " + form[1] + " data: " + form[2]);
        }
    }

    /** pzstd writes a skippable frame first: the file was read as uncompressed, its compressed bytes as keys. */
    @Test
    void aZstdFileStartingWithASkippableFrameIsZstd() throws IOException {
        byte[] frame = zstd(ints(7, 8, 7));
        for (int magic = 0x50; magic <= 0x5f; magic += 0xf) {
            byte[] skippable = {(byte) magic, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 1, 2, 3};
            byte[] file = java.util.Arrays.copyOf(skippable, skippable.length + frame.length);
            System.arraycopy(frame, 0, file, skippable.length, frame.length);
            assertArrayEquals(new int[] {0, 1, 0}, ids(TraceReader.read(write(dir, "cache2k/p" + magic + ".trace.zst", file))));
        }
    }

    @Test
    void displayNamesTakeMoreFoldersOnlyWhereTwoWouldShareOne() {
        Path root = Path.of("/t");
        List<Path> files = List.of(root.resolve("a/lirs/x.trace"), root.resolve("b/lirs/x.trace"),
            root.resolve("lirs/y.trace"), root.resolve("q/a/lirs/z.trace"), root.resolve("r/a/lirs/z.trace"),
            Path.of("/lirs/x.trace"));
        assertEquals(List.of("a/lirs/x.trace", "b/lirs/x.trace", "lirs/y.trace", "q/a/lirs/z.trace", "r/a/lirs/z.trace",
            "lirs/x.trace"), List.copyOf(TraceReader.displayNames(files).values()));
    }

    /** Printed raw, a NUL or ^Z showed as found "", and a byte order mark as three unknown signs. */
    @Test
    void controlCharactersAndNonAsciiBytesAreShownAsEscapes() throws IOException {
        Path nul = write(dir, "lirs/nul.trace", text("1\n\u0000\n"));
        assertFails(() -> TraceReader.read(nul), "line 2", "found \"\\x00\"");
        Path ctrlZ = write(dir, "lirs/z.trace", text("1\n2\u001a\n"));
        assertFails(() -> TraceReader.read(ctrlZ), "line 2", "found \"2\\x1a\"");
        byte[] bom = {(byte) 0xef, (byte) 0xbb, (byte) 0xbf, '1', '\n'};
        Path withBom = write(dir, "lirs/bom.trace", bom);
        assertFails(() -> TraceReader.read(withBom), "line 1", "found \"\\x??\\x??\\x??1\" (a UTF-8 byte order mark?)");
    }

    /** The start check reads as the whole read does, up to its first requests: what is wrong later is the whole read's. */
    @Test
    void checkStartRefusesABadStartAndLeavesTheRestUnread() throws IOException {
        Path badFirstLine = write(dir, "lirs/first.trace.gz", gzip(text("x\n1\n")));
        assertFails(() -> TraceReader.checkStart(badFirstLine, TraceFormat.LIRS), badFirstLine.toString(), "line 1");
        Path empty = write(dir, "lirs/empty.trace.bz2", bzip2(new byte[0]));
        assertFails(() -> TraceReader.checkStart(empty, TraceFormat.LIRS), "the trace holds no requests");
        // the decoder reads one request past the start before the reader stops it
        Path badLater = write(dir, "lirs/later.trace", text("1\n".repeat(TraceReader.START_REQUESTS + 1) + "x\n"));
        TraceReader.checkStart(badLater, TraceFormat.LIRS);
        assertFails(() -> TraceReader.read(badLater), "line " + (TraceReader.START_REQUESTS + 2));
    }

    @Test
    void aFileShorterThanAnyMagicIsReadPlain() throws IOException {
        assertArrayEquals(new int[] {0}, ids(TraceReader.read(write(dir, "lirs/one.trace", text("4\n")))));
    }

    @Test
    void truncatedBzip2FailsNamingTheFile() throws IOException {
        Path f = write(dir, "cache2k/cut.trace.bz2", cutTwoThirds(bzip2(ints(manyKeys()))));
        assertFails(() -> TraceReader.read(f), f.toString(), "bzip2");
    }

    @Test
    void forcedFormatOverridesDetection() throws IOException {
        Path f = write(dir, "keys.bin", xz(longs(1, 2, 1)));
        Trace t = TraceReader.read(f, TraceFormat.SCARAB);
        assertArrayEquals(new int[] {0, 1, 0}, ids(t));
    }

    @Test
    void truncatedGzipFailsNamingTheFileAndWhereItStopped() throws IOException {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < 20_000; i++) {
            s.append(i * 7919L % 100_003).append('\n'); // compresses only about 2:1, so half the file is many lines
        }
        byte[] whole = gzip(text(s.toString()));
        Path f = write(dir, "lirs/cut.trace.gz", truncate(whole, whole.length / 2));
        TraceFormatException e = assertFails(() -> TraceReader.read(f), f.toString(), "gzip");
        int onDisk = whole.length - whole.length / 2;
        assertTrue(e.getMessage().matches("(?s).*the file ends at byte " + onDisk + " .* after [1-9][0-9,]* decompressed bytes .*"),
            e.getMessage());
    }

    /**
     * A compressed trace cut short is said to be truncated, in one sentence with how far it got: the message ended in
     * the decompressor's exception as it printed itself, a bare "java.io.EOFException" (gzip, xz),
     * "com.github.luben.zstd.ZstdIOException: Truncated source" or "java.io.IOException: Unexpected end of stream".
     */
    @Test
    void aTruncatedCompressedTraceIsSaidToBeTruncatedWithHowFarItGot() throws IOException {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < 20_000; i++) {
            s.append(i * 7919L % 100_003).append('\n');
        }
        byte[] plain = text(s.toString());
        byte[][] compressed = {gzip(plain), zstd(plain), xz(plain), bzip2(plain)};
        String[] names = {"gzip", "zstd", "xz", "bzip2"};
        String[] suffixes = {"gz", "zst", "xz", "bz2"};
        for (int i = 0; i < compressed.length; i++) {
            for (int drop : new int[] {compressed[i].length / 2, 1}) {
                byte[] cut = truncate(compressed[i], drop);
                Path f = write(dir, "lirs/cut-" + drop + ".trace." + suffixes[i], cut);
                TraceFormatException e = assertFails(() -> TraceReader.read(f), f + ": ",
                    "the " + names[i] + " data is truncated: the file ends at byte " + cut.length + " before the end of"
                        + " the compressed stream, after ", " decompressed bytes (or more: decompressors read ahead) and ",
                    " requests read");
                assertTrue(!e.getMessage().contains("Exception") && !e.getMessage().contains("java."), e.getMessage());
            }
        }
    }

    @Test
    void gzipMissingOnlyItsTrailerFails() throws IOException {
        byte[] whole = gzip(text("1\n2\n3\n"));
        Path f = write(dir, "lirs/notrailer.trace.gz", truncate(whole, 4));
        assertFails(() -> TraceReader.read(f), f.toString());
    }

    @Test
    void truncatedXzFailsNamingTheFileAndDecompressedOffset() throws IOException {
        Path f = write(dir, "cache2k/cut.trace.xz", cutTwoThirds(xz(ints(manyKeys()))));
        assertFails(() -> TraceReader.read(f), f.toString(), "xz", "decompressed byte");
    }

    /** 50,000 keys of a 10,007-key range: compressed, more than one decompressor buffer. */
    private static byte[] concat(byte[] first, byte[] second) {
        byte[] both = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
    }

    private static long[] manyKeys() {
        long[] keys = new long[50_000];
        Arrays.setAll(keys, i -> i * 7919L % 10_007);
        return keys;
    }

    /** The first two thirds of {@code whole}: a stream cut inside its data. */
    private static byte[] cutTwoThirds(byte[] whole) {
        return truncate(whole, whole.length / 3);
    }

    @Test
    void truncatedZstdFailsNamingTheFile() throws IOException {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < 20_000; i++) {
            s.append(i * 31 % 5003).append(" 1 0 ").append(i).append('\n');
        }
        byte[] whole = zstd(text(s.toString()));
        Path f = write(dir, "arc/cut.lis.zst", truncate(whole, whole.length / 2));
        assertFails(() -> TraceReader.read(f), f.toString(), "zstd", "decompressed bytes");
    }

    @Test
    void partial32BitRecordFailsNamingItsOffset() throws IOException {
        byte[] data = Arrays.copyOf(ints(1, 2), 10);
        Path f = write(dir, "cache2k/partial.trace.xz", xz(data));
        assertFails(() -> TraceReader.read(f), f.toString(), "decompressed byte 8", "partial record of 2 bytes");
    }

    @Test
    void partial64BitRecordFailsNamingItsOffset() throws IOException {
        byte[] data = Arrays.copyOf(longs(1, 2, 3), 21);
        Path f = write(dir, "corda/partial.gz", gzip(data));
        assertFails(() -> TraceReader.read(f), "decompressed byte 16", "partial record of 5 bytes");
    }

    @Test
    void nonNumericLirsLineFailsNamingTheLine() throws IOException {
        Path f = write(dir, "lirs/words.trace.gz", gzip(text("1\n2\n*\nthree\n4\n")));
        assertFails(() -> TraceReader.read(f), f.toString(), "line 4", "three");
    }

    /** A corrupt count in the billions would expand into as many keys: it ran out of memory, naming no line. */
    @Test
    void arcLineWithAnImplausibleCountFailsNamingTheLineAndTheLimit() throws IOException {
        Path f = write(dir, "arc/huge.lis.gz", gzip(text("1 8 0 0\n1 2147483647 0 1\n9 8 0 2\n")));
        assertFails(() -> TraceReader.read(f), f.toString(), "line 2", "count 2147483647", "1,048,576");
        Path g = write(dir, "arc/huger.lis.gz", gzip(text("1 99999999999 0 0\n")));
        assertFails(() -> TraceReader.read(g), "line 1", "count 99999999999");
        Path limit = write(dir, "arc/limit.lis.gz", gzip(text("0 1048576 0 0\n")));
        assertEquals(1 << 20, TraceReader.read(limit).requests(), "the limit itself is a count");
    }

    /** start + count past Long.MAX_VALUE wrapped, and the line's requests were dropped: 2 requests read instead of 6. */
    @Test
    void arcRangePastTheLargestKeyFailsAndOneEndingAtItReadsWhole() throws IOException {
        Path f = write(dir, "arc/wrap.lis", text("9223372036854775806 4 0 0\n1 2 0 0\n"));
        assertFails(() -> TraceReader.read(f), f.toString(), "line 1", "start 9223372036854775806 and count 4");
        Path last = write(dir, "arc/last.lis", text("9223372036854775806 2 0 0\n9223372036854775807 1 0 0\n"));
        assertArrayEquals(new int[] {0, 1, 1}, ids(TraceReader.read(last)));
    }

    /**
     * A trace past the most requests or distinct keys one trace holds (an int[] of requests, 2^31 - 9) failed with an
     * IllegalStateException, which ./bench sim printed as a stack trace naming neither the file nor the line; smaller
     * limits stand in for those, which only a file of 2^31 lines reaches.
     */
    @Test
    void aTracePastTheMostRequestsOrDistinctKeysFailsNamingTheFileAndTheLine() throws IOException {
        Path lines = write(dir, "lirs/long.trace", text("1\n2\n1\n*\n2\n3\n"));
        Trace.Limits limits = new Trace.Limits(4, 3);
        assertFails(() -> TraceReader.read(lines, TraceFormat.LIRS, "long", limits), lines.toString(), "line 6",
            "more than 4 requests", "split the trace");
        Path keys = write(dir, "lirs/wide.trace", text("1\n2\n1\n3\n4\n"));
        assertFails(() -> TraceReader.read(keys, TraceFormat.LIRS, "wide", new Trace.Limits(100, 3)), keys.toString(), "line 5",
            "more than 3 distinct keys");
        Path range = write(dir, "arc/long.lis", text("10 2 0 0\n20 5 0 1\n"));
        assertFails(() -> TraceReader.read(range, TraceFormat.ARC, "range", new Trace.Limits(6, 100)), "line 2",
            "more than 6 requests");
        Path binary = write(dir, "cache2k/long.trace", ints(7, 8, 7, 8, 9));
        assertFails(() -> TraceReader.read(binary, TraceFormat.CACHE2K, "binary", limits), "decompressed byte 16",
            "more than 4 requests");
        Path atTheLimits = write(dir, "lirs/full.trace", text("1\n2\n3\n1\n"));
        Trace full = TraceReader.read(atTheLimits, TraceFormat.LIRS, "full", limits);
        assertEquals(4, full.requests(), "a trace of as many requests as the limit reads whole");
        assertEquals(3, full.distinct());
    }

    @Test
    void arcLineWithoutACountFailsNamingTheLine() throws IOException {
        Path f = write(dir, "arc/short.lis.zst", zstd(text("1 1 0 0\n2\n")));
        assertFails(() -> TraceReader.read(f), "line 2", "start count");
    }

    /** Caffeine's reader, where the anchors come from, takes any line with a start and a count: so does this one. */
    @Test
    void arcLinesOfTwoOrThreeFieldsReadAsTheirStartAndCount() throws IOException {
        Path f = write(dir, "arc/fields.lis.gz", gzip(text("1 2\n10 1 0\n20 1 0 0\n")));
        assertEquals(4, TraceReader.read(f).requests());
    }

    /**
     * A line of more than four fields was read as its start and count, the rest dropped without a word: two lines run
     * together (a newline lost) read as the first line alone, and a text trace of another format whose first two
     * columns are integers read as ranges of nonsense.
     */
    @Test
    void arcLineOfMoreThanFourFieldsFailsNamingTheLine() throws IOException {
        Path joined = write(dir, "arc/joined.lis.gz", gzip(text("1 8 0 0\n10 8 0 120 8 0 2\n30 8 0 3\n")));
        assertFails(() -> TraceReader.read(joined), joined.toString(), "line 2", "7 fields", "at most four");
        Path five = write(dir, "arc/five.lis", text("1 8 0 0 7\n"));
        assertFails(() -> TraceReader.read(five), "line 1", "5 fields", "start count ignored reqno");
    }

    /** A text trace read as binary keys gave a trace of nonsense (--format cache2k on a LIRS file), rc 0. */
    @Test
    void textReadAsBinaryKeysIsRefused() throws IOException {
        Path f = write(dir, "lirs/text.trace.gz", gzip(text("1\n2\n*\n3\n4\n5\n")));
        assertFails(() -> TraceReader.read(f, TraceFormat.CACHE2K), "decompressed byte 0", "the data is text",
            "--format lirs or arc");
        assertFails(() -> TraceReader.read(f, TraceFormat.PAGETRACE), "the data is text");
        // signed keys, which the LIRS reader takes (+5 is 5): '+' was no text, and such a trace read as keys of nonsense
        Path signed = write(dir, "lirs/signed.trace", text("+1\n+2\n-3\n+4\n"));
        assertEquals(4, TraceReader.read(signed, TraceFormat.LIRS).requests());
        assertFails(() -> TraceReader.read(signed, TraceFormat.CACHE2K), "decompressed byte 0", "the data is text");
    }

    @Test
    void traceWithoutRequestsIsRefused() throws IOException {
        Path f = write(dir, "lirs/empty.trace.gz", gzip(text("*\n\n")));
        assertFails(() -> TraceReader.read(f), "no requests");
    }

    @Test
    void nextUsePointsAtTheNextRequestForTheSameKey() {
        Trace t = Trace.of("t", 5, 6, 5, 7, 6, 5);
        assertArrayEquals(new int[] {2, 4, 5, Trace.NEVER, Trace.NEVER, Trace.NEVER}, t.nextUse());
    }
}
