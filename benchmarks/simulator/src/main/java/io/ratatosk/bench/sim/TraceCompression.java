package io.ratatosk.bench.sim;

import com.github.luben.zstd.ZstdInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import org.tukaani.xz.XZInputStream;

/**
 * How a trace file's bytes are compressed, told by its first bytes (each format's magic number), not by its name
 * or its format: the same trace is published plain, gzipped, zstd- or xz-compressed in different places, and a
 * format forced with {@code --format} reads any of them. A file that starts with no known magic is read as it is; so
 * is one whose name says plain and whose bytes, read as the magic says, are no such data ({@link TraceReader}).
 */
enum TraceCompression {
    GZIP("gzip", new int[] {0x1f, 0x8b, 0x08}),
    ZSTD("zstd", new int[] {0x28, 0xb5, 0x2f, 0xfd}),
    XZ("xz", new int[] {0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00}),
    BZIP2("bzip2", new int[] {0x42, 0x5a, 0x68}), // "BZh", then the block size digit
    NONE("uncompressed", new int[0]);

    private static final int LONGEST_MAGIC = 6;

    private final String displayName;
    private final int[] magic;

    TraceCompression(String displayName, int[] magic) {
        this.displayName = displayName;
        this.magic = magic;
    }

    /** For messages: "gzip", "zstd", "xz", "bzip2" or "uncompressed". */
    String displayName() {
        return displayName;
    }

    /** The compression {@code file}'s first bytes announce. */
    static TraceCompression of(Path file) throws IOException {
        byte[] head;
        try (InputStream in = Files.newInputStream(file)) {
            head = in.readNBytes(LONGEST_MAGIC);
        }
        return of(head);
    }

    static TraceCompression of(byte[] head) {
        if (head.length >= 4 && (head[0] & 0xf0) == 0x50 && (head[1] & 0xff) == 0x2a && (head[2] & 0xff) == 0x4d
            && (head[3] & 0xff) == 0x18) {
            // A zstd skippable frame (magic 0x184D2A50 to 0x184D2A5F, little-endian), which pzstd writes first: read as
            // uncompressed before, its compressed bytes became keys without a word
            return ZSTD;
        }
        for (TraceCompression c : values()) {
            if (c != NONE && startsWith(head, c.magic) && (c != BZIP2 || head.length > 3 && head[3] >= '1' && head[3] <= '9')) {
                return c;
            }
        }
        return NONE;
    }

    /** bzip2's first block's magic (pi's digits), or its end-of-stream magic in an empty stream, after "BZh1".."BZh9". */
    private static final int[][] BZIP2_AFTER_HEADER = {{0x31, 0x41, 0x59, 0x26, 0x53, 0x59}, {0x17, 0x72, 0x45, 0x38, 0x50, 0x90}};

    /**
     * Whether {@code file}'s stream header, past the magic number, is this compression's beyond doubt: bzip2's block
     * magic, xz's stream flags with their CRC32. A plain key that begins with the magic number holds it one time in 2^32
     * or less. bzip2 and xz deliver no byte before a whole block checks out, so a cut one under a plain name delivered
     * none and was taken for plain keys. zstd decodes whole blocks too, but its header has no checksum: a frame and
     * first block header that check out, the block running past the file's end, are a zstd stream cut inside that block
     * ({@link #zstdCutInsideFirstBlock}), and frames whose headers all check out and end exactly at the file's end are
     * one damaged inside ({@link #zstdFramesFillFile}). gzip has no such header, and its data comes out as it decodes.
     */
    boolean headerProves(Path file) throws IOException {
        byte[] head;
        try (InputStream in = Files.newInputStream(file)) {
            head = in.readNBytes(ZSTD_LONGEST_HEADERS);
        }
        if (this == ZSTD) {
            return zstdCutInsideFirstBlock(head, Files.size(file)) || zstdFramesFillFile(file);
        }
        if (this == BZIP2) {
            for (int[] after : BZIP2_AFTER_HEADER) {
                if (startsWith(java.util.Arrays.copyOfRange(head, Math.min(4, head.length), head.length), after)) {
                    return true;
                }
            }
            return false;
        }
        if (this == XZ && head.length >= 12) {
            java.util.zip.CRC32 crc = new java.util.zip.CRC32();
            crc.update(head, 6, 2);
            long stored = (head[8] & 0xffL) | (head[9] & 0xffL) << 8 | (head[10] & 0xffL) << 16 | (head[11] & 0xffL) << 24;
            return crc.getValue() == stored;
        }
        return false;
    }

