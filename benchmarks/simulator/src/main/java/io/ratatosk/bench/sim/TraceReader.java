package io.ratatosk.bench.sim;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Loads a whole trace file into a {@link Trace}, decompressed as its first bytes say ({@link TraceCompression}); one
 * whose name says plain ({@link TraceFormat#namedPlain}) and that is not the compressed data its first bytes announce
 * is read as it is (those bytes are its first key). Decompression is the libraries' (commons-compress, zstd-jni, xz); any failure, the decompressor's or the
 * decoder's, ends with a
 * {@link TraceFormatException} that names the file, the line or decompressed byte reached and the
 * compressed bytes read, never with a silently shorter trace.
 */
public final class TraceReader {
    private TraceReader() {
    }

    /** Reads {@code file} in the format its path implies. */
    public static Trace read(Path file) throws IOException {
        TraceFormat format = TraceFormat.detect(file).orElseThrow(() -> new IllegalArgumentException(
            "cannot tell the trace format of " + file + " from its name; use --format, one of: " + TraceFormat.ids()));
        return read(file, format);
    }

    public static Trace read(Path file, TraceFormat format) throws IOException {
        return read(file, format, displayName(file));
    }

    /** Reads {@code file} as {@code format}, named {@code name} in every output (see {@link #displayNames}). */
    public static Trace read(Path file, TraceFormat format, String name) throws IOException {
        return read(file, format, name, Trace.Limits.MOST);
    }

    /** Requests {@link #checkStart} reads: enough for every format's first records, a few KiB of any file. */
    static final int START_REQUESTS = 1000;

    /**
     * Reads the start of {@code file} as {@link #read(Path, TraceFormat, String)} reads it (its compression, its
     * format's first records), the rest left unread: a run of several traces refuses one that cannot be read at all
     * (no requests, a first line that is no key, no such compressed data) before the first replay, where the whole
     * read found it only after the traces before it had replayed, hours into a run of a folder. Damage further on is
     * found by the whole read.
     *
     * @throws TraceFormatException as {@link #read(Path, TraceFormat, String)} would for the same start
     */
    public static void checkStart(Path file, TraceFormat format) throws IOException {
        read(file, format, displayName(file), Trace.Limits.start(START_REQUESTS));
    }

    /** As {@link #read(Path, TraceFormat, String)}, a trace past {@code limits} refused naming where it passed them. */
    static Trace read(Path file, TraceFormat format, String name, Trace.Limits limits) throws IOException {
        if (Files.isDirectory(file)) {
            // Opened and read, a folder failed with an IOException "Is a directory" that named nothing
            throw new FileSystemException(file.toString(), null, "a folder, not a trace file");
        }
        TraceCompression compression = TraceCompression.of(file);
        if (compression == TraceCompression.NONE) {
            return readOrThrow(file, format, name, limits, compression);
        }
        if (!TraceFormat.namedPlain(file)) {
            try {
                return read(file, format, name, limits, compression);
            } catch (DecompressionFailed failed) {
                // A plain binary trace whose first key begins with a magic number (a 32-bit key 0x1f8b08.., gzip's)
                // failed as corrupt compressed data, and nothing said why it had been read as compressed at all
                throw OutputFile.compressionEnding(file) != null || isCompressedData(file, compression, failed)
                    ? failed.exception
                    : failed.exception.noting("(read as " + compression.displayName() + " because its first bytes are "
                    + compression.displayName() + "'s magic number; a plain trace whose first key begins so is read as it"
                    + " is where its name says plain: *.trace, *.lis, *.pagetrace)");
            }
        }
        // Its name says plain, its first bytes a compression: read as compressed first (such a file always was), and
        // where that fails before a byte came out, as the name says, the magic number being its first key's first
        // bytes: a plain trace is no compressed stream, and fails at once (its header, its first block). Compressed
        // data that failed further on is damaged compressed data: read as keys, it was garbage without a word. So is
        // bzip2 or xz data whose header past the magic checks out, and zstd data cut inside its first block
        // (TraceCompression.headerProves): they deliver nothing before a whole block does.
        TraceFormatException asCompressed;
        try {
            return read(file, format, name, limits, compression);
        } catch (DecompressionFailed failed) {
            if (isCompressedData(file, compression, failed)) {
                throw failed.exception;
            }
            asCompressed = failed.exception;
        }
        try {
            return readOrThrow(file, format, name, limits, TraceCompression.NONE);
        } catch (TraceFormatException plain) {
            plain.addSuppressed(asCompressed);
            throw plain.noting("(read as it is, as its name says, its first bytes being " + compression.displayName() + "'s"
                + " magic number but no " + compression.displayName() + " data: " + asCompressed.getMessage() + ")");
        }
    }

    /**
     * Whether {@code file}, which failed to decompress, is compressed data nonetheless (damaged), not a plain trace whose
     * first key begins with the magic number: the decompressor delivered bytes before it failed, or the header past the
     * magic checks out.
     */
    private static boolean isCompressedData(Path file, TraceCompression compression, DecompressionFailed failed)
            throws IOException {
        return bytesOut(file, compression, failed) > 0 || compression.headerProves(file);
    }

    /** How many bytes {@link #bytesOut} counts one at a time: more would have filled a whole read. */
    private static final int EXACT_COUNT_BYTES = 8192;

    /**
     * The bytes the decompressor delivered from {@code file} before it failed: {@link DecompressionFailed#decompressed}
     * counts whole reads of up to 8 KiB, and the read that failed counts none, so where it says none they are counted
     * again, one at a time. A small cut gzip (1,000 keys) counted none, was taken for a plain trace whose first key
     * begins with the magic number, and was read as its compressed bytes.
     */
    private static long bytesOut(Path file, TraceCompression compression, DecompressionFailed failed) {
        if (failed.decompressed > 0) {
            return failed.decompressed;
        }
        long delivered = 0;
        try (InputStream in = compression.open(new BufferedInputStream(Files.newInputStream(file), 1 << 16))) {
            while (delivered < EXACT_COUNT_BYTES && in.read() >= 0) {
                delivered++;
            }
        } catch (IOException | RuntimeException failedAgain) {
            // where the first read failed: what came out before is counted
        }
        return delivered;
    }

    private static Trace readOrThrow(Path file, TraceFormat format, String name, Trace.Limits limits,
            TraceCompression compression) throws IOException {
        try {
            return read(file, format, name, limits, compression);
        } catch (DecompressionFailed failed) {
            throw failed.exception;
        }
    }

    /** A failure of the file's read or decompression, not of its keys: the caller may read it another way. */
    private static final class DecompressionFailed extends Exception {
        private static final long serialVersionUID = 1L;

        final TraceFormatException exception;
        /** The bytes the decompressor delivered before it failed. */
        final long decompressed;

        DecompressionFailed(TraceFormatException exception, long decompressed) {
            super(exception.getMessage(), exception, false, false);
            this.exception = exception;
            this.decompressed = decompressed;
        }
    }

    private static Trace read(Path file, TraceFormat format, String name, Trace.Limits limits, TraceCompression compression)
            throws IOException, DecompressionFailed {
        long sizeOnDisk = Files.size(file);
        Trace.Builder builder = new Trace.Builder(name, format.id(), // a start's arrays no larger than it
            Math.min(estimateRequests(format, compression, sizeOnDisk), limits.requests()), limits);
        KeyDecoder decoder = format.decoderFor(file);
        try (CountingInputStream raw = new CountingInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16))) {
            CountingInputStream plain = null;
            try {
                plain = new CountingInputStream(compression.open(raw), 8192);
                try (InputStream in = new BufferedInputStream(plain, 1 << 16)) {
                    decoder.decode(in, builder);
                }
                if (compression == TraceCompression.ZSTD && !TraceCompression.zstdFramesEndWhole(file)) {
                    // zstd-jni ends without a word at a frame's end where the file ends inside the next one
                    throw new TraceFormatException(file, "the zstd data is truncated", String.format(Locale.ROOT,
                        "the file ends at byte %d inside a zstd frame, after %,d decompressed bytes and %,d requests read",
                        sizeOnDisk, plain.count(), builder.requests()), null);
                }
            } catch (TraceFormatException e) {
                throw e;
            } catch (Trace.StartRead e) {
                // the start asked for is read: the rest, and the zstd file's last frame, are left to the whole read
            } catch (Trace.TooLargeException e) {
                throw new TraceFormatException(file, decoder.position(), e.getMessage(), null);
            } catch (IOException e) {
                // The decoders read ahead, so a line number here would be early: name the bytes instead.
                // Decompressors read ahead and fail only at the damage (xz: at a block's end), so the bytes delivered
                // are a lower bound, not a spot within 8 KiB as this said; bzip2 decodes its first block on opening.
                long decompressed = plain == null ? 0 : plain.count();
                if (compression != TraceCompression.NONE && raw.count() >= sizeOnDisk && ranOutOfInput(e)) {
                    // The decompressor read the whole file and asked for more: the file was cut short. Said so, with
                    // how far it got, not as the decompressor's exception printed ("java.io.EOFException").
                    throw new DecompressionFailed(new TraceFormatException(file, "the " + compression.displayName()
                        + " data is truncated", String.format(Locale.ROOT, "the file ends at byte %d before the end of the"
                        + " compressed stream, after %,d decompressed bytes (or more: decompressors read ahead) and %,d"
                        + " requests read", sizeOnDisk, decompressed, builder.requests()), e), decompressed);
                }
                String where = (plain == null ? "before the first decompressed byte"
                    : "after decompressed byte " + decompressed + " (or later: decompressors read ahead)")
                    + " (compressed byte " + raw.count() + " of " + sizeOnDisk + ")";
                String detail = e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
                throw new DecompressionFailed(new TraceFormatException(file, where, (compression == TraceCompression.NONE
                    ? "" : "corrupt " + compression.displayName() + " data: ") + detail, e), decompressed);
            }
        }
        if (builder.requests() == 0) {
            throw new TraceFormatException(file, "end of data", "the trace holds no requests", null);
        }
        return builder.build();
    }

    /**
     * Whether a decompressor's failure says it ran out of input (gzip's and xz's EOFException, bzip2's "Unexpected end
     * of stream", zstd-jni's "Truncated source"), not that the data is corrupt: a file read whole by the decompressor's
     * first read (zstd-jni reads 128 KiB at a time) or a gzip whose CRC32 fails at its end was said truncated, whatever
     * its failure, sending the user to fetch again a file whose every byte was there.
     */
    private static boolean ranOutOfInput(IOException e) {
        String message = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
        return e instanceof java.io.EOFException || message.contains("truncated") || message.contains("end of stream");
    }

    /** A trace's name for tables: its folder and file name, e.g. {@code lirs/cs.trace.gz}. */
    static String displayName(Path file) {
        return lastParts(file, 1);
    }

    /**
     * The names of several traces for one report: each its {@link #displayName}, unless two would share it
     * ({@code a/lirs/x.trace} and {@code b/lirs/x.trace}); those get as many folders more as tell them apart. Two
     * traces under one name were one in the JSON, the summary and the charts.
     */
    public static Map<Path, String> displayNames(List<Path> files) {
        Map<Path, String> names = new HashMap<>();
        int most = files.stream().mapToInt(f -> f.toAbsolutePath().normalize().getNameCount()).max().orElse(0);
        for (int folders = 1; names.size() < files.size(); folders++) {
            Map<String, List<Path>> byName = new LinkedHashMap<>();
            for (Path file : files) {
                if (!names.containsKey(file)) {
                    byName.computeIfAbsent(lastParts(file, folders), n -> new ArrayList<>()).add(file);
                }
            }
            Set<String> taken = new HashSet<>(names.values());
            byName.forEach((name, named) -> {
                if (named.size() == 1 && !taken.contains(name)) {
                    names.put(named.get(0), name);
                }
            });
            if (folders >= most) { // whole paths now: what is left is one file named twice, called by its full path
                files.forEach(f -> names.putIfAbsent(f, f.toAbsolutePath().normalize().toString()));
            }
        }
        Map<Path, String> inOrder = new LinkedHashMap<>();
        files.forEach(f -> inOrder.put(f, names.get(f)));
        return inOrder;
    }

    /** The file's name after its last {@code folders} folders, {@code /}-separated. */
    private static String lastParts(Path file, int folders) {
        Path absolute = file.toAbsolutePath().normalize();
        int count = absolute.getNameCount();
        int from = Math.max(0, count - 1 - folders);
        return count == 0 ? absolute.toString() : absolute.subpath(from, count).toString().replace('\\', '/');
    }

    private static int estimateRequests(TraceFormat format, TraceCompression compression, long bytesOnDisk) {
        long estimate = format == TraceFormat.PAGETRACE || compression == TraceCompression.NONE ? bytesOnDisk / 4 : bytesOnDisk * 2;
        return (int) Math.min(1 << 26, Math.max(1024, estimate));
    }
}
