package io.ratatosk.bench.sim;

import com.github.luben.zstd.ZstdInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorInputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;
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
     * none and was taken for plain keys; gzip and zstd have no such header, and their data comes out as it decodes.
     */
    boolean headerProves(Path file) throws IOException {
        byte[] head;
        try (InputStream in = Files.newInputStream(file)) {
            head = in.readNBytes(12);
        }
        if (this == BZIP2) {
            for (int[] after : BZIP2_AFTER_HEADER) {
                if (startsWith(java.util.Arrays.copyOfRange(head, Math.min(4, head.length), head.length), after)) {
                    return true;
                }
            }
            return false;
        }
        if (this == XZ && head.length == 12) {
            java.util.zip.CRC32 crc = new java.util.zip.CRC32();
            crc.update(head, 6, 2);
            long stored = (head[8] & 0xffL) | (head[9] & 0xffL) << 8 | (head[10] & 0xffL) << 16 | (head[11] & 0xffL) << 24;
            return crc.getValue() == stored;
        }
        return false;
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

    /** {@code raw} decompressed: concatenated gzip members and bzip2 streams are read to the end, as the tools write them. */
    InputStream open(InputStream raw) throws IOException {
        return switch (this) {
            case GZIP -> new GzipCompressorInputStream(raw, true);
            case ZSTD -> new ZstdInputStream(raw);
            case XZ -> new XZInputStream(raw);
            case BZIP2 -> new BZip2CompressorInputStream(raw, true);
            case NONE -> raw;
        };
    }
}