    /** zstd's magic, frame header descriptor, window descriptor, dictionary id and content size, and a block header. */
    private static final int ZSTD_LONGEST_HEADERS = 4 + 1 + 1 + 4 + 8 + 3;

    /** zstd's largest window, as a power of two (2 GiB): the format's, on 64-bit decoders. */
    private static final int ZSTD_WINDOW_LOG_MAX = 31;

    /** zstd's largest block, decompressed (and compressed: a block that would not shrink is stored raw). */
    private static final int ZSTD_BLOCK_MAX = 128 * 1024;

    /**
     * Whether {@code head}, the first bytes of a file of {@code fileSize} bytes that begins with zstd's frame magic, is a
     * frame header and first block header as the zstd format defines them (reserved bits clear, a window zstd allows,
     * a block type and size it allows) whose block ends past the file's end. A plain trace whose first key is zstd's
     * magic meets that only where the file is shorter than the block its next bytes would declare.
     */
    static boolean zstdCutInsideFirstBlock(byte[] head, long fileSize) {
        long windowSize = zstdWindowSize(head);
        if (windowSize < 0) {
            return false;
        }
        int headerSize = zstdFrameHeaderSize(head[4] & 0xff);
        if (head.length < headerSize + 3) {
            return false; // cut inside its header: as likely two plain keys
        }
        int blockHeader = (int) littleEndian(head, headerSize, 3);
        return zstdBlockAllowed(blockHeader, windowSize) && headerSize + 3 + zstdBlockStoredBytes(blockHeader) > fileSize;
    }

    /**
     * The window size of the zstd frame header {@code head} begins with, or -1 where it is none the format allows (no
     * frame magic, a reserved bit set, a window past zstd's largest, the header cut short).
     */
    private static long zstdWindowSize(byte[] head) {
        if (head.length < 5 || !startsWith(head, ZSTD.magic)) {
            return -1;
        }
        int descriptor = head[4] & 0xff;
        if ((descriptor & 0x08) != 0 || head.length < zstdFrameHeaderSize(descriptor)) {
            return -1; // reserved bit
        }
        if ((descriptor & 0x20) != 0) { // single segment: the window is the content
            int contentSizeBytes = zstdContentSizeBytes(descriptor);
            return littleEndian(head, zstdFrameHeaderSize(descriptor) - contentSizeBytes, contentSizeBytes)
                + (contentSizeBytes == 2 ? 256 : 0);
        }
        int windowLog = 10 + ((head[5] & 0xff) >>> 3);
        if (windowLog > ZSTD_WINDOW_LOG_MAX) {
            return -1;
        }
        return (1L << windowLog) + ((1L << windowLog) >>> 3) * (head[5] & 7);
    }

    /** Whether a zstd block header is one the format allows in a frame of {@code windowSize}: its type, its size. */
    private static boolean zstdBlockAllowed(int blockHeader, long windowSize) {
        int blockType = (blockHeader >>> 1) & 3;
        return blockType != 3 && (blockHeader >>> 3) <= Math.min(windowSize, ZSTD_BLOCK_MAX);
    }

    /**
     * Whether {@code file} is zstd frames (skippable ones among them), every frame and block header one the format
     * allows, that end exactly at the file's end: a zstd trace damaged inside its first block (bytes changed, not cut)
     * delivers nothing, and its headers past the magic are all that tells it from a plain trace whose first key is the
     * magic. Such a trace's bytes, read as headers, land exactly on its end about once in the largest block's size.
     */
    static boolean zstdFramesFillFile(Path file) throws IOException {
        return walkZstdFrames(file, true);
    }

    /**
     * Whether the zstd frames of {@code file}, which the decoder read to its end without a word, end whole at the file's
     * end: zstd-jni ends its stream without error at a frame's end where the file ends inside the next frame, so a
     * trace of several frames (pzstd's, or zstd's output concatenated) cut in a later frame read as its first frames'
     * keys alone, exit 0. Walks the frame and block headers (sizes only: nothing is decoded); skippable frames are
     * passed over, fewer than a magic number's four bytes after a frame are a cut one (the decoder passes over them),
     * and anything else after a frame is the decoder's to judge.
     */
    static boolean zstdFramesEndWhole(Path file) throws IOException {
        return walkZstdFrames(file, false);
    }

