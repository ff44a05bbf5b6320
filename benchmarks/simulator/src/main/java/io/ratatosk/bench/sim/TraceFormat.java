package io.ratatosk.bench.sim;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The trace formats the simulator reads: how a file is compressed and how its keys are encoded.
 * {@link #detect} picks one from the path; {@code --format} forces one by {@link #id()}.
 */
public enum TraceFormat {
    LIRS("lirs", "gzip text, one integer key per line; lines holding * are skipped (lirs/*.trace.gz)",
        Compression.GZIP, LirsTextDecoder::new),
    ARC("arc", "zstd text, `start count ignored reqno` per line = keys start..start+count-1 (arc/*.lis.zst)",
        Compression.ZSTD, ArcRangeDecoder::new),
    CACHE2K("cache2k", "xz, big-endian 32-bit keys back to back (cache2k/*.trace.xz)",
        Compression.XZ, file -> new BigEndianKeyDecoder(file, 4, false)),
    CLOUDPHYSICS("cloudphysics", "xz, big-endian 32-bit keys back to back (cloudphysics/*.trace.xz)",
        Compression.XZ, file -> new BigEndianKeyDecoder(file, 4, false)),
    CORDA("corda", "gzip, big-endian 64-bit keys back to back (corda/*.gz)",
        Compression.GZIP, file -> new BigEndianKeyDecoder(file, 8, false)),
    SCARAB("scarab", "xz, big-endian 64-bit keys back to back (scarab/*.trace.xz, scarab*.trace.xz)",
        Compression.XZ, file -> new BigEndianKeyDecoder(file, 8, false)),
    PAGETRACE("pagetrace", "Ratatosk page trace, big-endian 64-bit PageKeys, plain (*.pagetrace) or gzip (*.pagetrace.gz)",
        Compression.GZIP_IF_GZ_SUFFIX, file -> new BigEndianKeyDecoder(file, 8, true));

    /** How the bytes on disk are compressed. */
    enum Compression { GZIP, ZSTD, XZ, GZIP_IF_GZ_SUFFIX }

    private final String id;
    private final String description;
    private final Compression compression;
    private final Function<Path, KeyDecoder> decoder;

    TraceFormat(String id, String description, Compression compression, Function<Path, KeyDecoder> decoder) {
        this.id = id;
        this.description = description;
        this.compression = compression;
        this.decoder = decoder;
    }

    public String id() {
        return id;
    }

    public String description() {
        return description;
    }

    Compression compression() {
        return compression;
    }

    KeyDecoder decoderFor(Path file) {
        return decoder.apply(file);
    }

    /** The format named {@code id}; an unknown name is refused with the list of valid ones. */
    public static TraceFormat byId(String id) {
        for (TraceFormat f : values()) {
            if (f.id.equals(id.toLowerCase(Locale.ROOT))) {
                return f;
            }
        }
        throw new IllegalArgumentException("unknown trace format '" + id + "'; valid formats: " + ids());
    }

    public static String ids() {
        return Arrays.stream(values()).map(TraceFormat::id).collect(Collectors.joining(", "));
    }

    /**
     * The format a path's name and folders imply, or empty if it is not a trace (a README, a
     * licence). Page traces by extension; then ARC by {@code .lis.zst}; then the folder (or a name
     * starting {@code scarab}) decides between the 32- and 64-bit binary families; {@code *.trace.gz} is LIRS text, other
     * {@code *.gz} are corda.
     */
    public static Optional<TraceFormat> detect(Path path) {
        String name = path.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".pagetrace") || name.endsWith(".pagetrace.gz")) {
            return Optional.of(PAGETRACE);
        }
        if (name.endsWith(".lis.zst")) {
            return Optional.of(ARC);
        }
        if (name.endsWith(".trace.xz")) {
            // By the name too: the public scarab trace is published as scarab-recs.trace.xz, and laid out flat
            // beside the 32-bit ones it would otherwise be read as twice as many 32-bit keys, each half a key.
            if (underFolder(path, "scarab") || name.startsWith("scarab")) {
                return Optional.of(SCARAB);
            }
            return Optional.of(underFolder(path, "cloudphysics") ? CLOUDPHYSICS : CACHE2K);
        }
        if (name.endsWith(".gz")) {
            if (underFolder(path, "corda")) {
                return Optional.of(CORDA);
            }
            return Optional.of(name.endsWith(".trace.gz") ? LIRS : CORDA);
        }
        return Optional.empty();
    }

    private static boolean underFolder(Path path, String folder) {
        for (Path p = path.toAbsolutePath().getParent(); p != null; p = p.getParent()) {
            Path name = p.getFileName();
            if (name != null && name.toString().equalsIgnoreCase(folder)) {
                return true;
            }
        }
        return false;
    }
}