    /**
     * Walks {@code file}'s zstd frames by their frame and block headers (sizes only: nothing is decoded), passing over
     * skippable frames; whether they end exactly at the file's end. {@code strict}: every header must be one the format
     * allows and the file must begin with a frame ({@link #zstdFramesFillFile}); otherwise anything after a frame that
     * is no frame is the decoder's to judge ({@link #zstdFramesEndWhole}). A frame's magic or skippable header cut
     * short is a cut file either way.
     */
    private static boolean walkZstdFrames(Path file, boolean strict) throws IOException {
        try (FileChannel channel = FileChannel.open(file)) {
            long size = channel.size();
            long at = 0;
            boolean sawFrame = false;
            while (at < size) {
                byte[] head = read(channel, at, ZSTD_LONGEST_HEADERS);
                if (head.length < 4) {
                    return false; // a frame's magic number cut: the decoder ends before it without a word
                }
                if (of(head) == ZSTD && !startsWith(head, ZSTD.magic)) { // a skippable frame
                    if (head.length < 8) {
                        return false;
                    }
                    at += 8 + littleEndian(head, 4, 4);
                    continue;
                }
                if (!startsWith(head, ZSTD.magic)) {
                    return !strict;
                }
                long windowSize = zstdWindowSize(head);
                if (head.length < 5 || strict && windowSize < 0) {
                    return false;
                }
                int descriptor = head[4] & 0xff;
                at += zstdFrameHeaderSize(descriptor);
                boolean lastBlock = false;
                while (!lastBlock) {
                    byte[] block = read(channel, at, 3);
                    if (block.length < 3) {
                        return false;
                    }
                    int blockHeader = (int) littleEndian(block, 0, 3);
                    if (strict && !zstdBlockAllowed(blockHeader, windowSize)) {
                        return false;
                    }
                    lastBlock = (blockHeader & 1) != 0;
                    at += 3 + zstdBlockStoredBytes(blockHeader);
                }
                at += (descriptor & 0x04) != 0 ? 4 : 0; // the content checksum
                sawFrame = true;
            }
            return at == size && (sawFrame || !strict);
        }
    }

    /** A zstd frame header's bytes, its magic included, by its frame header descriptor. */
    private static int zstdFrameHeaderSize(int descriptor) {
        boolean singleSegment = (descriptor & 0x20) != 0;
        return 5 + (singleSegment ? 0 : 1) + new int[] {0, 1, 2, 4}[descriptor & 3] + zstdContentSizeBytes(descriptor);
    }

    /** The bytes a zstd block stores after its 3-byte header: its size, but one for an RLE block (its one byte). */
    private static int zstdBlockStoredBytes(int blockHeader) {
        return ((blockHeader >>> 1) & 3) == 1 ? 1 : blockHeader >>> 3;
    }

    /** The bytes of a zstd frame header's content size field, by its descriptor. */
    private static int zstdContentSizeBytes(int descriptor) {
        return new int[] {(descriptor & 0x20) != 0 ? 1 : 0, 2, 4, 8}[descriptor >>> 6];
    }

    /** Up to {@code count} bytes of {@code channel} from {@code position}: fewer where the file ends before. */
    private static byte[] read(FileChannel channel, long position, int count) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(count);
        while (buffer.hasRemaining() && channel.read(buffer, position + buffer.position()) > 0) {
            // a read may give fewer bytes than asked
        }
        return java.util.Arrays.copyOf(buffer.array(), buffer.position());
    }

    private static long littleEndian(byte[] bytes, int from, int count) {
        long value = 0;
        for (int i = count - 1; i >= 0; i--) {
            value = value << 8 | (bytes[from + i] & 0xff);
        }
        return value;
    }

    private static boolean startsWith(byte[] head, int[] magic) {
        if (head.length < magic.length) {
            return false;
        }
        for (int i = 0; i < magic.length; i++) {
            if ((head[i] & 0xff) != magic[i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@code raw} decompressed: concatenated gzip members and bzip2 streams are read to the end, as the tools write them,
     * and zero bytes after the last one passed over, as gzip and bzip2 do ({@link ConcatenatedStreams}).
     */
    InputStream open(InputStream raw) throws IOException {
        return switch (this) {
            case GZIP -> ConcatenatedStreams.gzip(raw);
            // Up to the format's largest window (zstd --long=31 over a pipe writes 2 GiB's): zstd-jni's default, 128
            // MiB, refused such a whole trace as corrupt. The decoder's buffer grows only as far as the data reaches.
            case ZSTD -> new ZstdInputStream(raw).setLongMax(ZSTD_WINDOW_LOG_MAX);
            case XZ -> new XZInputStream(raw);
            case BZIP2 -> ConcatenatedStreams.bzip2(raw);
            case NONE -> raw;
        };
    }
}
